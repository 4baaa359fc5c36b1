package io.colocation.runtime;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.AbstractHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The status port of a Java 17 part ({@code /livez}, {@code /readyz}, {@code /status}, {@code /metrics}), on Jetty as the
 * broker's Dropwizard admin port is: connections are read by a selector, not by a worker thread each, and a connection
 * that sends nothing for {@link #IDLE_TIMEOUT_MS} is closed, so slow or silent clients (one socket from anywhere, the
 * scheduler binds all interfaces) can never block a probe. A route that fails answers 500 and is logged; it never
 * takes the server down.
 */
public final class StatusServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StatusServer.class);
    static final int IDLE_TIMEOUT_MS = 5_000;
    private static final int MAX_THREADS = 8;

    /** One answer. */
    public record Response(int status, String contentType, byte[] body) {
        public static Response text(int status, String body) {
            return new Response(status, "text/plain; charset=utf-8", body.getBytes(StandardCharsets.UTF_8));
        }

        public static Response json(int status, String body) {
            return new Response(status, "application/json", body.getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Answers a GET of its path. */
    @FunctionalInterface
    public interface Route {
        Response answer() throws Exception;
    }

    private final String name;
    private final Map<String, Route> routes = new LinkedHashMap<>();
    private Server server;

    /** @param name names the threads and the log lines ({@code koordlet-status}) */
    public StatusServer(String name) {
        this.name = name;
    }

    public StatusServer route(String path, Route route) {
        routes.put(path, route);
        return this;
    }

    /** A liveness or readiness route: 200 "ok" when {@code why} answers null, else 503 with the reason. */
    public static Route probe(java.util.function.Supplier<String> why) {
        return () -> {
            String reason = why.get();
            return reason == null ? Response.text(200, "ok\n") : Response.text(503, reason + "\n");
        };
    }

    /** Binds {@code port} (0: any free one) on {@code bindAddress}; returns where it listens. */
    public synchronized InetSocketAddress start(String bindAddress, int port) throws IOException {
        QueuedThreadPool threads = new QueuedThreadPool(MAX_THREADS, 2, 60_000);
        threads.setName(name);
        threads.setDaemon(true);
        Server s = new Server(threads);
        ServerConnector connector = new ServerConnector(s, 1, 1);
        connector.setHost(bindAddress);
        connector.setPort(port);
        connector.setIdleTimeout(IDLE_TIMEOUT_MS);
        s.addConnector(connector);
        s.setHandler(new AbstractHandler() {
            @Override
            public void handle(String target, Request base, HttpServletRequest request, HttpServletResponse response) throws IOException {
                base.setHandled(true);
                Route route = routes.get(target);
                Response answer;
                if (route == null) {
                    answer = Response.text(404, "no such path; try " + String.join(", ", routes.keySet()) + "\n");
                } else if (!"GET".equals(request.getMethod()) && !"HEAD".equals(request.getMethod())) {
                    answer = Response.text(405, request.getMethod() + " not allowed; use GET\n");
                } else {
                    try {
                        answer = route.answer();
                    } catch (Exception | Error e) {
                        LOG.error("{}: {} failed", name, target, e);
                        answer = Response.text(500, target + " failed: " + e + "\n");
                    }
                }
                response.setStatus(answer.status());
                response.setContentType(answer.contentType());
                response.setContentLength(answer.body().length);
                try (OutputStream out = response.getOutputStream()) {
                    out.write(answer.body());
                }
            }
        });
        s.setStopTimeout(2_000);
        try {
            s.start();
        } catch (Exception e) {
            try {
                s.stop();
            } catch (Exception ignored) {
                // stopping what did not start
            }
            throw new IOException(e.getMessage() == null ? e.toString() : e.getMessage(), e);
        }
        server = s;
        return new InetSocketAddress(bindAddress, connector.getLocalPort());
    }

    @Override
    public synchronized void close() {
        if (server != null) {
            try {
                server.stop();
            } catch (Exception e) {
                LOG.warn("{}: stopping: {}", name, e.toString());
            }
            server = null;
        }
    }
}
