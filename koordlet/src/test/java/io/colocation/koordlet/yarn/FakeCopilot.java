package io.colocation.koordlet.yarn;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * A copilot impostor in the test's own JVM (so its socket is this process's): each path answers what the test sets, and
 * every request's token header is recorded, so a test can prove the token was or was not sent.
 */
final class FakeCopilot implements AutoCloseable {
    /** What a path answers: a status and a body, or a handler that writes the exchange itself. */
    interface Answer {
        void write(HttpExchange ex) throws IOException;
    }

    private final HttpServer server;
    private final Map<String, Answer> answers = new ConcurrentHashMap<>();
    /** Every request: path and the token header (empty when none came). */
    final List<String[]> requests = new CopyOnWriteArrayList<>();

    FakeCopilot() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.setExecutor(Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "fake-copilot");
            t.setDaemon(true);
            return t;
        }));
        server.createContext("/", ex -> {
            String token = ex.getRequestHeaders().getFirst("X-Copilot-Token");
            requests.add(new String[] {ex.getRequestURI().getPath(), token == null ? "" : token});
            Answer a = answers.get(ex.getRequestURI().getPath());
            if (a == null) {
                json(404, "{\"error\":\"no such path\"}").write(ex);
            } else {
                a.write(ex);
            }
            ex.close();
        });
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    int port() {
        return server.getAddress().getPort();
    }

    FakeCopilot on(String path, Answer answer) {
        answers.put(path, answer);
        return this;
    }

    /** Whether any request carried {@code token}. */
    boolean sawToken(String token) {
        return requests.stream().anyMatch(r -> r[1].equals(token));
    }

    static Answer json(int status, String body) {
        return ex -> {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(bytes);
            }
        };
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
