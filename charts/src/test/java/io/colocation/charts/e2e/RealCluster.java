package io.colocation.charts.e2e;

import io.colocation.localclusters.HostAddress;
import io.colocation.localclusters.kube.KubeApiServer;
import io.colocation.localclusters.kube.KubeControlPlane;
import io.colocation.localclusters.kube.KubeletNode;
import io.colocation.localclusters.yarn.MiniYarn;
import io.colocation.localclusters.zookeeper.LocalZooKeeper;
import io.colocation.yarn.plugin.BatchGrantEditPolicy;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * What the end-to-end suite installs the chart into, all on this host: the real kube-apiserver and etcd (reachable
 * from pods), one real kubelet node named as the host is (so a NodeManager on its network registers under the node's
 * name), kube-controller-manager, kube-scheduler and kube-proxy, the product's images imported into the node's
 * containerd, a ZooKeeper on the host's address, and a ResourceManager with the colocation plugin and no NodeManager
 * of its own (the chart's NodeManager pod joins it).
 */
final class RealCluster implements AutoCloseable {
    static final String YARN_ROOT = "/colocation";
    static final String YARN_CLUSTER = "__default_yarn_cluster__";

    final Path work;
    final InetAddress hostAddress;
    final String nodeName;
    private final List<AutoCloseable> parts = new ArrayList<>();
    private KubeApiServer api;
    private KubeletNode node;
    private KubeControlPlane plane;
    private LocalZooKeeper zk;
    private MiniYarn yarn;
    private KubernetesClient client;

    private RealCluster(Path work) throws IOException {
        this.work = work;
        this.hostAddress = HostAddress.primary();
        // The name a NodeManager on this host registers under (YARN's NodeId is the canonical host name), as on a cluster
        // whose DNS names each node as the kubelet does: the broker then matches the two by host name.
        this.nodeName = InetAddress.getLocalHost().getCanonicalHostName().toLowerCase(Locale.ROOT);
    }

    /** Starts everything, the images of {@code images} (dev/build-images.sh's directory) imported. */
    static RealCluster start(Path work, Path images) throws Exception {
        RealCluster cluster = new RealCluster(work);
        try {
            cluster.launch(images);
        } catch (Exception | Error e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    private void launch(Path images) throws Exception {
        api = owned(KubeApiServer.startReachableFromPods(work.resolve("api"), hostAddress.getHostAddress()));
        client = owned(api.newClient());
        node = owned(KubeletNode.start(work.resolve("node"), api, nodeName));
        for (String image : List.of("colocation", "colocation-nodemanager")) {
            try (var archives = Files.list(images)) {
                Path archive = archives.filter(p -> p.getFileName().toString().startsWith(image + "-")
                        && p.getFileName().toString().matches(java.util.regex.Pattern.quote(image) + "-\\d.*\\.oci\\.tar")).findFirst()
                        .orElseThrow(() -> new IOException("no " + image + "-<version>.oci.tar in " + images + ": run dev/build-images.sh"));
                node.importImage(archive, "colocation.local/" + image);
            }
        }
        plane = owned(KubeControlPlane.start(work.resolve("control-plane"), api, nodeName));
        zk = owned(new LocalZooKeeper(hostAddress));
        yarn = owned(MiniYarn.builder("e2e").nodeManagers(0).mapReduce(false)
                .set("yarn.resourcemanager.scheduler.monitor.enable", "true")
                .set("yarn.resourcemanager.scheduler.monitor.policies", BatchGrantEditPolicy.class.getName())
                .set("colocation.yarn.zookeeper.connect", zk.connectString())
                .set("colocation.yarn.zookeeper.root", YARN_ROOT)
                .set("colocation.yarn.cluster-id", YARN_CLUSTER)
                .set("colocation.yarn.plugin.interval-ms", "500")
                .set("colocation.yarn.report.refresh-ms", "2000")
                .configDir(Files.createDirectories(work.resolve("yarn-conf"))).start());
    }

    private <T extends AutoCloseable> T owned(T part) {
        parts.add(part);
        return part;
    }

    KubernetesClient client() {
        return client;
    }

    KubeApiServer api() {
        return api;
    }

    LocalZooKeeper zooKeeper() {
        return zk;
    }

    MiniYarn yarn() {
        return yarn;
    }

    /** The ResourceManager's host and its client, scheduler and resource-tracker ports, as a NodeManager's yarn-site asks. */
    String resourceManagerAddress(String key) {
        return yarn.config().get(key);
    }

    /** Copies every log this cluster and its pods wrote (the kubelet's /var/log/pods included) under {@code dir}. */
    void keepLogs(Path dir) throws IOException {
        Files.createDirectories(dir);
        for (String part : List.of("api", "node", "control-plane")) {
            Path from = work.resolve(part);
            if (!Files.isDirectory(from)) {
                continue;
            }
            try (var logs = Files.list(from)) {
                for (Path log : logs.filter(p -> p.getFileName().toString().endsWith(".log")).toList()) {
                    Files.copy(log, dir.resolve(part + "-" + log.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        Path pods = Path.of("/var/log/pods");
        if (Files.isDirectory(pods)) {
            try (var files = Files.walk(pods)) {
                for (Path log : files.filter(Files::isRegularFile).toList()) {
                    Path to = dir.resolve("pods").resolve(pods.relativize(log).toString());
                    Files.createDirectories(to.getParent());
                    Files.copy(log, to, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    @Override
    public void close() {
        for (int i = parts.size() - 1; i >= 0; i--) {
            try {
                parts.get(i).close();
            } catch (Exception e) {
                System.err.println("e2e: could not stop " + parts.get(i).getClass().getSimpleName() + ": " + e);
            }
        }
        parts.clear();
        // what is left of the work directory: the NodeManager's local and staging directories, the overlay
        try (var paths = Files.walk(work)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            System.err.println("e2e: could not delete " + work + ": " + e);
        }
    }
}
