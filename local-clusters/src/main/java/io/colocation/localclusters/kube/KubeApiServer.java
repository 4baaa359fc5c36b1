package io.colocation.localclusters.kube;

import io.colocation.localclusters.LoopbackPorts;
import io.colocation.localclusters.process.Processes;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.Closeable;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real etcd and kube-apiserver (v1.20.2, built by {@code dev/install-kube-apiserver.sh}) on loopback ports outside
 * the ephemeral range ({@link LoopbackPorts}); a start that loses a port to another process is retried on new ones. Authentication is a static admin token in group {@code system:masters}; the serving
 * certificate is self-signed, so clients skip TLS verification. Alone it is a bare API server (no controllers, no
 * kubelet: nothing is garbage-collected, a namespace stays Terminating, a node never turns Ready by itself and a
 * bound pod deleted normally stays Terminating, so tests delete with grace period 0); {@link #startReachableFromPods} serves pods
 * too, for a {@link KubeletNode} with a {@link KubeControlPlane}.
 */
public final class KubeApiServer implements Closeable {
    public static final String BIN_DIR_PROPERTY = "colocation.kube.bin";
    public static final String BIN_DIR_ENV = "COLOCATION_KUBE_BIN";
    private static final Logger LOG = LoggerFactory.getLogger(KubeApiServer.class);
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(90);

    private final Path workDir;
    /** The host address pods reach this server at, or null: loopback only. */
    private final String podReachableAddress;
    private final String token = UUID.randomUUID().toString();
    private final List<Process> processes = new ArrayList<>();
    private final Thread shutdownHook = new Thread(this::destroyProcesses, "kube-apiserver-shutdown");
    private int apiPort;
    private Path kubeconfig;
    private WebhookClientIdentity webhookClient;

    private KubeApiServer(Path workDir, String podReachableAddress) {
        this.workDir = workDir;
        this.podReachableAddress = podReachableAddress;
    }

    /** Starts etcd and the API server under {@code workDir} and waits until the server is ready. */
    public static KubeApiServer start(Path workDir) throws IOException {
        return start(workDir, null);
    }

    /**
     * As {@link #start(Path)}, the server listening on every address and advertising {@code hostAddress} (the
     * {@code kubernetes} Service's endpoint): pods of a {@link KubeletNode} reach it through kube-proxy as in a real
     * cluster ({@link KubeControlPlane}).
     */
    public static KubeApiServer startReachableFromPods(Path workDir, String hostAddress) throws IOException {
        return start(workDir, java.util.Objects.requireNonNull(hostAddress, "hostAddress"));
    }

    private static KubeApiServer start(Path workDir, String podReachableAddress) throws IOException {
        Path bin = locateBinaries();
        try {
            return LoopbackPorts.retryOnBindFailure(5, () -> {
                KubeApiServer server = new KubeApiServer(workDir, podReachableAddress);
                try {
                    server.launch(bin);
                    return server;
                } catch (IOException e) {
                    server.close();
                    throw new java.io.UncheckedIOException(e);
                } catch (RuntimeException e) {
                    server.close();
                    throw e;
                }
            });
        } catch (java.io.UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /**
     * The directory holding {@code kube-apiserver} and {@code etcd}: the system property
     * {@value #BIN_DIR_PROPERTY}, the environment variable {@value #BIN_DIR_ENV}, or the cache the
     * install script writes ({@code $COLOCATION_CACHE}, by default {@code ~/.cache/colocation}, then
     * {@code kube-1.20.2/bin}).
     */
    public static Path locateBinaries() {
        String configured = System.getProperty(BIN_DIR_PROPERTY, System.getenv(BIN_DIR_ENV));
        String cache = System.getenv("COLOCATION_CACHE");
        Path dir = configured != null && !configured.isBlank() ? Path.of(configured)
                : (cache != null && !cache.isBlank() ? Path.of(cache) : Path.of(System.getProperty("user.home"), ".cache", "colocation"))
                        .resolve("kube-1.20.2").resolve("bin");
        if (!Files.isExecutable(dir.resolve("kube-apiserver")) || !Files.isExecutable(dir.resolve("etcd"))) {
            throw new IllegalStateException("No kube-apiserver and etcd in " + dir
                    + ": run dev/install-kube-apiserver.sh (it builds and caches them), or point "
                    + BIN_DIR_ENV + " at a directory holding both");
        }
        return dir;
    }

    private void launch(Path bin) throws IOException {
        Files.createDirectories(workDir);
        int etcdClientPort = LoopbackPorts.pick();
        int etcdPeerPort = LoopbackPorts.pick();
        apiPort = LoopbackPorts.pick();

        String etcdUrl = "http://127.0.0.1:" + etcdClientPort;
        String peerUrl = "http://127.0.0.1:" + etcdPeerPort;
        spawn("etcd", List.of(bin.resolve("etcd").toString(),
                "--name=default",
                "--data-dir=" + workDir.resolve("etcd-data"),
                "--listen-client-urls=" + etcdUrl,
                "--advertise-client-urls=" + etcdUrl,
                "--listen-peer-urls=" + peerUrl,
                "--initial-advertise-peer-urls=" + peerUrl,
                "--initial-cluster=default=" + peerUrl,
                "--unsafe-no-fsync=true"));

        Path tokens = workDir.resolve("tokens.csv");
        Files.writeString(tokens, token + ",admin,admin,\"system:masters\"\n");
        Path saKey = workDir.resolve("service-account.key");
        writeServiceAccountKey(saKey);
        webhookClient = WebhookClientIdentity.write(workDir.resolve("webhook-client"));
        spawn("kube-apiserver", List.of(bin.resolve("kube-apiserver").toString(),
                "--etcd-servers=" + etcdUrl,
                "--bind-address=" + (podReachableAddress == null ? "127.0.0.1" : "0.0.0.0"),
                "--advertise-address=" + (podReachableAddress == null ? "127.0.0.1" : podReachableAddress),
                "--secure-port=" + apiPort,
                "--cert-dir=" + workDir.resolve("certs"),
                "--token-auth-file=" + tokens,
                "--authorization-mode=RBAC",
                "--service-account-issuer=https://kubernetes.default.svc",
                "--service-account-key-file=" + saKey,
                "--service-account-signing-key-file=" + saKey,
                "--service-cluster-ip-range=10.0.0.0/24",
                "--disable-admission-plugins=ServiceAccount",
                "--admission-control-config-file=" + webhookClient.admissionConfig(),
                "--allow-privileged=true",
                "--logtostderr=true",
                "--v=0"));
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        awaitReady();
        kubeconfig = writeKubeconfig();
        LOG.info("kube-apiserver ready at {} (work dir {})", url(), workDir);
    }

    /** The PEM chain of the server's self-signed serving certificate (its CA included): what pods are given to trust it. */
    public Path servingCertificate() {
        return workDir.resolve("certs/apiserver.crt");
    }

    /** The key that signs service-account tokens (the controller manager's token controller signs with it too). */
    public Path serviceAccountKey() {
        return workDir.resolve("service-account.key");
    }

    /** The client certificate this API server shows the webhooks it calls, and the CA that signed it. */
    public WebhookClientIdentity webhookClientIdentity() {
        return webhookClient;
    }

    /**
     * Freezes the API server process (SIGSTOP): connections stay open and nothing answers, as in a network
     * partition or a stalled server. {@link #resume()} lets it go on.
     */
    public void pause() throws IOException, InterruptedException {
        signal("-STOP");
    }

    public void resume() throws IOException, InterruptedException {
        signal("-CONT");
    }

    /** The etcd and kube-apiserver process ids, for a benchmark that accounts their CPU time. */
    public List<Long> processIds() {
        return processes.stream().map(Process::pid).toList();
    }

    private void signal(String signal) throws IOException, InterruptedException {
        Process apiServer = processes.get(processes.size() - 1);
        int rc = new ProcessBuilder("kill", signal, Long.toString(apiServer.pid())).inheritIO().start().waitFor();
        if (rc != 0) {
            throw new IOException("kill " + signal + " " + apiServer.pid() + " exited with " + rc);
        }
    }

    private void spawn(String name, List<String> command) throws IOException {
        Path logFile = workDir.resolve(name + ".log");
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(logFile.toFile())
                .start();
        processes.add(process);
    }

    private void awaitReady() throws IOException {
        HttpClient http = HttpClient.newBuilder().sslContext(trustAll()).connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest readyz = HttpRequest.newBuilder(URI.create(url() + "/readyz"))
                .header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(5)).build();
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            for (int i = 0; i < processes.size(); i++) {
                Process p = processes.get(i);
                if (!p.isAlive()) {
                    String name = i == 0 ? "etcd" : "kube-apiserver";
                    throw new IOException(name + " exited with " + p.exitValue() + bindFailure(name) + "; see the logs in " + workDir);
                }
            }
            try {
                HttpResponse<String> response = http.send(readyz, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200) {
                    return;
                }
                last = "HTTP " + response.statusCode();
            } catch (IOException e) {
                last = e.toString();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for kube-apiserver", e);
            }
            Processes.awaitStep(200);
        }
        throw new IOException("kube-apiserver not ready after " + STARTUP_TIMEOUT.toSeconds() + " s (last: "
                + last + "); see the logs in " + workDir);
    }

    /** ": address already in use" when the process's log says it lost its port (the start is then retried). */
    private String bindFailure(String name) {
        try {
            return Files.readString(workDir.resolve(name + ".log")).contains("address already in use") ? ": address already in use" : "";
        } catch (IOException e) {
            return "";
        }
    }

    private Path writeKubeconfig() throws IOException {
        Path file = workDir.resolve("kubeconfig");
        Files.writeString(file, String.join("\n",
                "apiVersion: v1",
                "kind: Config",
                "clusters:",
                "- name: test",
                "  cluster:",
                "    server: " + url(),
                "    insecure-skip-tls-verify: true",
                "users:",
                "- name: admin",
                "  user:",
                "    token: " + token,
                "contexts:",
                "- name: test",
                "  context:",
                "    cluster: test",
                "    user: admin",
                "current-context: test",
                ""));
        return file;
    }

    /** The API server's own log (what it says of admission webhooks it called, among the rest). */
    public Path log() {
        return workDir.resolve("kube-apiserver.log");
    }

    public String url() {
        return "https://127.0.0.1:" + apiPort;
    }

    /** A kubeconfig file for this server (for kubectl and for parts that read one). */
    public Path kubeconfig() {
        return kubeconfig;
    }

    /** Client configuration with the admin token; callers own the clients they build from it. */
    public Config clientConfig() {
        return new ConfigBuilder(Config.empty())
                .withMasterUrl(url())
                .withOauthToken(token)
                .withTrustCerts(true)
                .withDisableHostnameVerification(true)
                .withRequestTimeout(30_000)
                .withConnectionTimeout(10_000)
                .build();
    }

    public KubernetesClient newClient() {
        return new KubernetesClientBuilder().withConfig(clientConfig()).build();
    }

    /** Stops both processes and deletes the work directory (etcd's data and the logs). */
    @Override
    public void close() {
        destroyProcesses();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException | IllegalArgumentException ignored) {
            // JVM already shutting down, or the hook was never registered
        }
        try (var paths = Files.walk(workDir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            LOG.warn("could not delete {}", workDir, e);
        }
    }

    private void destroyProcesses() {
        // API server before etcd, so it does not log a storm of etcd errors while stopping.
        for (int i = processes.size() - 1; i >= 0; i--) {
            Processes.stop(processes.get(i), 10);
        }
        processes.clear();
    }

    private static void writeServiceAccountKey(Path file) throws IOException {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            byte[] pkcs8 = generator.generateKeyPair().getPrivate().getEncoded();
            String pem = "-----BEGIN PRIVATE KEY-----\n"
                    + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(pkcs8)
                    + "\n-----END PRIVATE KEY-----\n";
            Files.writeString(file, pem);
        } catch (java.security.GeneralSecurityException e) {
            throw new IOException("cannot generate the service-account key", e);
        }
    }

    /**
     * Trusts any certificate for any name: an extended trust manager, since the JDK checks the host name on behalf of
     * a plain one (the server's self-made certificate names its advertised address, not always 127.0.0.1).
     */
    private static SSLContext trustAll() throws IOException {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {new X509ExtendedTrustManager() {
                @Override
                public void checkClientTrusted(X509Certificate[] chain, String authType) {
                }

                @Override
                public void checkServerTrusted(X509Certificate[] chain, String authType) {
                }

                @Override
                public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
                }

                @Override
                public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
                }

                @Override
                public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
                }

                @Override
                public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
                }

                @Override
                public X509Certificate[] getAcceptedIssuers() {
                    return new X509Certificate[0];
                }
            }}, new SecureRandom());
            return context;
        } catch (java.security.GeneralSecurityException e) {
            throw new IOException(e);
        }
    }

}
