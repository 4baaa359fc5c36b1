package io.colocation.koordlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.colocation.koordlet.cli.KoordletCommand;
import io.colocation.koordlet.collect.ProcessCpuTime;
import io.colocation.koordlet.config.KoordletConfig;
import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.localclusters.kube.KubeApiServer;
import io.colocation.localclusters.kube.KubeletNode;
import io.colocation.testsupport.Await;
import io.colocation.testsupport.kube.KubeApiServerExtension;
import io.colocation.testsupport.kube.RealNodes;
import io.colocation.testsupport.yarn.JobResult;
import io.colocation.copilot.YarnCopilotAuxService;
import io.colocation.copilot.api.CopilotApi;
import io.colocation.localclusters.yarn.MiniYarn;
import io.colocation.localclusters.yarn.SleepJobs;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.ContainerManagerImpl;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The koordlet on a real node: a real kubelet runs an online pod burning one core and a BE pod burning two and holding
 * 256 MiB. The koordlet finds both pods' cgroups in the kubelet's own layout, suppresses the BE tier (cfsQuota policy:
 * the BE process is measured held to the quota it wrote on {@code kubepods/besteffort}), and, when the NodeSLO's
 * memory threshold drops below the node's use, evicts the BE pod through the Eviction API; the kubelet really stops
 * its process. Skipped, with the reason, where the host cannot run a kubelet ({@link KubeletNode#unavailable}).
 */
@ExtendWith(KubeApiServerExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KoordletOnRealNodeTest {
    private static final String NODE = "koordlet-real-node";
    private static final String NS = "real-node";
    private static final java.util.regex.Pattern YARN_TIER = java.util.regex.Pattern.compile(
            ":/kubepods/besteffort/hadoop-yarn/(container_[0-9_]+)");
    private static final Path BE_QUOTA = Path.of("/sys/fs/cgroup/cpu/kubepods/besteffort/cpu.cfs_quota_us");

    @TempDir
    static Path tmp;
    private static KubeletNode node;

    @BeforeAll
    static void start(KubernetesClient client, KubeApiServer api) throws Exception {
        RealNodes.assumeAvailable("KoordletOnRealNodeTest");
        assumeTrue(Files.isDirectory(Path.of("/sys/fs/cgroup/cpu")), "the quota is read on cgroup v1's cpu hierarchy");
        ColocationObjects.installNodeMetricCrd(client, Path.of("../conf/kubernetes/crds/slo.koordinator.sh_nodemetrics.yaml"));
        ColocationObjects.installCrd(client, Path.of("../conf/kubernetes/crds/slo.koordinator.sh_nodeslos.yaml"),
                "slo.koordinator.sh/v1alpha1", "NodeSLO");
        ColocationObjects.namespace(client, NS);
        node = KubeletNode.start(tmp.resolve("node"), api, NODE);
    }

    @AfterAll
    static void stop() {
        if (node != null) {
            node.close();
        }
    }

    private static KoordletConfig koordlet(KubeApiServer api, String checkpoints) {
        KoordletConfig config = new KoordletConfig();
        config.nodeName = NODE;
        config.kubernetes.kubeconfig = api.kubeconfig().toString();
        config.yarn.copilotUrl = "";
        config.status.port = 0;
        config.prediction.checkpointDir = tmp.resolve(checkpoints).toString();
        config.qos.featureGates = "BEMemoryEvict=true";
        return config;
    }

    @Test
    @Order(1)
    void theKoordletHoldsARealBePodToItsQuotaAndEvictsIt(KubernetesClient client, KubeApiServer api) throws Exception {
        nodeSlo(client, 99);
        run(client, "online", "LS", List.of("/burner", "1", "0"), Map.of("cpu", new Quantity("500m")));
        run(client, "batch", "BE", List.of("/burner", "2", "256"), Map.of());
        long bePid = pid("/burner 2 256");

        try (KoordletAssembly.Running koordlet = KoordletCommand.start(koordlet(api, "checkpoints-1"), Clock.systemUTC())) {
            // Suppressed: the koordlet wrote a quota on the kubelet's besteffort cgroup, below the two cores asked.
            Await.until(Duration.ofSeconds(30), () -> quota() > 0 && quota() < 150_000);
            // The quota follows the online pod's use second by second: compare with its average over the window.
            long ticks0 = ProcessCpuTime.ticks(bePid);
            long t0 = System.nanoTime();
            double quotaSum = 0;
            int samples = 0;
            while (System.nanoTime() - t0 < 4_000_000_000L) {
                quotaSum += quota();
                samples++;
                Thread.sleep(50);
            }
            double cores = (ProcessCpuTime.ticks(bePid) - ticks0) * 10_000_000.0 / (System.nanoTime() - t0);
            double allowed = quotaSum / samples / 100_000.0;
            System.out.printf("real node: BE process %.3f cores under an average quota of %.3f cores%n", cores, allowed);
            assertTrue(cores <= allowed * 1.2 + 0.05, "BE process used " + cores + " cores; quota " + allowed + " cores on average");
            assertTrue(allowed < 1.5, "suppressed below the 2 cores the BE process would burn: " + allowed);

            // Evicted: the memory threshold drops below what the node uses.
            nodeSlo(client, 3);
            Await.until(Duration.ofSeconds(60), () -> client.pods().inNamespace(NS).withName("batch").get() == null
                    && ProcessHandle.of(bePid).isEmpty());
            assertTrue(client.pods().inNamespace(NS).withName("online").get() != null, "the online pod stays");
            List<Event> evictions = client.v1().events().inNamespace(NS).list().getItems().stream()
                    .filter(e -> "batch".equals(e.getInvolvedObject().getName()) && e.getMessage().contains("BEMemoryEvict")).toList();
            assertEquals(1, evictions.size(), "one Event says why: " + evictions);
        }
    }

    /**
     * A YARN NodeManager beside the kubelet on the same host (MiniYARNCluster with the copilot; DefaultContainerExecutor,
     * so YARN puts its containers in no cgroup): the koordlet places each running container's processes under the real
     * kubelet's BE tier ({@code kubepods/besteffort/hadoop-yarn/<container>}), where the tier's quota holds them with
     * the BE pods, and the job succeeds.
     */
    @Test
    @Order(2)
    void yarnContainersBesideTheKubeletRunInItsBestEffortTier(KubernetesClient client, KubeApiServer api, @TempDir Path work)
            throws Exception {
        nodeSlo(client, 99);
        try (MiniYarn yarn = MiniYarn.builder("real-node-yarn").nodeManagers(1).nodeSize(4096, 4)
                .auxService(CopilotApi.AUX_SERVICE_NAME, YarnCopilotAuxService.class).set(CopilotApi.CONF_PORT, "0")
                .set(CopilotApi.CONF_REFRESH_MS, "200").start()) {
            ContainerManagerImpl cm = (ContainerManagerImpl) yarn.cluster().getNodeManager(0).getNMContext().getContainerManager();
            String copilot = StandardCharsets.UTF_8.decode(cm.getAuxServiceMetaData().get(CopilotApi.AUX_SERVICE_NAME)).toString();
            KoordletConfig config = koordlet(api, "checkpoints-2");
            config.yarn.copilotUrl = "http://" + copilot;
            config.yarn.nodeManagerUsers = List.of(System.getProperty("user.name"));
            try (KoordletAssembly.Running koordlet = KoordletCommand.start(config, Clock.systemUTC())) {
                Job job = SleepJobs.submit(yarn.config(), 2, 8_000, work);
                // The ApplicationMaster's container and at least one map's.
                Await.until(Duration.ofSeconds(90), () -> containersInYarnTier().size() >= 2);
                JobResult result = JobResult.await(yarn, job, Duration.ofMinutes(3));
                assertTrue(result.succeeded(), "the MapReduce job succeeded: " + result);
            }
        }
    }

    /** CPU suppress with the cfsQuota policy at 80 %, BEMemoryEvict at {@code memoryEvictPercent}. */
    private static void nodeSlo(KubernetesClient client, int memoryEvictPercent) {
        client.resource(client.getKubernetesSerialization().unmarshal("""
                apiVersion: slo.koordinator.sh/v1alpha1
                kind: NodeSLO
                metadata: {name: %s}
                spec:
                  resourceUsedThresholdWithBE: {enable: true, cpuSuppressThresholdPercent: 80, cpuSuppressPolicy: cfsQuota,
                                                memoryEvictThresholdPercent: %d}
                """.formatted(NODE, memoryEvictPercent), GenericKubernetesResource.class)).createOr(op -> op.update());
    }

    /** The YARN containers whose processes sit under the kubelet's besteffort cgroup now. */
    private static java.util.Set<String> containersInYarnTier() {
        java.util.Set<String> containers = new java.util.TreeSet<>();
        ProcessHandle.allProcesses().forEach(p -> {
            try {
                java.util.regex.Matcher m = YARN_TIER.matcher(Files.readString(Path.of("/proc/" + p.pid() + "/cgroup")));
                if (m.find()) {
                    containers.add(m.group(1));
                }
            } catch (java.io.IOException gone) {
                // the process ended meanwhile
            }
        });
        return containers;
    }

    private static void run(KubernetesClient client, String name, String qos, List<String> command, Map<String, Quantity> requests)
            throws Exception {
        client.pods().inNamespace(NS).resource(new PodBuilder().withNewMetadata().withName(name).withNamespace(NS)
                .addToLabels("koordinator.sh/qosClass", qos).endMetadata().withNewSpec().withNodeName(NODE)
                .withTerminationGracePeriodSeconds(1L).addNewContainer().withName(name).withImage(KubeletNode.IMAGE)
                .withImagePullPolicy("Never").withCommand(command).withNewResources().addToRequests(requests).endResources()
                .endContainer().endSpec().build()).create();
        Await.until(Duration.ofSeconds(60), () -> {
            Pod p = client.pods().inNamespace(NS).withName(name).get();
            return p != null && "Running".equals(p.getStatus().getPhase());
        });
    }

    /**
     * The container's process: awaited, since a pod is Running once runc has started its container, which may still be
     * runc's init a moment before it executes the command (a lookup right away found nothing, 1 run in CI).
     */
    private static long pid(String commandLine) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            java.util.OptionalLong pid = ProcessHandle.allProcesses().filter(p -> p.info().commandLine().map(commandLine::equals).orElse(false))
                    .mapToLong(ProcessHandle::pid).findFirst();
            if (pid.isPresent()) {
                return pid.getAsLong();
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no process " + commandLine + " within 10 s of its pod running");
            }
            Thread.sleep(100);
        }
    }

    private static long quota() {
        try {
            return Long.parseLong(Files.readString(BE_QUOTA).trim());
        } catch (java.io.IOException | NumberFormatException e) {
            return -1;
        }
    }
}
