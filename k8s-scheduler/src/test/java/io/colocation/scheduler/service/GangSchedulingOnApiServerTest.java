package io.colocation.scheduler.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.scheduler.cli.K8sSchedulerCommand;
import io.colocation.testsupport.Await;
import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.testsupport.kube.KubeApiServerExtension;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Gangs on a real kube-apiserver: with Koordinator's annotations, a gang that cannot be placed whole binds nothing and
 * says why on every member, and binds all together once it fits, and a gang waits until minMember members exist; with
 * a PodGroup and its label, the members are bound together.
 */
@ExtendWith(KubeApiServerExtension.class)
class GangSchedulingOnApiServerTest {
    private static final String NS = "k8s-scheduler-gang";
    private static SchedulerService service;

    @AfterAll
    static void stop(KubernetesClient client) {
        if (service != null) {
            service.close();
        }
        // pods first: without a controller manager a deleted namespace keeps them, pending, for the next test's scheduler
        client.pods().inNamespace(NS).withGracePeriod(0).delete();
        client.namespaces().withName(NS).delete();
        client.nodes().withName("gang-node").delete();
    }

    private static Map<String, Quantity> withBatchCpu(String milli) {
        return Map.of("cpu", new Quantity("8"), "memory", new Quantity("32Gi"), "pods", new Quantity("110"),
                "kubernetes.io/batch-cpu", new Quantity(milli));
    }

    private static void batchCpu(KubernetesClient client, String milli) {
        Map<String, Quantity> resources = withBatchCpu(milli);
        client.nodes().withName("gang-node").editStatus(n -> new NodeBuilder(n).editStatus().withCapacity(resources)
                .withAllocatable(resources).endStatus().build());
    }

    private static void member(KubernetesClient client, String gang, String min, String name) {
        member(client, Map.of("gang.scheduling.koordinator.sh/name", gang, "gang.scheduling.koordinator.sh/min-available", min),
                name);
    }

    private static void member(KubernetesClient client, Map<String, String> gangAnnotations, String name) {
        client.pods().inNamespace(NS).resource(new PodBuilder().withNewMetadata().withName(name).withNamespace(NS)
                .addToLabels("koordinator.sh/priority-class", "koord-batch")
                .addToAnnotations(gangAnnotations)
                .endMetadata().withNewSpec().withSchedulerName("koord-scheduler").addNewContainer().withName("c").withImage("x")
                .withNewResources().withRequests(Map.of("kubernetes.io/batch-cpu", new Quantity("2000"))).endResources()
                .endContainer().endSpec().build()).create();
    }

    private static boolean bound(KubernetesClient client, String name) {
        Pod p = client.pods().inNamespace(NS).withName(name).get();
        return p != null && p.getSpec().getNodeName() != null;
    }

    private static List<String> failures(KubernetesClient client, String pod) {
        return client.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> "FailedScheduling".equals(e.getReason()) && pod.equals(e.getInvolvedObject().getName()))
                .map(e -> e.getMessage()).toList();
    }

    @Test
    void allOrNothing(KubernetesClient client) throws Exception {
        ColocationObjects.namespace(client, NS);
        ColocationObjects.readyNode(client, "gang-node", withBatchCpu("5000"));
        SchedulerSettings config = new SchedulerSettings();
        config.leaderElection.enabled = false;
        config.backoffInitialSeconds = 0.2;
        config.backoffMaxSeconds = 1;
        service = new SchedulerService(config, h -> K8sSchedulerCommand.profile(config, h), client, "gang-test", Clock.systemUTC());
        service.start();

        // 3 × 2 cores on 5 cores: two fit and wait at Permit, the third fits nowhere, and the gang (Strict) lets the
        // two waiting go at once: nothing is bound.
        List<String> spark = List.of("spark-0", "spark-1", "spark-2");
        spark.forEach(p -> member(client, "spark", "3", p));
        Await.until(Duration.ofSeconds(30), () -> spark.stream().flatMap(p -> failures(client, p).stream())
                .filter(m -> m.startsWith("gang " + NS + "/spark gets rejected: member " + NS + "/spark-")).count() >= 2);
        assertTrue(spark.stream().flatMap(p -> failures(client, p).stream())
                .anyMatch(m -> m.contains("is unschedulable: 0/1 nodes are available: 1 Insufficient kubernetes.io/batch-cpu.")),
                "the waiting members say which member found no room");
        assertTrue(spark.stream().noneMatch(p -> bound(client, p)), "a gang that does not fit binds nothing");

        // Room for all three: bound together on a later try.
        batchCpu(client, "8000");
        Await.until(Duration.ofSeconds(30), () -> spark.stream().allMatch(p -> bound(client, p)));

        // A gang of two with one member waits for the second.
        member(client, "pair", "2", "pair-0");
        Await.until(Duration.ofSeconds(30), () -> !failures(client, "pair-0").isEmpty());
        assertEquals("gang " + NS + "/pair: 1 of its 2 members exist; waiting for the rest", failures(client, "pair-0").get(0));
        assertTrue(!bound(client, "pair-0"));
        batchCpu(client, "12000");
        member(client, "pair", "2", "pair-1");
        Await.until(Duration.ofSeconds(30), () -> bound(client, "pair-0") && bound(client, "pair-1"));

        // A PodGroup (scheduling.sigs.k8s.io) and members labelled with it.
        ColocationObjects.installCrd(client, Path.of("../conf/kubernetes/crds/scheduling.sigs.k8s.io_podgroups.yaml"),
                "scheduling.sigs.k8s.io/v1alpha1", "PodGroup");
        client.genericKubernetesResources("scheduling.sigs.k8s.io/v1alpha1", "PodGroup").inNamespace(NS)
                .resource(new GenericKubernetesResourceBuilder().withApiVersion("scheduling.sigs.k8s.io/v1alpha1").withKind("PodGroup")
                        .withNewMetadata().withName("etl").withNamespace(NS).endMetadata()
                        .addToAdditionalProperties("spec", Map.of("minMember", 2)).build()).create();
        batchCpu(client, "16000");
        for (String p : List.of("etl-0", "etl-1")) {
            client.pods().inNamespace(NS).resource(new PodBuilder().withNewMetadata().withName(p).withNamespace(NS)
                    .addToLabels(Map.of("koordinator.sh/priority-class", "koord-batch", "pod-group.scheduling.sigs.k8s.io", "etl"))
                    .endMetadata().withNewSpec().withSchedulerName("koord-scheduler").addNewContainer().withName("c").withImage("x")
                    .withNewResources().withRequests(Map.of("kubernetes.io/batch-cpu", new Quantity("1000"))).endResources()
                    .endContainer().endSpec().build()).create();
        }
        Await.until(Duration.ofSeconds(30), () -> bound(client, "etl-0") && bound(client, "etl-1"));
        // The leader keeps the PodGroup's status: both members bound (no kubelet runs them here).
        Await.until(Duration.ofSeconds(15), () -> "Scheduled".equals(podGroupStatus(client, "etl").get("phase")));
        assertEquals(2, podGroupStatus(client, "etl").get("scheduled"));
        assertTrue(podGroupStatus(client, "etl").get("scheduleStartTime") instanceof String, "set when scheduling began");

        // NonStrict with a 2 s waiting time: the two members that fit hold their room (4 cores free: 2 × 2) while the
        // third cannot be placed, then let it go when their time runs out; a pod that needs that room gets it then.
        Map<String, String> hold = Map.of("gang.scheduling.koordinator.sh/name", "hold",
                "gang.scheduling.koordinator.sh/min-available", "3", "gang.scheduling.koordinator.sh/mode", "NonStrict",
                "gang.scheduling.koordinator.sh/waiting-time", "2s");
        List<String> holders = List.of("hold-0", "hold-1", "hold-2");
        holders.forEach(p -> member(client, hold, p));
        Await.until(Duration.ofSeconds(30), () -> service.counts().get("waiting") == 2);
        client.pods().inNamespace(NS).resource(new PodBuilder().withNewMetadata().withName("probe").withNamespace(NS)
                .addToLabels("koordinator.sh/priority-class", "koord-batch").endMetadata().withNewSpec()
                .withSchedulerName("koord-scheduler").addNewContainer().withName("c").withImage("x").withNewResources()
                .withRequests(Map.of("kubernetes.io/batch-cpu", new Quantity("1000"))).endResources().endContainer().endSpec()
                .build()).create();
        Await.until(Duration.ofSeconds(30), () -> bound(client, "probe"));
        assertTrue(holders.stream().flatMap(p -> failures(client, p).stream()).anyMatch(m -> m.equals(
                "not permitted within its waiting time (Coscheduling: gang " + NS + "/hold: 2 of the 3 members it needs are placed)")),
                "the holders' wait ran out: " + holders.stream().flatMap(p -> failures(client, p).stream()).toList());
        assertTrue(holders.stream().noneMatch(p -> bound(client, p)), "a NonStrict gang that does not fit binds nothing either");

        // A gang group (gang.scheduling.koordinator.sh/groups): the driver's gang waits for the executors' gang.
        batchCpu(client, "64000");
        String group = "[\"" + NS + "/driver\",\"" + NS + "/executors\"]";
        member(client, Map.of("gang.scheduling.koordinator.sh/name", "driver", "gang.scheduling.koordinator.sh/min-available",
                "1", "gang.scheduling.koordinator.sh/groups", group), "driver-0");
        Await.until(Duration.ofSeconds(30), () -> !failures(client, "driver-0").isEmpty());
        assertEquals("gang group " + NS + "/driver," + NS + "/executors: gang " + NS + "/executors has no members yet",
                failures(client, "driver-0").get(0));
        for (String p : List.of("executor-0", "executor-1")) {
            member(client, Map.of("gang.scheduling.koordinator.sh/name", "executors",
                    "gang.scheduling.koordinator.sh/min-available", "2", "gang.scheduling.koordinator.sh/groups", group), p);
        }
        Await.until(Duration.ofSeconds(30), () -> List.of("driver-0", "executor-0", "executor-1").stream()
                .allMatch(p -> bound(client, p)));
    }

    private static Map<String, Object> podGroupStatus(KubernetesClient client, String name) {
        GenericKubernetesResource pg = client.genericKubernetesResources("scheduling.sigs.k8s.io/v1alpha1", "PodGroup")
                .inNamespace(NS).withName(name).get();
        Object status = pg == null ? null : pg.getAdditionalProperties().get("status");
        @SuppressWarnings("unchecked")
        Map<String, Object> map = status instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
        return map;
    }
}
