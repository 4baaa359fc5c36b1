package io.colocation.broker.admission;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.SocketChannelEndPoint;

/**
 * At most {@code perClient} open TCP connections from one address: a client that opens more has the new ones closed
 * as they are accepted. Slow clients hold no thread of the webhook (bodies are read asynchronously, under a deadline),
 * only connections; this bounds how many one address can hold, so a pod that dribbles bytes on many connections
 * cannot take the sockets the API server needs. The API server keeps a handful of connections per webhook.
 */
final class ClientConnectionLimit implements Connection.Listener {
    private final int perClient;
    private final Map<InetAddress, AtomicInteger> open = new ConcurrentHashMap<>();
    private final AtomicLong refused = new AtomicLong();

    ClientConnectionLimit(int perClient) {
        this.perClient = perClient;
    }

    @Override
    public void onOpened(Connection connection) {
        InetAddress client = network(connection);
        if (client == null) {
            return;
        }
        int now = open.computeIfAbsent(client, a -> new AtomicInteger()).incrementAndGet();
        if (now > perClient) {
            refused.incrementAndGet();
            connection.getEndPoint().close();
        }
    }

    @Override
    public void onClosed(Connection connection) {
        InetAddress client = network(connection);
        if (client == null) {
            return;
        }
        open.computeIfPresent(client, (a, n) -> n.decrementAndGet() <= 0 ? null : n);
    }

    /** Connections closed at once for being over the limit, since the start. */
    long refused() {
        return refused.get();
    }

    /** The peer of a network connection (the TLS one); null for the connections layered on it. */
    private static InetAddress network(Connection connection) {
        if (!(connection.getEndPoint() instanceof SocketChannelEndPoint endPoint)) {
            return null;
        }
        SocketAddress remote = endPoint.getRemoteSocketAddress();
        return remote instanceof InetSocketAddress inet ? inet.getAddress() : null;
    }
}
