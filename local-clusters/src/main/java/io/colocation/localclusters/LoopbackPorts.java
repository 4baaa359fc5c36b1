package io.colocation.localclusters;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * Loopback ports for servers that must be told their port before they bind (etcd, kube-apiserver, a ResourceManager that
 * restarts on the same port, a ZooKeeper that restarts). Where a server can bind port 0 and report what it got, use that
 * instead: nothing here is needed then.
 *
 * <p>A port picked free and bound later is a race: meanwhile the kernel hands ephemeral ports
 * ({@code /proc/sys/net/ipv4/ip_local_port_range}, 32768–60999 by default) to outgoing connections. So ports are picked
 * <em>outside</em> that range, at random (two processes rarely pick the same one), never twice in one JVM, and a start
 * that still finds its port taken (another process picked it) is retried with fresh ports by {@link #retryOnBindFailure}.
 */
public final class LoopbackPorts {
    /** Below this are well-known and registered service ports people run on hosts. */
    private static final int LOWEST = 10_000;
    private static final Set<Integer> HANDED_OUT = new HashSet<>();

    private LoopbackPorts() {
    }

    /** A port outside the ephemeral range, free on loopback now and not handed out before in this JVM. */
    public static synchronized int pick() {
        int[] range = pickRange(ephemeralRange(Path.of("/proc/sys/net/ipv4/ip_local_port_range")));
        for (int attempt = 0; attempt < 1000; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(range[0], range[1] + 1);
            if (!HANDED_OUT.contains(port) && freeNow(port)) {
                HANDED_OUT.add(port);
                return port;
            }
        }
        throw new IllegalStateException("no free loopback port in " + range[0] + "-" + range[1] + " after 1000 tries");
    }

    /**
     * Runs {@code start} up to {@code attempts} times while it fails because an address was in use (another process
     * bound a port between the pick and the start); {@code start} must pick its ports anew on each call and leave
     * nothing running when it fails. Any other failure, or the last bind failure, is thrown as it is.
     */
    public static <T> T retryOnBindFailure(int attempts, Supplier<T> start) {
        for (int i = 1; ; i++) {
            try {
                return start.get();
            } catch (RuntimeException e) {
                if (i >= attempts || !isBindFailure(e)) {
                    throw e;
                }
            }
        }
    }

    /** Whether {@code t} or one of its causes says an address was already in use. */
    public static boolean isBindFailure(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof BindException || c.getMessage() != null && c.getMessage().contains("ddress already in use")) {
                return true;
            }
        }
        return false;
    }

    /** The ports to pick from: below the ephemeral range when there is room, else above it. */
    static int[] pickRange(int[] ephemeral) {
        if (ephemeral[0] - LOWEST >= 2_000) {
            return new int[] {LOWEST, ephemeral[0] - 1};
        }
        if (65_535 - ephemeral[1] >= 2_000) {
            return new int[] {ephemeral[1] + 1, 65_535};
        }
        throw new IllegalStateException("the ephemeral port range " + ephemeral[0] + "-" + ephemeral[1]
                + " leaves no room for fixed test ports; narrow net.ipv4.ip_local_port_range");
    }

    /** The kernel's ephemeral port range; Linux's default when it cannot be read. */
    static int[] ephemeralRange(Path file) {
        try {
            String[] parts = Files.readString(file).trim().split("\\s+");
            return new int[] {Integer.parseInt(parts[0]), Integer.parseInt(parts[1])};
        } catch (IOException | RuntimeException e) {
            return new int[] {32_768, 60_999};
        }
    }

    private static boolean freeNow(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
