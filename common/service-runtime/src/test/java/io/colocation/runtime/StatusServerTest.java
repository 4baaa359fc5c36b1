package io.colocation.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.testsupport.Await;
import io.colocation.testsupport.http.SlowClients;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The status port answers its probes whatever slow, silent or broken clients and routes do. */
class StatusServerTest {

    @Test
    void probesAnswerInMillisecondsWhileStalledClientsHoldConnectionsAndTheStalledAreClosed() throws Exception {
        AtomicReference<String> why = new AtomicReference<>();
        try (StatusServer server = new StatusServer("test-status").route("/livez", StatusServer.probe(why::get))) {
            int port = server.start("127.0.0.1", 0).getPort();
            try (SlowClients stalled = SlowClients.open(port, 40)) {
                for (int i = 0; i < 20; i++) {
                    long start = System.nanoTime();
                    HttpResponse<String> r = SlowClients.get(port, "/livez", Duration.ofSeconds(2));
                    assertEquals(200, r.statusCode());
                    assertEquals("ok\n", r.body());
                    assertTrue(System.nanoTime() - start < 500_000_000L, "answered in " + (System.nanoTime() - start) / 1_000_000 + " ms");
                }
                why.set("no sample for 9000 ms");
                HttpResponse<String> failing = SlowClients.get(port, "/livez", Duration.ofSeconds(2));
                assertEquals(503, failing.statusCode());
                assertEquals("no sample for 9000 ms\n", failing.body());
                Await.until(Duration.ofMillis(StatusServer.IDLE_TIMEOUT_MS + 5000), stalled::allClosedByServer);
            }
        }
    }

    @Test
    void aRouteThatThrowsAnswers500AndTheServerGoesOn() throws Exception {
        try (StatusServer server = new StatusServer("test-status")
                .route("/status", () -> {
                    throw new IllegalStateException("cannot serialise an Instant");
                })
                .route("/livez", StatusServer.probe(() -> null))) {
            int port = server.start("127.0.0.1", 0).getPort();
            HttpResponse<String> broken = SlowClients.get(port, "/status", Duration.ofSeconds(2));
            assertEquals(500, broken.statusCode());
            assertTrue(broken.body().contains("cannot serialise an Instant"), broken.body());
            assertEquals(200, SlowClients.get(port, "/livez", Duration.ofSeconds(2)).statusCode());
            assertEquals(404, SlowClients.get(port, "/nope", Duration.ofSeconds(2)).statusCode());
        }
    }
}
