package io.colocation.broker.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The webhook's transport against clients that are slow, large, unauthenticated or broken, on real TLS sockets: no
 * client holds a thread, a body must arrive within its deadline, one address holds a bounded number of connections,
 * and every refusal is one line of text (never an error page or a trace).
 */
class WebhookServerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String REVIEW = "{\"apiVersion\": \"admission.k8s.io/v1\", \"kind\": \"AdmissionReview\","
            + " \"request\": {\"uid\": \"u-1\"}}";
    private static final ServingCertificate CERTIFICATE = ServingCertificate.generate(List.of("127.0.0.1"), Instant.now(),
            Duration.ofDays(1), Duration.ofDays(1));
    private WebhookServer server;
    private final List<Socket> open = new ArrayList<>();

    private WebhookServer start(WebhookServer.ClientAuth auth, int perClient) throws Exception {
        return start(auth, perClient, Duration.ofSeconds(10));
    }

    private WebhookServer start(WebhookServer.ClientAuth auth, int perClient, Duration idleTimeout) throws Exception {
        server = new WebhookServer("127.0.0.1", 0, CERTIFICATE.keyStore("test"), auth, perClient, idleTimeout, Map.of("/mutate-pod", body -> {
            if (body.path("request").path("uid").asText().equals("boom")) {
                throw new IllegalStateException("a bug");
            }
            return JSON.createObjectNode().put("echo", body.path("request").path("uid").asText());
        }));
        server.start();
        return server;
    }

    @AfterEach
    void stop() throws Exception {
        for (Socket s : open) {
            s.close();
        }
        if (server != null) {
            server.stop();
        }
    }

    private SSLSocket connect(InetAddress from, KeyStore clientKeys) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", ServingCertificate.certificates(CERTIFICATE.caBundlePem(), "ca").get(0));
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        KeyManagerFactory kmf = null;
        if (clientKeys != null) {
            kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(clientKeys, "k".toCharArray());
        }
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        Socket plain = new Socket();
        plain.bind(new InetSocketAddress(from, 0));
        plain.connect(new InetSocketAddress("127.0.0.1", server.port()), 2_000);
        SSLSocket s = (SSLSocket) tls.getSocketFactory().createSocket(plain, "127.0.0.1", server.port(), true);
        s.setSoTimeout(10_000);
        open.add(s);
        s.startHandshake();
        return s;
    }

    /** Sends one request and reads the whole answer (the server closes or the body ends). */
    private static String exchange(SSLSocket s, String path, String body) throws IOException {
        OutputStream out = s.getOutputStream();
        out.write(("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
                + body.getBytes(StandardCharsets.UTF_8).length + "\r\nConnection: close\r\n\r\n" + body).getBytes(StandardCharsets.UTF_8));
        out.flush();
        return read(s.getInputStream());
    }

    private static String read(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] b = new byte[8192];
        for (int n; (n = in.read(b)) > 0;) {
            all.write(b, 0, n);
        }
        return all.toString(StandardCharsets.UTF_8);
    }

    /** The probe's attack: connections that promise 1 MB and send a byte every second take no thread from the API server. */
    @Test
    void clientsThatDribbleTheirBodyHoldNoThreadAndAreCutAtTheDeadline() throws Exception {
        start(null, 64);
        InetAddress attacker = InetAddress.getByName("127.0.0.2");
        List<SSLSocket> slow = new ArrayList<>();
        for (int i = 0; i < 40; i++) { // more than the 32 threads of the pool
            SSLSocket s = connect(attacker, null);
            s.getOutputStream().write(("POST /mutate-pod HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n{").getBytes(StandardCharsets.UTF_8));
            s.getOutputStream().flush();
            slow.add(s);
        }
        long started = System.nanoTime();
        for (int i = 0; i < 5; i++) {
            String answer = exchange(connect(InetAddress.getLoopbackAddress(), null), "/mutate-pod", REVIEW);
            assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
            assertTrue(answer.contains("\"echo\":\"u-1\""), answer);
        }
        long millis = (System.nanoTime() - started) / 1_000_000;
        assertTrue(millis < WebhookServer.BODY_DEADLINE.toMillis(), "five reviews answered while 40 clients dribble: " + millis + " ms");
        for (SSLSocket s : slow) {
            s.getOutputStream().write('x');
        }
        for (SSLSocket s : slow) {
            String cut = read(s.getInputStream());
            assertTrue(cut.startsWith("HTTP/1.1 408"), cut);
            assertTrue(cut.contains("did not arrive within 3000 ms"), cut);
        }
    }

    @Test
    void aBodyDeclaredTooLargeIsRefusedUnreadAndErrorsAreOneLineOfText() throws Exception {
        start(null, 64);
        SSLSocket s = connect(InetAddress.getLoopbackAddress(), null);
        s.getOutputStream().write(("POST /mutate-pod HTTP/1.1\r\nHost: x\r\nContent-Length: " + (WebhookServer.MAX_BODY_BYTES + 1)
                + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
        String tooLarge = read(s.getInputStream());
        assertTrue(tooLarge.startsWith("HTTP/1.1 413"), tooLarge);

        String bug = exchange(connect(InetAddress.getLoopbackAddress(), null), "/mutate-pod", REVIEW.replace("u-1", "boom"));
        assertTrue(bug.startsWith("HTTP/1.1 500"), bug);
        assertTrue(bug.contains("the webhook failed on this request (IllegalStateException)"), bug);
        String garbage = exchange(connect(InetAddress.getLoopbackAddress(), null), "/mutate-pod", "{not json");
        assertTrue(garbage.startsWith("HTTP/1.1 400"), garbage);
        String badRequestLine = rawExchange("GARBAGE\r\n\r\n");
        for (String answer : List.of(tooLarge, bug, garbage, badRequestLine)) {
            assertFalse(answer.contains("<html") || answer.contains("\tat ") || answer.contains("Exception:"), answer);
        }
    }

    private String rawExchange(String bytes) throws Exception {
        SSLSocket s = connect(InetAddress.getLoopbackAddress(), null);
        s.getOutputStream().write(bytes.getBytes(StandardCharsets.UTF_8));
        s.getOutputStream().flush();
        return read(s.getInputStream());
    }

    @Test
    void oneAddressHoldsABoundedNumberOfConnections() throws Exception {
        start(null, 8);
        InetAddress attacker = InetAddress.getByName("127.0.0.3");
        int refused = 0;
        for (int i = 0; i < 20; i++) {
            try {
                SSLSocket s = connect(attacker, null);
                s.getOutputStream().write("POST /mutate-pod HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n".getBytes(StandardCharsets.UTF_8));
                s.getOutputStream().flush();
            } catch (IOException closedAtOnce) {
                refused++;
            }
        }
        assertTrue(refused >= 12 || server.refusedConnections() >= 12, refused + " refused, " + server.refusedConnections() + " counted");
        String answer = exchange(connect(InetAddress.getLoopbackAddress(), null), "/mutate-pod", REVIEW);
        assertTrue(answer.startsWith("HTTP/1.1 200"), "another address is served: " + answer);
    }

    /**
     * The probe's lockout (issue 64): every close gave no slot back, so after {@code perClient} connections of any kind
     * an address was refused for good, the API server's after 64 reconnects. Thousands of connections of every kind from
     * one address, each kind closing its own way; after each, the address holds nothing and is still served.
     */
    @Test
    void everyKindOfCloseGivesTheAddressItsSlotBack() throws Exception {
        start(null, 4, Duration.ofSeconds(3)); // idle closes within the test; long enough for its last step's five handshakes
        InetAddress client = InetAddress.getByName("127.0.0.4");
        for (int i = 0; i < 300; i++) {
            try (SSLSocket once = connect(client, null)) { // a whole exchange, Connection: close
                assertTrue(exchange(once, "/mutate-pod", REVIEW).startsWith("HTTP/1.1 200"), "exchange " + i);
            }
            closed(client);
            SSLSocket keptAlive = connect(client, null);
            keptAlive.getOutputStream().write(("POST /mutate-pod HTTP/1.1\r\nHost: x\r\nContent-Length: " + REVIEW.length() + "\r\n\r\n"
                    + REVIEW).getBytes(StandardCharsets.UTF_8));
            keptAlive.getOutputStream().flush();
            assertTrue(new String(keptAlive.getInputStream().readNBytes(12), StandardCharsets.UTF_8).startsWith("HTTP/1.1 200"));
            keptAlive.close(); // by the client, the connection kept alive
            closed(client);
            try (Socket bare = bare(client)) {
                assertTrue(bare.isConnected()); // a TCP connect and nothing more
            }
            closed(client);
            try (Socket aborted = bare(client)) {
                aborted.getOutputStream().write(new byte[] {0x16, 0x03, 0x01, 0x00, 0x05, 0x01}); // a ClientHello cut short
                aborted.getOutputStream().flush();
            }
            closed(client);
        }
        for (int round = 0; round < 3; round++) { // idle connections the server closes, and bodies cut at the deadline (408)
            List<SSLSocket> idle = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                idle.add(connect(client, null));
                SSLSocket slow = connect(client, null);
                slow.getOutputStream().write("POST /mutate-pod HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n{".getBytes(StandardCharsets.UTF_8));
                slow.getOutputStream().flush();
                idle.add(slow);
            }
            for (SSLSocket s : idle) {
                read(s.getInputStream()); // until the server closes it
                s.close();
            }
            closed(client);
        }
        assertEquals(0, server.refusedConnections(), "an address under its limit is never refused");
        for (int i = 0; i < 4; i++) { // its whole allowance at once, then one more is refused and the first four still served
            SSLSocket s = connect(client, null);
            s.getOutputStream().write(("POST /mutate-pod HTTP/1.1\r\nHost: x\r\nContent-Length: " + REVIEW.length() + "\r\n\r\n"
                    + REVIEW).getBytes(StandardCharsets.UTF_8));
            assertTrue(new String(s.getInputStream().readNBytes(12), StandardCharsets.UTF_8).startsWith("HTTP/1.1 200"));
        }
        assertThrows(IOException.class, () -> exchange(connect(client, null), "/mutate-pod", REVIEW));
        assertEquals(1, server.refusedConnections());
    }

    /** Waits until the server has seen every connection of {@code client} close. */
    private void closed(InetAddress client) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (server.openConnections(client) > 0) {
            assertTrue(System.nanoTime() < deadline, server.openConnections(client) + " connection(s) of " + client + " still counted");
            Thread.sleep(1);
        }
    }

    private Socket bare(InetAddress from) throws IOException {
        Socket plain = new Socket();
        plain.bind(new InetSocketAddress(from, 0));
        plain.connect(new InetSocketAddress("127.0.0.1", server.port()), 2_000);
        return plain;
    }

    /**
     * The API server keeps its connections to a replica after the replica's endpoint is gone and does not retry a call
     * whose connection closes under it; so a stopping webhook answers what comes on them, with {@code Connection: close},
     * and closes the idle ones before it stops, well before the idle timeout.
     */
    @Test
    void stoppingAnswersOnOpenConnectionsWithConnectionCloseAndClosesIdleOnes() throws Exception {
        start(null, 64);
        SSLSocket busy = connect(InetAddress.getLoopbackAddress(), null);
        SSLSocket idle = connect(InetAddress.getLoopbackAddress(), null);
        for (SSLSocket s : List.of(busy, idle)) {
            String first = keepAliveExchange(s);
            assertTrue(first.startsWith("HTTP/1.1 200") && !first.toLowerCase(java.util.Locale.ROOT).contains("connection: close"), first);
        }
        long started = System.nanoTime();
        java.util.concurrent.CompletableFuture<Void> stopped = java.util.concurrent.CompletableFuture.runAsync(() -> {
            try {
                server.stop();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        while (!server.draining()) {
            Thread.onSpinWait();
        }
        String during = keepAliveExchange(busy);
        assertTrue(during.startsWith("HTTP/1.1 200") && during.contains("\"echo\":\"u-1\""), during);
        assertTrue(during.toLowerCase(java.util.Locale.ROOT).contains("connection: close"), during);
        assertEquals(-1, busy.getInputStream().read(), "the server closes after its answer");
        assertEquals(-1, idle.getInputStream().read(), "an idle connection is closed while the webhook drains");
        stopped.get(WebhookServer.DRAIN.toMillis() + 2_000, java.util.concurrent.TimeUnit.MILLISECONDS);
        long millis = (System.nanoTime() - started) / 1_000_000;
        assertTrue(millis < 10_000, "stopped once the clients were gone: " + millis + " ms");
        server = null;
    }

    /** One request on a connection that stays open; reads exactly its answer (headers and Content-Length bytes). */
    private static String keepAliveExchange(SSLSocket s) throws IOException {
        OutputStream out = s.getOutputStream();
        out.write(("POST /mutate-pod HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
                + REVIEW.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + REVIEW).getBytes(StandardCharsets.UTF_8));
        out.flush();
        InputStream in = s.getInputStream();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed after " + head.toString(StandardCharsets.ISO_8859_1));
            }
            head.write(b);
        }
        String headers = head.toString(StandardCharsets.ISO_8859_1);
        int length = headers.lines().filter(l -> l.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:"))
                .mapToInt(l -> Integer.parseInt(l.substring(l.indexOf(':') + 1).trim())).findFirst().orElseThrow();
        return headers + new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    /** With the API server's client CA configured, a client without a certificate is refused in the handshake. */
    @Test
    void theApiServersClientCertificateIsRequiredWhereConfigured() throws Exception {
        KeyPair caKeys = keyPair();
        X509Certificate ca = sign("test-client-ca", caKeys.getPublic(), caKeys, null, true);
        start(new WebhookServer.ClientAuth(List.of(ca), Set.of("kube-apiserver")), 64);
        assertThrows(IOException.class, () -> exchange(connect(InetAddress.getLoopbackAddress(), null), "/mutate-pod", REVIEW));
        String apiServer = exchange(connect(InetAddress.getLoopbackAddress(), client("kube-apiserver", caKeys, ca)), "/mutate-pod", REVIEW);
        assertTrue(apiServer.startsWith("HTTP/1.1 200"), apiServer);
        String other = exchange(connect(InetAddress.getLoopbackAddress(), client("a-pod", caKeys, ca)), "/mutate-pod", REVIEW);
        assertTrue(other.startsWith("HTTP/1.1 403") && other.contains("CN=a-pod is not one of"), other);
        KeyPair strangerKeys = keyPair();
        X509Certificate strangerCa = sign("stranger", strangerKeys.getPublic(), strangerKeys, null, true);
        assertThrows(IOException.class, () -> exchange(connect(InetAddress.getLoopbackAddress(),
                client("kube-apiserver", strangerKeys, strangerCa)), "/mutate-pod", REVIEW));
    }

    private static KeyStore client(String cn, KeyPair caKeys, X509Certificate ca) throws Exception {
        KeyPair keys = keyPair();
        X509Certificate cert = sign(cn, keys.getPublic(), caKeys, ca, false);
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry("client", keys.getPrivate(), "k".toCharArray(), new X509Certificate[] {cert, ca});
        return store;
    }

    private static KeyPair keyPair() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(256);
        return g.generateKeyPair();
    }

    private static X509Certificate sign(String cn, java.security.PublicKey key, KeyPair issuer, X509Certificate issuerCert, boolean ca)
            throws Exception {
        X500Name subject = new X500Name("CN=" + cn);
        JcaX509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(issuerCert == null ? subject
                : new X500Name(issuerCert.getSubjectX500Principal().getName()), BigInteger.valueOf(System.nanoTime()),
                Date.from(Instant.now().minusSeconds(3600)), Date.from(Instant.now().plusSeconds(3600)), subject, key);
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(ca));
        if (!ca) {
            b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_clientAuth));
        }
        return new JcaX509CertificateConverter().getCertificate(b.build(new JcaContentSignerBuilder("SHA256withECDSA")
                .build(issuer.getPrivate())));
    }

    @Test
    void theCommonNameIsReadFromTheSubject() {
        assertEquals("kube-apiserver", WebhookServer.commonName(new javax.security.auth.x500.X500Principal("O=system,CN=kube-apiserver")));
        assertEquals("", WebhookServer.commonName(new javax.security.auth.x500.X500Principal("O=system")));
    }
}
