package io.colocation.broker.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.colocation.api.InvalidInputException;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.security.auth.x500.X500Principal;
import org.eclipse.jetty.http.BadMessageException;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.ConnectionLimit;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.server.handler.AbstractHandler;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTPS endpoint the API server calls: {@code POST} of an AdmissionReview to one of the {@link Reviewer}s' paths.
 * Its own Jetty server and port, apart from the broker's REST API: the API server authenticates the webhook by its
 * certificate (swapped in place by {@link #useCertificate}: open connections finish on the old one) and, where the
 * cluster is configured so, the webhook authenticates the API server by its client certificate ({@link ClientAuth}).
 *
 * <p>No client can take admission away from the API server: a body is read asynchronously (no thread waits for a
 * slow client) and must arrive whole within {@link #BODY_DEADLINE}, well under the API server's timeout; it is
 * refused unread when it declares more than {@link #MAX_BODY_BYTES}; one address holds at most
 * {@code maxConnectionsPerClient} connections and the server {@link #MAX_CONNECTIONS}. Every answer is an
 * AdmissionReview or one line of text: no error page, no stack trace.
 */
final class WebhookServer {
    private static final Logger LOG = LoggerFactory.getLogger(WebhookServer.class);
    /**
     * An AdmissionReview carries the object with the API server's defaults (a pod of 16,000 containers, 1.2 MB as
     * submitted, is a 5 MB review) and, on updates, the old one; the API server stores objects of at most 1.5 MiB.
     */
    static final int MAX_BODY_BYTES = 8 << 20;
    /** From the request's headers to its last byte; the shipped webhooks' timeoutSeconds is 5. */
    static final Duration BODY_DEADLINE = Duration.ofSeconds(3);
    static final int MAX_CONNECTIONS = 4096;
    /**
     * While {@link #stop} drains, how long a connection may stay idle: a client that goes on using it gets its answer
     * with {@code Connection: close} first; one that does not is closed then, not after the whole idle timeout.
     */
    static final Duration DRAIN_IDLE_TIMEOUT = Duration.ofSeconds(2);
    /** The longest {@link #stop} waits for the clients to go: a request in flight then has had its deadline. */
    static final Duration DRAIN = BODY_DEADLINE.plus(DRAIN_IDLE_TIMEOUT);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Answers one AdmissionReview; throws on a body that is none (answered 400). */
    @FunctionalInterface
    interface Reviewer {
        JsonNode review(JsonNode body) throws InvalidInputException;
    }

    /**
     * The API server's client certificate, required: its issuer among {@code trusted} (checked in the TLS handshake,
     * so a client without one is refused before it sends a byte of HTTP) and, when {@code names} is not empty, its
     * subject's CN one of them.
     */
    record ClientAuth(Collection<X509Certificate> trusted, Set<String> names) {
    }

    private final Server server;
    private final ServerConnector connector;
    private final SslContextFactory.Server ssl;
    private final ClientConnectionLimit perClient;
    private final Map<String, Reviewer> reviewers;
    private final ClientAuth clientAuth;
    private volatile boolean draining;

    /** @param reviewers by path ({@code /mutate-pod}, ...) */
    /** @param idleTimeout between two bytes of a connection, and how long an idle keep-alive connection stays open */
    WebhookServer(String host, int port, KeyStore keyStore, ClientAuth clientAuth, int maxConnectionsPerClient, Duration idleTimeout,
            Map<String, Reviewer> reviewers) {
        this.reviewers = Map.copyOf(reviewers);
        this.clientAuth = clientAuth;
        QueuedThreadPool threads = new QueuedThreadPool(32, 2);
        threads.setName("webhook");
        threads.setDaemon(true);
        server = new Server(threads);
        ssl = new SslContextFactory.Server();
        ssl.setKeyStore(keyStore);
        ssl.setKeyStorePassword(ServingCertificate.KEY_STORE_PASSWORD);
        if (clientAuth != null) {
            ssl.setTrustStore(trustStore(clientAuth.trusted()));
            ssl.setNeedClientAuth(true);
        }
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setIdleTimeout(idleTimeout.toMillis());
        // Dispatched as soon as the headers are in (no thread is held: the body is read asynchronously), so the body's
        // deadline runs from there and a declared size is refused before a byte of body comes.
        http.setDelayDispatchUntilContent(false);
        SecureRequestCustomizer secure = new SecureRequestCustomizer();
        // The API server may call by IP (no SNI) or by a Service name the certificate names; it checks the name itself.
        secure.setSniHostCheck(false);
        http.addCustomizer(secure);
        connector = new ServerConnector(server, new SslConnectionFactory(ssl, "http/1.1"), new HttpConnectionFactory(http));
        connector.setHost(host);
        connector.setPort(port);
        connector.setIdleTimeout(idleTimeout.toMillis());
        perClient = new ClientConnectionLimit(maxConnectionsPerClient);
        connector.addBean(perClient);
        server.addConnector(connector);
        server.addBean(new ConnectionLimit(MAX_CONNECTIONS, server));
        server.setErrorHandler(new PlainErrors());
        server.setHandler(new AbstractHandler() {
            @Override
            public void handle(String target, Request base, HttpServletRequest request, HttpServletResponse response) throws IOException {
                base.setHandled(true);
                serve(target, request, response);
            }
        });
    }

    private void serve(String target, HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (draining) {
            response.setHeader("Connection", "close"); // the client's next request goes through the Service to a replica that stays
        }
        Reviewer reviewer = reviewers.get(target);
        if (reviewer == null) {
            text(response, 404, "no such path: the webhook serves POST " + String.join(", POST ", new java.util.TreeSet<>(reviewers.keySet())));
            return;
        }
        if (!"POST".equals(request.getMethod())) {
            text(response, 405, "POST an AdmissionReview to " + target);
            return;
        }
        String refused = unknownClient(request);
        if (refused != null) {
            text(response, 403, refused);
            return;
        }
        if (request.getContentLengthLong() > MAX_BODY_BYTES) {
            response.setHeader("Connection", "close"); // its body is not read: the connection cannot carry another request
            text(response, 413, "the AdmissionReview is larger than " + MAX_BODY_BYTES + " bytes");
            return;
        }
        AsyncContext async = request.startAsync();
        async.setTimeout(BODY_DEADLINE.toMillis());
        new BodyReader(async, request.getInputStream(), reviewer).start();
    }

    /** The request's whole body, read as it arrives, then reviewed; at most one answer, whichever comes first. */
    private static final class BodyReader implements ReadListener, AsyncListener {
        private final AsyncContext async;
        private final ServletInputStream in;
        private final Reviewer reviewer;
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();
        private final byte[] chunk = new byte[16 * 1024];
        private final AtomicBoolean answered = new AtomicBoolean();

        BodyReader(AsyncContext async, ServletInputStream in, Reviewer reviewer) {
            this.async = async;
            this.in = in;
            this.reviewer = reviewer;
        }

        void start() {
            async.addListener(this);
            in.setReadListener(this);
        }

        @Override
        public void onDataAvailable() throws IOException {
            while (in.isReady() && !in.isFinished()) {
                int n = in.read(chunk);
                if (n < 0) {
                    return;
                }
                body.write(chunk, 0, n);
                if (body.size() > MAX_BODY_BYTES) {
                    answer(413, "the AdmissionReview is larger than " + MAX_BODY_BYTES + " bytes");
                    return;
                }
            }
        }

        @Override
        public void onAllDataRead() throws IOException {
            if (answered.get()) {
                return;
            }
            JsonNode review;
            try {
                review = reviewer.review(JSON.readTree(body.toByteArray()));
            } catch (InvalidInputException | com.fasterxml.jackson.core.JacksonException e) {
                answer(400, "not an AdmissionReview: " + e.getMessage());
                return;
            } catch (RuntimeException e) {
                LOG.error("webhook: reviewing a request failed", e);
                answer(500, "the webhook failed on this request (" + e.getClass().getSimpleName() + "); see the broker's log");
                return;
            }
            if (answered.compareAndSet(false, true)) {
                HttpServletResponse response = (HttpServletResponse) async.getResponse();
                response.setStatus(200);
                response.setContentType("application/json");
                response.getOutputStream().write(JSON.writeValueAsBytes(review));
                async.complete();
            }
        }

        @Override
        public void onError(Throwable t) {
            answer(t instanceof BadMessageException b ? b.getCode() : 400, "the request's body could not be read: " + t.getMessage());
        }

        @Override
        public void onTimeout(AsyncEvent event) {
            answer(408, "the request's body did not arrive within " + BODY_DEADLINE.toMillis() + " ms");
        }

        @Override
        public void onComplete(AsyncEvent event) {
        }

        @Override
        public void onError(AsyncEvent event) {
        }

        @Override
        public void onStartAsync(AsyncEvent event) {
        }

        /** One answer, then the connection closes: a client that was cut off mid-body cannot go on with it. */
        private void answer(int status, String message) {
            if (!answered.compareAndSet(false, true)) {
                return;
            }
            try {
                HttpServletResponse response = (HttpServletResponse) async.getResponse();
                response.setHeader("Connection", "close");
                text(response, status, message);
            } catch (IOException | IllegalStateException e) {
                LOG.debug("webhook: the answer {} could not be sent: {}", status, e.toString());
            } finally {
                async.complete();
            }
        }
    }

    /** Why the client certificate is not one the webhook accepts; null when it is, or when none is required. */
    private String unknownClient(HttpServletRequest request) {
        if (clientAuth == null || clientAuth.names().isEmpty()) {
            return null;
        }
        Object chain = request.getAttribute("jakarta.servlet.request.X509Certificate");
        if (!(chain instanceof X509Certificate[] certificates) || certificates.length == 0) {
            return "a client certificate is required";
        }
        String cn = commonName(certificates[0].getSubjectX500Principal());
        return clientAuth.names().contains(cn) ? null
                : "client certificate CN=" + cn + " is not one of webhook.clientAuth.names " + new java.util.TreeSet<>(clientAuth.names());
    }

    static String commonName(X500Principal subject) {
        for (String rdn : subject.getName(X500Principal.RFC2253).split(",")) {
            if (rdn.startsWith("CN=")) {
                return rdn.substring(3);
            }
        }
        return "";
    }

    private static KeyStore trustStore(Collection<X509Certificate> trusted) {
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            int i = 0;
            for (X509Certificate c : trusted) {
                store.setCertificateEntry("client-ca-" + i++, c);
            }
            return store;
        } catch (java.security.GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot hold the client CA certificates: " + e.getMessage(), e);
        }
    }

    private static void text(HttpServletResponse response, int status, String message) throws IOException {
        response.setStatus(status);
        response.setContentType("text/plain; charset=utf-8");
        response.getOutputStream().write((message + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** Jetty's own refusals (a malformed request line, headers too large) as one line of text, never a page or a trace. */
    private static final class PlainErrors extends ErrorHandler {
        PlainErrors() {
            setShowStacks(false);
            setShowServlet(false);
            setShowMessageInTitle(false);
        }

        @Override
        protected void generateAcceptableResponse(Request base, HttpServletRequest request, HttpServletResponse response, int code,
                String message) throws IOException {
            response.setContentType("text/plain; charset=utf-8");
            try (Writer w = response.getWriter()) {
                w.write(code + " " + (message == null ? "" : message.lines().findFirst().orElse("")) + "\n");
            }
        }

        @Override
        public ByteBuffer badMessageError(int status, String reason, org.eclipse.jetty.http.HttpFields.Mutable fields) {
            fields.put(org.eclipse.jetty.http.HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
            return ByteBuffer.wrap((status + " " + (reason == null ? "" : reason) + "\n").getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Binds the port once (0: any free port) and serves. */
    void start() throws Exception {
        server.start();
    }

    int port() {
        return connector.getLocalPort();
    }

    /** Connections closed at once because their address held too many. */
    long refusedConnections() {
        return perClient.refused();
    }

    /** Network connections accepted since the start. */
    long acceptedConnections() {
        return perClient.accepted();
    }

    /** Connections open now from {@code client}, as the per-address limit counts them. */
    int openConnections(java.net.InetAddress client) {
        return perClient.open(client);
    }

    /** New TLS connections use this certificate from now on. */
    void useCertificate(KeyStore keyStore) throws Exception {
        ssl.reload(f -> f.setKeyStore(keyStore));
    }

    boolean draining() {
        return draining;
    }

    /**
     * Stops once no client is left on a connection, or after {@link #DRAIN}; an idle connection is closed after
     * {@link #DRAIN_IDLE_TIMEOUT}. A client that sends a request on a keep-alive connection as that connection closes
     * gets EOF, and the API server does not retry a webhook call: under {@code failurePolicy: Ignore} the object is
     * admitted unreviewed. After the pod's endpoint is gone the API server still holds its open connections to this
     * replica, so until they are gone every answer says {@code Connection: close} and the client's next request opens a
     * connection to another replica.
     */
    void stop() throws Exception {
        draining = true;
        connector.setIdleTimeout(DRAIN_IDLE_TIMEOUT.toMillis());
        for (EndPoint open : connector.getConnectedEndPoints()) {
            open.setIdleTimeout(DRAIN_IDLE_TIMEOUT.toMillis());
        }
        long deadline = System.nanoTime() + DRAIN.toNanos();
        while (!connector.getConnectedEndPoints().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        if (!connector.getConnectedEndPoints().isEmpty()) {
            LOG.info("webhook: stopping with {} connection(s) still open after {} s of drain", connector.getConnectedEndPoints().size(),
                    DRAIN.toSeconds());
        }
        server.stop();
    }
}
