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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * At most {@code perClient} open TCP connections from one address: a client that opens more has the new ones closed
 * as they are accepted. Slow clients hold no thread of the webhook (bodies are read asynchronously, under a deadline),
 * only connections; this bounds how many one address can hold, so a pod that dribbles bytes on many connections
 * cannot take the sockets the API server needs. The API server keeps a handful of connections per webhook.
 *
 * <p>Each connection's address is taken once, when it opens, and kept with the connection: when it closes the channel
 * is gone and its peer can no longer be asked, so the slot is given back from what was kept. Every connection counted
 * in {@link #onOpened} is given back once in {@link #onClosed}, whatever closed it (a complete exchange, an idle close,
 * a refusal here, an aborted handshake).
 */
final class ClientConnectionLimit implements Connection.Listener {
    private static final Logger LOG = LoggerFactory.getLogger(ClientConnectionLimit.class);
    private final int perClient;
    private final Map<InetAddress, AtomicInteger> open = new ConcurrentHashMap<>();
    /** The address each counted connection was counted under, until it closes. */
    private final Map<Connection, InetAddress> counted = new ConcurrentHashMap<>();
    /** Addresses at their limit now, so the log names each once per episode. */
    private final Map<InetAddress, Boolean> atLimit = new ConcurrentHashMap<>();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong accepted = new AtomicLong();

    ClientConnectionLimit(int perClient) {
        this.perClient = perClient;
    }

    @Override
    public void onOpened(Connection connection) {
        InetAddress client = network(connection);
        if (client == null) {
            return;
        }
        accepted.incrementAndGet();
        counted.put(connection, client);
        int[] now = new int[1];
        open.compute(client, (a, n) -> {
            AtomicInteger c = n == null ? new AtomicInteger() : n;
            now[0] = c.incrementAndGet();
            return c;
        });
        if (now[0] > perClient) {
            refused.incrementAndGet();
            if (atLimit.putIfAbsent(client, Boolean.TRUE) == null) {
                LOG.warn("webhook: {} holds {} connections, its limit (webhook.maxConnectionsPerClient); new ones from it are closed"
                        + " as they are accepted until some close (counted in colocation.webhook.connections-refused)",
                        client.getHostAddress(), perClient);
            }
            connection.getEndPoint().close();
        }
    }

    @Override
    public void onClosed(Connection connection) {
        InetAddress client = counted.remove(connection);
        if (client == null) {
            return;
        }
        open.computeIfPresent(client, (a, n) -> {
            int left = n.decrementAndGet();
            if (left < perClient && atLimit.remove(a) != null) {
                LOG.info("webhook: {} is below its connection limit again", a.getHostAddress());
            }
            return left <= 0 ? null : n;
        });
    }

    /** Connections closed at once for being over the limit, since the start. */
    long refused() {
        return refused.get();
    }

    /** Network connections accepted since the start, refused ones included. */
    long accepted() {
        return accepted.get();
    }

    /** Connections open now from {@code client} as counted here. */
    int open(InetAddress client) {
        AtomicInteger n = open.get(client);
        return n == null ? 0 : n.get();
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
