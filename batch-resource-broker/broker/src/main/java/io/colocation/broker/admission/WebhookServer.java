package io.colocation.broker.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.colocation.api.InvalidInputException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.server.handler.AbstractHandler;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The HTTPS endpoint the API server calls: {@code POST /mutate-pod} with an AdmissionReview, answered by a {@link Reviewer}.
 * Its own Jetty server and port, apart from the broker's REST API: the API server authenticates the webhook by its
 * certificate, and the REST API's bearer token and plain HTTP stay as they are. The certificate is swapped in place
 * ({@link #useCertificate}): connections already open finish on the old one, new ones get the new one.
 */
final class WebhookServer {
    static final String PATH = "/mutate-pod";
    /** An AdmissionReview carries one object; the API server stores objects up to 1.5 MiB. */
    static final int MAX_BODY_BYTES = 4 << 20;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Answers one AdmissionReview; throws on a body that is none (answered 400). */
    @FunctionalInterface
    interface Reviewer {
        JsonNode review(JsonNode body) throws InvalidInputException;
    }

    private final Server server;
    private final ServerConnector connector;
    private final SslContextFactory.Server ssl;

    WebhookServer(String host, int port, KeyStore keyStore, Reviewer reviewer) {
        QueuedThreadPool threads = new QueuedThreadPool(16, 2);
        threads.setName("webhook");
        threads.setDaemon(true);
        server = new Server(threads);
        ssl = new SslContextFactory.Server();
        ssl.setKeyStore(keyStore);
        ssl.setKeyStorePassword(ServingCertificate.KEY_STORE_PASSWORD);
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        SecureRequestCustomizer secure = new SecureRequestCustomizer();
        // The API server may call by IP (no SNI) or by a Service name the certificate names; it checks the name itself.
        secure.setSniHostCheck(false);
        http.addCustomizer(secure);
        connector = new ServerConnector(server, new SslConnectionFactory(ssl, "http/1.1"), new HttpConnectionFactory(http));
        connector.setHost(host);
        connector.setPort(port);
        connector.setIdleTimeout(30_000);
        server.addConnector(connector);
        server.setHandler(new AbstractHandler() {
            @Override
            public void handle(String target, Request base, HttpServletRequest request, HttpServletResponse response) throws IOException {
                base.setHandled(true);
                if (!PATH.equals(target)) {
                    text(response, 404, "no such path: the webhook serves POST " + PATH);
                    return;
                }
                if (!"POST".equals(request.getMethod())) {
                    text(response, 405, "POST an AdmissionReview to " + PATH);
                    return;
                }
                byte[] body;
                try (InputStream in = request.getInputStream()) {
                    body = in.readNBytes(MAX_BODY_BYTES + 1);
                }
                if (body.length > MAX_BODY_BYTES) {
                    text(response, 413, "the AdmissionReview is larger than " + MAX_BODY_BYTES + " bytes");
                    return;
                }
                JsonNode answer;
                try {
                    answer = reviewer.review(JSON.readTree(body));
                } catch (InvalidInputException | com.fasterxml.jackson.core.JacksonException e) {
                    text(response, 400, "not an AdmissionReview: " + e.getMessage());
                    return;
                }
                response.setStatus(200);
                response.setContentType("application/json");
                response.getOutputStream().write(JSON.writeValueAsBytes(answer));
            }
        });
    }

    private static void text(HttpServletResponse response, int status, String message) throws IOException {
        response.setStatus(status);
        response.setContentType("text/plain; charset=utf-8");
        response.getOutputStream().write((message + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** Binds the port once (0: any free port) and serves. */
    void start() throws Exception {
        server.start();
    }

    int port() {
        return connector.getLocalPort();
    }

    /** New TLS connections use this certificate from now on. */
    void useCertificate(KeyStore keyStore) throws Exception {
        ssl.reload(f -> f.setKeyStore(keyStore));
    }

    void stop() throws Exception {
        server.stop();
    }
}
