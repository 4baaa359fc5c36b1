package io.colocation.broker.service;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.colocation.localclusters.zookeeper.LocalZooKeeper;
import io.colocation.testsupport.zookeeper.ZooKeeperExtension;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Start-up failures as an operator sees them running {@code colocation broker conf/broker.yml}: one line
 * naming what is wrong (config key, API server URL and cause, the missing CRD and how to install it), no
 * stack trace, and the start-up timeout honoured.
 */
@ExtendWith(ZooKeeperExtension.class)
class BrokerStartupErrorsTest {

    /** Runs the shipped command line with {@code -Ddw.} overrides; returns what it printed on stderr. */
    private static String start(LocalZooKeeper zk, Map<String, String> overrides) throws Exception {
        Map<String, String> all = new java.util.HashMap<>(Map.of(
                "dw.zookeeper.connect", zk.connectString(),
                "dw.zookeeper.root", "/startup",
                "dw.auth.mode", "none",
                "dw.server.applicationConnectors[0].port", "0",
                "dw.server.adminConnectors[0].port", "0",
                "dw.kubernetes.startupTimeoutSeconds", "3"));
        all.putAll(overrides);
        all.forEach(System::setProperty);
        PrintStream savedErr = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            BrokerApplication app = new BrokerApplication(false) {
                @Override
                protected void onFatalError(Throwable t) {
                    throw new IllegalStateException("exit 1");
                }
            };
            assertThrows(IllegalStateException.class, () -> app.run("server", "../../conf/broker.yml"));
        } finally {
            System.setErr(savedErr);
            all.keySet().forEach(System::clearProperty);
        }
        return err.toString(StandardCharsets.UTF_8);
    }

    private static void assertOneLine(String stderr, String expected) {
        String line = stderr.lines().filter(l -> l.startsWith("colocation broker: ")).findFirst().orElse("");
        assertTrue(line.contains(expected), "expected \"" + expected + "\" in: " + stderr);
        assertFalse(stderr.contains("\tat "), "no stack trace: " + stderr);
    }

    @Test
    void anUnreachableApiServerIsNamedWithItsCause(LocalZooKeeper zk) throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        String stderr = start(zk, Map.of("dw.kubernetes.masterUrl", "http://127.0.0.1:" + port));
        assertOneLine(stderr, "cannot reach the Kubernetes API server http://127.0.0.1:" + port + "/: connection refused");
    }

    @Test
    void aServerThatNeverAnswersIsGivenUpOnAfterTheStartupTimeout(LocalZooKeeper zk) throws Exception {
        try (ServerSocket silent = new ServerSocket(0)) {
            List<Socket> accepted = new ArrayList<>();
            Thread acceptor = new Thread(() -> {
                while (!silent.isClosed()) {
                    try {
                        accepted.add(silent.accept());
                    } catch (Exception closed) {
                        return;
                    }
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            long started = System.nanoTime();
            String stderr = start(zk, Map.of("dw.kubernetes.masterUrl", "http://127.0.0.1:" + silent.getLocalPort()));
            long seconds = (System.nanoTime() - started) / 1_000_000_000;
            assertOneLine(stderr, "did not answer within 3 s (kubernetes.startupTimeoutSeconds)");
            assertTrue(seconds < 15, "start-up took " + seconds + " s with a 3 s timeout");
            for (Socket s : accepted) {
                s.close();
            }
        }
    }

    @Test
    void aMissingNodeMetricCrdSaysHowToInstallIt(LocalZooKeeper zk) throws Exception {
        // An API server without the CRD answers 404 for its group-version.
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            byte[] body = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"code\":404}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(404, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            String stderr = start(zk, Map.of("dw.kubernetes.masterUrl", "http://127.0.0.1:" + server.getAddress().getPort()));
            assertOneLine(stderr, "is the CRD installed? kubectl apply -f conf/kubernetes/crds/slo.koordinator.sh_nodemetrics.yaml");
        } finally {
            server.stop(0);
        }
    }

    /** The webhook's own start-up failures, on a real API server: each one line, and nothing left running. */
    @Test
    @ExtendWith(io.colocation.testsupport.kube.KubeApiServerExtension.class)
    void theWebhooksStartupFailuresNameTheSecretTheGateAndThePort(LocalZooKeeper zk,
            io.colocation.localclusters.kube.KubeApiServer apiServer, io.fabric8.kubernetes.client.KubernetesClient client) throws Exception {
        io.colocation.localclusters.kube.ColocationObjects.installCrd(client,
                java.nio.file.Path.of("../../conf/kubernetes/crds/config.koordinator.sh_clustercolocationprofiles.yaml"),
                "config.koordinator.sh/v1alpha1", "ClusterColocationProfile");
        Map<String, String> webhook = Map.of("dw.kubernetes.kubeconfig", apiServer.kubeconfig().toString(),
                "dw.webhook.enabled", "true", "dw.webhook.bindHost", "127.0.0.1", "dw.webhook.secretNamespace", "default",
                "dw.webhook.secretName", "startup-webhook-tls", "dw.webhook.hosts", "127.0.0.1");
        Map<String, String> secretMode = new java.util.HashMap<>(webhook);
        secretMode.put("dw.webhook.certificate", "secret");
        assertOneLine(start(zk, secretMode), "webhook: Secret default/startup-webhook-tls not found (webhook.certificate: secret"
                + " expects a Secret with tls.crt and tls.key");

        Map<String, String> badGate = new java.util.HashMap<>(webhook);
        badGate.put("dw.webhook.featureGates", "DisableExtendedResourceSpec=true,Foo=true");
        assertOneLine(start(zk, badGate), "webhook.featureGates: unknown gate Foo");

        try (ServerSocket taken = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            Map<String, String> portTaken = new java.util.HashMap<>(webhook);
            portTaken.put("dw.webhook.port", String.valueOf(taken.getLocalPort()));
            assertOneLine(start(zk, portTaken), "webhook: cannot serve HTTPS on 127.0.0.1:" + taken.getLocalPort());
        } finally {
            client.secrets().inNamespace("default").withName("startup-webhook-tls").delete();
        }
    }

    @Test
    void aConfigErrorIsOneLineNamingTheKey(LocalZooKeeper zk) throws Exception {
        String stderr = start(zk, Map.of("dw.sync.intervalMs", "often"));
        assertOneLine(stderr, "sync.intervalMs");
    }
}
