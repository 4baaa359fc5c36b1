package io.colocation.testsupport.http;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Clients that connect to a status port and then stall: one sends half a request line and nothing more, one sends
 * nothing at all. A status server that reads headers on its only thread is blocked by either; a probe that answers
 * meanwhile proves it is not.
 */
public final class SlowClients implements Closeable {
    private final List<Socket> sockets = new ArrayList<>();

    /** {@code count} stalled connections to {@code port} on loopback, half of them mid-request. */
    public static SlowClients open(int port, int count) throws IOException {
        SlowClients c = new SlowClients();
        for (int i = 0; i < count; i++) {
            Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
            if (i % 2 == 0) {
                OutputStream out = s.getOutputStream();
                out.write("GET /livez HTTP/1.1\r\nHo".getBytes(StandardCharsets.US_ASCII));
                out.flush();
            }
            c.sockets.add(s);
        }
        return c;
    }

    /** The status and body of a GET, failing if it takes longer than {@code within}. */
    public static HttpResponse<String> get(int port, String path, Duration within) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(within).build();
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(within).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** Whether the server has closed every stalled connection (a read returns end of stream or fails). */
    public boolean allClosedByServer() {
        for (Socket s : sockets) {
            try {
                s.setSoTimeout(200);
                if (s.getInputStream().read() >= 0) {
                    return false;
                }
            } catch (java.net.SocketTimeoutException e) {
                return false;
            } catch (IOException e) {
                // reset by the server: closed
            }
        }
        return true;
    }

    @Override
    public void close() {
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (IOException e) {
                // already closed by the server
            }
        }
    }
}
