package io.colocation.localclusters.kube;

import io.colocation.localclusters.process.Processes;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Kubernetes node on this host: containerd (Debian's, with runc and the CNI bridge plugin) on its own socket and
 * directories, and kubelet v1.20.2 (built by {@code dev/install-kubelet-node.sh} beside the test kube-apiserver) with the
 * cgroupfs driver, registered with a {@link KubeApiServer}. Pods bound to it really run: their processes sit in the
 * kubelet's own {@code kubepods/<qos>/pod<uid>} cgroups, and an eviction really stops them. The one image is
 * {@value #IMAGE}, imported from a file (no registry): a static pause, the {@code /burner} test workload, busybox as
 * {@code /bin/sh}, and a Java 17 runtime ({@code java} on the PATH, {@code JAVA_HOME=/opt/java}).
 *
 * <p>Needs root, writable cgroups and no other live kubelet on the host ({@link #unavailable} says why not). {@link #close}
 * removes everything it made: pods, containers, mounts, the bridge, the kubepods cgroups, the Node ({@link NodeTraces});
 * a node killed before its close leaves those on the host, and the next start removes them.
 *
 * <p>This machine's root lacks CAP_SYS_RESOURCE, so the kubelet's negative oom_score_adj values cannot be written:
 * containerd runs with {@code restrict_oom_score_adj} (containers get at least its own score).
 */
public final class KubeletNode implements Closeable {
    public static final String IMAGE = "colocation.local/node-base:3";
    private static final Logger LOG = LoggerFactory.getLogger(KubeletNode.class);
    private static final Path CGROUP = Path.of("/sys/fs/cgroup");
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

    private final Path workDir;
    private final String nodeName;
    private final KubernetesClient client;
    private final String bridge;
    private final Path socket;
    /** The third octet of the node's pod subnet, 10.245.N.0/24. */
    private final int subnet;
    private final List<Process> processes = new ArrayList<>();
    private final Thread shutdownHook = new Thread(this::removeEverything, "kubelet-node-shutdown");

    private KubeletNode(Path workDir, String nodeName, KubernetesClient client) {
        this.workDir = workDir;
        this.nodeName = nodeName;
        this.client = client;
        this.bridge = "coloc" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0x10000));
        this.socket = NodeTraces.socket(workDir);
        this.subnet = ThreadLocalRandom.current().nextInt(0, 256);
    }

    /** Why this host cannot run a real node (empty: it can). */
    public static Optional<String> unavailable() {
        Optional<String> notRootOrNoBinaries = rootWithBinaries("a kubelet");
        if (notRootOrNoBinaries.isPresent()) {
            return notRootOrNoBinaries;
        }
        Path bin = KubeApiServer.locateBinaries();
        Path hierarchy = Files.isDirectory(CGROUP.resolve("cpu")) ? CGROUP.resolve("cpu") : CGROUP;
        if (!Files.isWritable(hierarchy)) {
            return Optional.of("the cgroup mount " + hierarchy + " is not writable");
        }
        Optional<String> live = liveKubelet();
        if (live.isPresent()) {
            return Optional.of("another kubelet's node is on this host: " + live.get());
        }
        List<String> missing = new ArrayList<>();
        for (Path p : List.of(bin.resolve("kubelet"), bin.resolve("node-base.tar"), Path.of("/usr/bin/containerd"), Path.of("/usr/bin/ctr"),
                Path.of("/usr/lib/cni/bridge"))) {
            if (!Files.exists(p)) {
                missing.add(p.toString());
            }
        }
        if (!Files.isExecutable(Path.of("/usr/sbin/runc")) && !Files.isExecutable(Path.of("/usr/bin/runc"))) {
            missing.add("runc");
        }
        return missing.isEmpty() ? Optional.empty()
                : Optional.of("missing " + String.join(", ", missing) + ": run dev/install-kubelet-node.sh");
    }

    /**
     * Why this host's {@code kubepods} cgroups belong to a live kubelet: a kubelet process runs, or a process sits in
     * them (empty: there are none, or only what a run killed before its close left).
     */
    public static Optional<String> liveKubelet() {
        return NodeTraces.liveKubelet();
    }

    /**
     * Removes what runs killed before their close left on this host (a real node's mounts, bridge, masquerade chains,
     * {@code kubepods} cgroups and work directory), when no kubelet is live; says what it removed.
     */
    public static List<String> removeTracesOfKilledRuns() {
        return NodeTraces.removeDeadNodes();
    }

    /** Why {@code who} cannot run on this host as far as root and the kube binaries go (empty: it can). */
    static Optional<String> rootWithBinaries(String who) {
        try {
            KubeApiServer.locateBinaries();
        } catch (IllegalStateException e) {
            return Optional.of(e.getMessage());
        }
        if (!"root".equals(System.getProperty("user.name"))) {
            return Optional.of(who + " needs root (running as " + System.getProperty("user.name") + ")");
        }
        return Optional.empty();
    }

    /** Starts containerd and the kubelet, registers {@code nodeName} and waits until the Node is Ready. */
    public static KubeletNode start(Path workDir, KubeApiServer api, String nodeName) throws IOException {
        Optional<String> why = unavailable();
        if (why.isPresent()) {
            throw new IOException("no real node on this host: " + why.get());
        }
        List<String> removed = removeTracesOfKilledRuns();
        if (!removed.isEmpty()) {
            LOG.warn("removed what real nodes killed before their close left on this host: {}", String.join("; ", removed));
        }
        KubeletNode node = new KubeletNode(workDir, nodeName, api.newClient());
        Runtime.getRuntime().addShutdownHook(node.shutdownHook);
        try {
            node.launch(api, KubeApiServer.locateBinaries());
        } catch (IOException | RuntimeException e) {
            node.close();
            throw e;
        }
        return node;
    }

    public String name() {
        return nodeName;
    }

    /**
     * This host's address on the pods' network (the bridge's gateway address, there once a pod ran): where a pod reaches
     * a server on the host, a Spark driver say. Pods route everything else through it too, so the host's own addresses
     * and kube-proxy's Service addresses are reachable ({@link KubeControlPlane}); nothing is forwarded beyond the host.
     */
    public String podNetworkGateway() {
        return "10.245." + subnet + ".1";
    }

    private void launch(KubeApiServer api, Path bin) throws IOException {
        for (String dir : List.of("containerd/root", "containerd/state", "cni/conf", "cni/ipam", "kubelet/root", "kubelet/pki")) {
            Files.createDirectories(workDir.resolve(dir));
        }
        Files.writeString(NodeTraces.cniConf(workDir), """
                {"cniVersion": "0.4.0", "name": "%s", "plugins": [
                  {"type": "bridge", "bridge": "%s", "isGateway": true, "ipMasq": true,
                   "ipam": {"type": "host-local", "ranges": [[{"subnet": "10.245.%d.0/24"}]], "routes": [{"dst": "0.0.0.0/0"}],
                   "dataDir": "%s"}}]}
                """.formatted(bridge, bridge, subnet, workDir.resolve("cni/ipam")));
        Path config = workDir.resolve("containerd/config.toml");
        Files.writeString(config, """
                version = 2
                root = "%s"
                state = "%s"
                [grpc]
                  address = "%s"
                [plugins."io.containerd.grpc.v1.cri"]
                  sandbox_image = "%s"
                  restrict_oom_score_adj = true
                  netns_mounts_under_state_dir = true
                  [plugins."io.containerd.grpc.v1.cri".containerd]
                    snapshotter = "overlayfs"
                    default_runtime_name = "runc"
                    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
                      runtime_type = "io.containerd.runc.v2"
                      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
                        SystemdCgroup = false
                  [plugins."io.containerd.grpc.v1.cri".cni]
                    bin_dir = "/usr/lib/cni"
                    conf_dir = "%s"
                """.formatted(workDir.resolve("containerd/root"), workDir.resolve("containerd/state"), socket, IMAGE,
                workDir.resolve("cni/conf")));
        spawn("containerd", List.of("/usr/bin/containerd", "--config", config.toString()));
        awaitSocket();
        ctr("images", "import", "--base-name", IMAGE.substring(0, IMAGE.indexOf(':')), bin.resolve("node-base.tar").toRealPath().toString());

        int port = io.colocation.localclusters.LoopbackPorts.pick();
        Path kubeletConfig = workDir.resolve("kubelet/config.yaml");
        Files.writeString(kubeletConfig, """
                apiVersion: kubelet.config.k8s.io/v1beta1
                kind: KubeletConfiguration
                authentication: {anonymous: {enabled: false}, webhook: {enabled: false}}
                authorization: {mode: AlwaysAllow}
                cgroupDriver: cgroupfs
                failSwapOn: false
                address: 127.0.0.1
                port: %d
                readOnlyPort: 0
                healthzPort: 0
                evictionHard: {memory.available: "100Mi", nodefs.available: "1%%", imagefs.available: "1%%", nodefs.inodesFree: "1%%"}
                imageGCHighThresholdPercent: 100
                imageGCLowThresholdPercent: 99
                syncFrequency: 5s
                nodeStatusUpdateFrequency: 5s
                fileCheckFrequency: 1h
                resolvConf: ""
                """.formatted(port));
        spawn("kubelet", List.of(bin.resolve("kubelet").toString(), "--config=" + kubeletConfig, "--kubeconfig=" + api.kubeconfig(),
                "--container-runtime=remote", "--container-runtime-endpoint=unix://" + socket,
                "--root-dir=" + workDir.resolve("kubelet/root"), "--cert-dir=" + workDir.resolve("kubelet/pki"),
                "--hostname-override=" + nodeName, "--logtostderr=true", "--v=1"));
        awaitReady();
        LOG.info("real node {} Ready (kubelet and containerd in {})", nodeName, workDir);
    }

    /**
     * Imports an OCI image archive (one of {@code dev/build-images.sh}'s) into the node's containerd as
     * {@code baseName:<its tag>}, as a registry pull would leave it: pods asking for it with {@code IfNotPresent} run it.
     */
    public void importImage(Path archive, String baseName) throws IOException {
        ctr("images", "import", "--base-name", baseName, archive.toRealPath().toString());
    }

    private void spawn(String name, List<String> command) throws IOException {
        processes.add(new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(workDir.resolve(name + ".log").toFile()).start());
    }

    private void awaitSocket() throws IOException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() < deadline) {
            checkAlive();
            if (Files.exists(socket) && Processes.run(List.of("/usr/bin/ctr", "--address", socket.toString(), "version"), 10) == 0) {
                return;
            }
            Processes.awaitStep(100);
        }
        throw new IOException("containerd did not answer on " + socket + " within 30 s; see " + workDir.resolve("containerd.log"));
    }

    private void awaitReady() throws IOException {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            checkAlive();
            Node node = client.nodes().withName(nodeName).get();
            if (node != null && node.getStatus() != null && node.getStatus().getConditions() != null
                    && node.getStatus().getConditions().stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()))) {
                ColocationObjects.untaintNotReady(client, nodeName);
                return;
            }
            Processes.awaitStep(250);
        }
        throw new IOException("node " + nodeName + " not Ready within " + READY_TIMEOUT.toSeconds() + " s; see " + workDir.resolve("kubelet.log"));
    }

    private void checkAlive() throws IOException {
        String[] names = {"containerd", "kubelet"};
        for (int i = 0; i < processes.size(); i++) {
            if (!processes.get(i).isAlive()) {
                throw new IOException(names[i] + " exited with " + processes.get(i).exitValue() + "; last lines of "
                        + workDir.resolve(names[i] + ".log") + ":\n" + Processes.tail(workDir.resolve(names[i] + ".log"), 10));
            }
        }
    }

    private void ctr(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("/usr/bin/ctr", "--address", socket.toString(), "-n", "k8s.io"));
        command.addAll(List.of(args));
        int rc = Processes.run(command, 120);
        if (rc != 0) {
            throw new IOException(String.join(" ", command) + " exited with " + rc);
        }
    }

    /** Stops the pods, the kubelet and containerd, and removes every trace of the node from the host and the cluster. */
    @Override
    public void close() {
        removeEverything();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException | IllegalArgumentException ignored) {
            // the JVM is shutting down, or the hook ran
        }
        client.close();
    }

    private synchronized void removeEverything() {
        // The kubelet stops its pods' containers and tears their networks down itself, when it still runs.
        try {
            client.pods().inAnyNamespace().withField("spec.nodeName", nodeName).withGracePeriod(0).delete();
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (System.nanoTime() < deadline && !tasks().isEmpty() && processes.size() > 1 && processes.get(1).isAlive()) {
                Thread.sleep(200);
            }
        } catch (RuntimeException e) {
            LOG.warn("could not delete the pods of {}: {}", nodeName, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (int i = processes.size() - 1; i >= 0; i--) {
            if (i == 0) {
                // containerd last; what the kubelet left running is killed through it first
                for (String task : tasks()) {
                    Processes.run(List.of("/usr/bin/ctr", "--address", socket.toString(), "-n", "k8s.io", "tasks", "kill", "-a", "-s", "SIGKILL", task), 10);
                    Processes.run(List.of("/usr/bin/ctr", "--address", socket.toString(), "-n", "k8s.io", "tasks", "delete", "-f", task), 10);
                }
            }
            Processes.stop(processes.get(i), 15);
        }
        processes.clear();
        new NodeTraces(workDir, bridge).remove();
        try {
            client.nodes().withName(nodeName).delete();
        } catch (RuntimeException e) {
            LOG.warn("could not delete Node {}: {}", nodeName, e.toString());
        }
    }

    private List<String> tasks() {
        if (!Files.exists(socket)) {
            return List.of();
        }
        return Processes.output(List.of("/usr/bin/ctr", "--address", socket.toString(), "-n", "k8s.io", "tasks", "ls", "-q"), 30);
    }
}
