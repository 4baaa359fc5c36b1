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
import org.junit.jupiter.api.Test;
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
class KoordletOnRealNodeTest {
    private static final String NODE = "koordlet-real-node";
    private static final String NS = "real-node";
    private static final Path BE_QUOTA = Path.of("/sys/fs/cgroup/cpu/kubepods/besteffort/cpu.cfs_quota_us");

    @TempDir
    Path tmp;

    @Test
    void theKoordletHoldsARealBePodToItsQuotaAndEvictsIt(KubernetesClient client, KubeApiServer api) throws Exception {
        io.colocation.testsupport.kube.RealNodes.assumeAvailable("KoordletOnRealNodeTest");
        assumeTrue(Files.isDirectory(Path.of("/sys/fs/cgroup/cpu")), "the quota is read on cgroup v1's cpu hierarchy");
        ColocationObjects.installNodeMetricCrd(client, Path.of("../conf/kubernetes/crds/slo.koordinator.sh_nodemetrics.yaml"));
        ColocationObjects.installCrd(client, Path.of("../conf/kubernetes/crds/slo.koordinator.sh_nodeslos.yaml"),
                "slo.koordinator.sh/v1alpha1", "NodeSLO");
        ColocationObjects.namespace(client, NS);
        try (KubeletNode node = KubeletNode.start(tmp.resolve("node"), api, NODE)) {
            client.resource(client.getKubernetesSerialization().unmarshal("""
                    apiVersion: slo.koordinator.sh/v1alpha1
                    kind: NodeSLO
                    metadata: {name: %s}
                    spec:
                      resourceUsedThresholdWithBE: {enable: true, cpuSuppressThresholdPercent: 80, cpuSuppressPolicy: cfsQuota,
                                                    memoryEvictThresholdPercent: 99}
                    """.formatted(NODE), GenericKubernetesResource.class)).create();
            run(client, "online", "LS", List.of("/burner", "1", "0"), Map.of("cpu", new Quantity("500m")));
            run(client, "batch", "BE", List.of("/burner", "2", "256"), Map.of());
            long bePid = pid("/burner 2 256");

            KoordletConfig config = new KoordletConfig();
            config.nodeName = NODE;
            config.kubernetes.kubeconfig = api.kubeconfig().toString();
            config.yarn.copilotUrl = "";
            config.status.port = 0;
            config.prediction.checkpointDir = tmp.resolve("checkpoints").toString();
            config.qos.featureGates = "BEMemoryEvict=true";
            try (KoordletCommand.Running koordlet = KoordletCommand.start(config, Clock.systemUTC())) {
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
                client.genericKubernetesResources("slo.koordinator.sh/v1alpha1", "NodeSLO").withName(NODE).edit(slo -> {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> spec = (Map<String, Object>) slo.getAdditionalProperties().get("spec");
                    @SuppressWarnings("unchecked")
                    Map<String, Object> thresholds = (Map<String, Object>) spec.get("resourceUsedThresholdWithBE");
                    thresholds.put("memoryEvictThresholdPercent", 3);
                    return slo;
                });
                Await.until(Duration.ofSeconds(60), () -> client.pods().inNamespace(NS).withName("batch").get() == null
                        && ProcessHandle.of(bePid).isEmpty());
                assertTrue(client.pods().inNamespace(NS).withName("online").get() != null, "the online pod stays");
                List<Event> evictions = client.v1().events().inNamespace(NS).list().getItems().stream()
                        .filter(e -> "batch".equals(e.getInvolvedObject().getName()) && e.getMessage().contains("BEMemoryEvict")).toList();
                assertEquals(1, evictions.size(), "one Event says why: " + evictions);
            }
        }
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

    private static long pid(String commandLine) {
        return ProcessHandle.allProcesses().filter(p -> p.info().commandLine().map(commandLine::equals).orElse(false))
                .mapToLong(ProcessHandle::pid).findFirst().orElseThrow(() -> new AssertionError("no process " + commandLine));
    }

    private static long quota() {
        try {
            return Long.parseLong(Files.readString(BE_QUOTA).trim());
        } catch (java.io.IOException | NumberFormatException e) {
            return -1;
        }
    }
}
