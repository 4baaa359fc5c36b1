package io.colocation.broker.service.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.codahale.metrics.health.HealthCheck;
import com.codahale.metrics.health.HealthCheckRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** /readyz over every check, and with checks left out by name (the chart's probe), on a real Jetty. */
class ProbeServletTest {
    private static Server server;
    private static String base;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        HealthCheckRegistry checks = new HealthCheckRegistry();
        checks.register("webhook", healthy(true));
        checks.register("zookeeper", healthy(false));
        checks.register("yarn-c1", healthy(false));
        server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.addServlet(new ServletHolder(ProbeServlet.readiness(checks)), "/readyz");
        server.setHandler(context);
        server.start();
        base = "http://127.0.0.1:" + connector.getLocalPort();
    }

    @AfterAll
    static void stop() throws Exception {
        server.stop();
    }

    private static HealthCheck healthy(boolean ok) {
        return new HealthCheck() {
            @Override
            protected Result check() {
                return ok ? Result.healthy("fine") : Result.unhealthy("down");
            }
        };
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(base + path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void everyCheckCountsUnlessLeftOutByName() throws Exception {
        HttpResponse<String> all = get("/readyz");
        assertEquals(503, all.statusCode(), all.body());
        assertTrue(all.body().contains("\"zookeeper\":\"down\"") && all.body().contains("\"yarn-c1\":\"down\""), all.body());
        HttpResponse<String> some = get("/readyz?exclude=zookeeper");
        assertEquals(503, some.statusCode(), some.body());
        assertTrue(!some.body().contains("zookeeper") && some.body().contains("yarn-c1"), some.body());
        assertEquals(200, get("/readyz?exclude=zookeeper&exclude=yarn-c1").statusCode());
        assertEquals(200, get("/readyz?exclude=zookeeper&exclude=yarn-c1&exclude=zookeeper&exclude=no-such-check").statusCode(),
                "a name twice or unknown is no error");
    }
}
