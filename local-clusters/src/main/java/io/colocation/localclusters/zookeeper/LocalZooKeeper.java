package io.colocation.localclusters.zookeeper;

import io.colocation.localclusters.LoopbackPorts;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;

/**
 * A real standalone ZooKeeper server embedded in this JVM, on a loopback port outside the ephemeral range (so a
 * {@link #restart()} finds its port again), with Curator clients that are closed with it. {@link #stop()} and
 * {@link #restart()} are there for fault tests and keep the data, as a restarted server would.
 */
public final class LocalZooKeeper implements Closeable {
    /** Short enough that session-expiry tests run in seconds. */
    public static final int SESSION_TIMEOUT_MS = 6_000;
    public static final int CONNECTION_TIMEOUT_MS = 3_000;
    private static final int TICK_MS = 500;

    private final Path dataDir;
    private final InetAddress address;
    private final List<CuratorFramework> clients = new ArrayList<>();
    private int port;
    private ZooKeeperServer server;
    private ServerCnxnFactory connections;

    public LocalZooKeeper() throws IOException {
        this(InetAddress.getLoopbackAddress());
    }

    /** A server on {@code address} (a host address, for clients in pods of a real node), not loopback. */
    public LocalZooKeeper(InetAddress address) throws IOException {
        this.address = address;
        this.dataDir = Files.createTempDirectory("colocation-zookeeper-");
        try {
            LoopbackPorts.retryOnBindFailure(5, () -> {
                port = LoopbackPorts.pick();
                try {
                    serve();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                return port;
            });
        } catch (UncheckedIOException e) {
            deleteData();
            throw e.getCause();
        }
    }

    private synchronized void serve() throws IOException {
        ZooKeeperServer zk = new ZooKeeperServer(dataDir.toFile(), dataDir.toFile(), TICK_MS);
        // ticks of 500 ms allow sessions of 1 to 10 s by default; tests ask for 6 s
        zk.setMaxSessionTimeout(60_000);
        ServerCnxnFactory factory = ServerCnxnFactory.createFactory();
        factory.configure(new InetSocketAddress(address, port), 1000);
        try {
            factory.startup(zk);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            factory.shutdown();
            throw new IOException("interrupted while starting ZooKeeper", e);
        } catch (IOException | RuntimeException e) {
            factory.shutdown();
            zk.shutdown();
            throw e;
        }
        server = zk;
        connections = factory;
    }

    public String connectString() {
        return address.getHostAddress() + ":" + port;
    }

    /** A started client with short timeouts; closed when this server closes. */
    public synchronized CuratorFramework newClient() {
        CuratorFramework client = CuratorFrameworkFactory.builder()
                .connectString(connectString())
                .sessionTimeoutMs(SESSION_TIMEOUT_MS)
                .connectionTimeoutMs(CONNECTION_TIMEOUT_MS)
                .retryPolicy(new ExponentialBackoffRetry(100, 5))
                .build();
        client.start();
        clients.add(client);
        return client;
    }

    /** Stops the server (clients see it gone); the data stays for {@link #restart()}. */
    public synchronized void stop() {
        if (connections != null) {
            connections.shutdown();
            server.shutdown();
            connections = null;
            server = null;
        }
    }

    /** Starts the server again on the same port with the same data. */
    public synchronized void restart() throws IOException {
        stop();
        serve();
    }

    @Override
    public synchronized void close() throws IOException {
        for (CuratorFramework client : clients) {
            client.close();
        }
        clients.clear();
        stop();
        deleteData();
    }

    private void deleteData() throws IOException {
        try (Stream<Path> files = Files.walk(dataDir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
