package io.colocation.localclusters.kube;

import io.colocation.localclusters.process.Processes;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The rest of a real cluster around a {@link KubeApiServer} started {@linkplain KubeApiServer#startReachableFromPods
 * reachable from pods} and a {@link KubeletNode}: kube-controller-manager (Deployments, DaemonSets, Endpoints, garbage
 * collection, the {@code kube-root-ca.crt} ConfigMaps), kube-scheduler, and kube-proxy in iptables mode on the node
 * (Services: a pod reaches the API server at {@code kubernetes.default}'s address, the API server reaches a webhook
 * through its Service). All v1.20.2, built by {@code dev/install-kube-apiserver.sh --with-control-plane}; none serves
 * a port of its own. {@link #close} stops them and removes kube-proxy's iptables rules.
 */
public final class KubeControlPlane implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(KubeControlPlane.class);
    private static final List<String> BINARIES = List.of("kube-controller-manager", "kube-scheduler", "kube-proxy");
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

    private final Path workDir;
    private final Path bin;
    private final List<Process> processes = new ArrayList<>();
    private final List<String> names = new ArrayList<>();
    private final Thread shutdownHook = new Thread(this::stopAll, "kube-control-plane-shutdown");

    private KubeControlPlane(Path workDir, Path bin) {
        this.workDir = workDir;
        this.bin = bin;
    }

    /** Why this host cannot run the control plane beside a {@link KubeletNode} (empty: it can). */
    public static Optional<String> unavailable() {
        Optional<String> notRootOrNoBinaries = KubeletNode.rootWithBinaries("kube-proxy");
        if (notRootOrNoBinaries.isPresent()) {
            return notRootOrNoBinaries;
        }
        Path bin = KubeApiServer.locateBinaries();
        List<String> missing = BINARIES.stream().filter(b -> !Files.isExecutable(bin.resolve(b))).toList();
        if (!missing.isEmpty()) {
            return Optional.of("missing " + String.join(", ", missing) + " in " + bin
                    + ": run dev/install-kubelet-node.sh --with-control-plane");
        }
        if (!Files.isExecutable(Path.of("/usr/sbin/iptables")) && !Files.isExecutable(Path.of("/sbin/iptables"))) {
            return Optional.of("kube-proxy needs iptables: apt-get install iptables");
        }
        return Optional.empty();
    }

    /** Starts the three against {@code api} for the node {@code nodeName} and waits until Services and controllers work. */
    public static KubeControlPlane start(Path workDir, KubeApiServer api, String nodeName) throws IOException {
        Optional<String> why = unavailable();
        if (why.isPresent()) {
            throw new IOException("no control plane on this host: " + why.get());
        }
        KubeControlPlane plane = new KubeControlPlane(workDir, KubeApiServer.locateBinaries());
        Runtime.getRuntime().addShutdownHook(plane.shutdownHook);
        try {
            plane.launch(api, nodeName);
        } catch (IOException | RuntimeException e) {
            plane.close();
            throw e;
        }
        return plane;
    }

    private void launch(KubeApiServer api, String nodeName) throws IOException {
        Files.createDirectories(workDir);
        String kubeconfig = api.kubeconfig().toString();
        spawn("kube-controller-manager", List.of("--kubeconfig=" + kubeconfig, "--leader-elect=false", "--port=0", "--secure-port=0",
                "--root-ca-file=" + api.servingCertificate(), "--service-account-private-key-file=" + api.serviceAccountKey(),
                "--use-service-account-credentials=false", "--logtostderr=true", "--v=1"));
        spawn("kube-scheduler", List.of("--kubeconfig=" + kubeconfig, "--leader-elect=false", "--port=0", "--secure-port=0",
                "--logtostderr=true", "--v=1"));
        // conntrack limits left as the host has them (a container cannot write them); health and metrics not served
        spawn("kube-proxy", List.of("--kubeconfig=" + kubeconfig, "--hostname-override=" + nodeName, "--proxy-mode=iptables",
                "--conntrack-max-per-core=0", "--conntrack-tcp-timeout-established=0", "--conntrack-tcp-timeout-close-wait=0",
                "--healthz-bind-address=", "--metrics-bind-address=", "--logtostderr=true", "--v=1"));
        awaitReady(api);
        LOG.info("kube-controller-manager, kube-scheduler and kube-proxy running for node {} (logs in {})", nodeName, workDir);
    }

    private void spawn(String name, List<String> args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(bin.resolve(name).toString());
        command.addAll(args);
        processes.add(new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(workDir.resolve(name + ".log").toFile()).start());
        names.add(name);
    }

    /** The controller manager publishes kube-root-ca.crt, kube-proxy writes the kubernetes Service's rule. */
    private void awaitReady(KubeApiServer api) throws IOException {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        try (KubernetesClient client = api.newClient()) {
            while (System.nanoTime() < deadline) {
                checkAlive();
                ConfigMap ca = client.configMaps().inNamespace("default").withName("kube-root-ca.crt").get();
                if (ca != null && String.join("\n", Processes.output(List.of("iptables-save", "-t", "nat"), 10)).contains("default/kubernetes:https")) {
                    return;
                }
                Processes.awaitStep(250);
            }
        }
        throw new IOException("the control plane was not ready within " + READY_TIMEOUT.toSeconds() + " s (kube-root-ca.crt"
                + " published, the kubernetes Service's iptables rule written); see the logs in " + workDir);
    }

    private void checkAlive() throws IOException {
        for (int i = 0; i < processes.size(); i++) {
            if (!processes.get(i).isAlive()) {
                Path log = workDir.resolve(names.get(i) + ".log");
                throw new IOException(names.get(i) + " exited with " + processes.get(i).exitValue() + "; last lines of " + log + ":\n"
                        + Processes.tail(log, 10));
            }
        }
    }

    @Override
    public void close() {
        stopAll();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException | IllegalArgumentException ignored) {
            // the JVM is shutting down, or the hook ran
        }
    }

    private synchronized void stopAll() {
        for (int i = processes.size() - 1; i >= 0; i--) {
            Processes.stop(processes.get(i), 10);
        }
        boolean proxied = names.contains("kube-proxy");
        processes.clear();
        names.clear();
        if (proxied) {
            // kube-proxy's chains stay in the host's tables until it is asked to remove them
            int rc = Processes.run(List.of(bin.resolve("kube-proxy").toString(), "--cleanup"), 30);
            if (rc != 0) {
                LOG.warn("could not remove kube-proxy's iptables rules: kube-proxy --cleanup exited with {}", rc);
            }
        }
    }
}
