package io.colocation.testsupport.zookeeper;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.test.TestingServer;

/**
 * A real ZooKeeper server (Curator's {@link TestingServer}) on a free loopback port, with clients that
 * are closed with it. {@link #stop()} and {@link #restart()} are there for fault tests.
 */
public final class TestZooKeeper implements Closeable {
    /** Short enough that session-expiry tests run in seconds. */
    public static final int SESSION_TIMEOUT_MS = 6_000;
    public static final int CONNECTION_TIMEOUT_MS = 3_000;

    private final TestingServer server;
    private final List<CuratorFramework> clients = new ArrayList<>();

    public TestZooKeeper() throws Exception {
        this.server = new TestingServer(true);
    }

    public String connectString() {
        return server.getConnectString();
    }

    public TestingServer server() {
        return server;
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

    public void stop() throws IOException {
        server.stop();
    }

    public void restart() throws Exception {
        server.restart();
    }

    @Override
    public synchronized void close() throws IOException {
        for (CuratorFramework client : clients) {
            client.close();
        }
        clients.clear();
        server.close();
    }
}
