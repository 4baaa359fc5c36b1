package io.colocation.scheduler.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.scheduler.cli.K8sSchedulerCommand;
import io.colocation.scheduler.framework.FilterPlugin;
import io.colocation.scheduler.framework.Profile;
import io.colocation.scheduler.framework.Status;
import io.colocation.testsupport.Await;
import io.colocation.testsupport.kube.KubeApiServerExtension;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One bad object never stops the scheduler, and its Events do not flood the API server: a NodeMetric with a wrongly
 * typed field or an unreadable time makes only its node unusable (a second replica still starts), a plugin that throws
 * backs its pod off and it is tried again, and 2,000 pods that fit nowhere leave one Event each, repeats counted on it.
 */
@ExtendWith(KubeApiServerExtension.class)
class SchedulerBadInputsOnApiServerTest {
    private static final String NS = "k8s-scheduler-bad";
    private static final String OWNER = "scheduler-bad-test";
    private final List<SchedulerService> services = new ArrayList<>();

    @BeforeAll
    static void crd(KubernetesClient client) throws Exception {
        ColocationObjects.installNodeMetricCrd(client, Path.of("../conf/kubernetes/crds/slo.koordinator.sh_nodemetrics.yaml"));
    }

    @AfterEach
    void stop(KubernetesClient client) {
        services.forEach(SchedulerService::close);
        for (String n : List.of("ok-node", "garbage-node", "badtime-node", "storm-node")) {
            client.nodes().withName(n).delete();
        }
        client.pods().inNamespace(NS).withGracePeriod(0).delete();
        ColocationObjects.cleanUp(client, OWNER, NS);
    }

    private static void node(KubernetesClient client, String name, String batchCpu) {
        ColocationObjects.readyNode(client, name, Map.of("cpu", new Quantity("16"), "memory", new Quantity("64Gi"),
                "pods", new Quantity("3000"), "kubernetes.io/batch-cpu", new Quantity(batchCpu),
                "kubernetes.io/batch-memory", new Quantity("32Gi")));
    }

    private static void batchPod(KubernetesClient client, String name, String batchCpu) {
        client.pods().inNamespace(NS).resource(new PodBuilder().withNewMetadata().withName(name).withNamespace(NS)
                .addToLabels("koordinator.sh/priority-class", "koord-batch").endMetadata()
                .withNewSpec().withSchedulerName("koord-scheduler").addNewContainer().withName("c").withImage("x")
                .withNewResources().withRequests(Map.of("kubernetes.io/batch-cpu", new Quantity(batchCpu))).endResources()
                .endContainer().endSpec().build()).create();
    }

    private static String nodeOf(KubernetesClient client, String pod) {
        Pod p = client.pods().inNamespace(NS).withName(pod).get();
        return p == null ? null : p.getSpec().getNodeName();
    }

    private static List<Event> failed(KubernetesClient client, String pod) {
        return client.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> "FailedScheduling".equals(e.getReason()) && pod.equals(e.getInvolvedObject().getName())).toList();
    }

    /** A NodeMetric written as a broken writer would: {@code status} as given, whatever its shape (through /status). */
    private static void rawNodeMetric(KubernetesClient client, String node, Map<String, Object> status) {
        var metrics = client.genericKubernetesResources("slo.koordinator.sh/v1alpha1", "NodeMetric");
        var created = metrics.resource(new GenericKubernetesResourceBuilder()
                .withApiVersion("slo.koordinator.sh/v1alpha1").withKind("NodeMetric")
                .withNewMetadata().withName(node).addToLabels(ColocationObjects.OWNER_LABEL, OWNER).endMetadata()
                .addToAdditionalProperties("spec", Map.of()).build()).create();
        created.setAdditionalProperty("status", status);
        metrics.resource(created).updateStatus();
    }

    private SchedulerService start(KubernetesClient client, String identity, SchedulerService.ProfileFactory profiles) throws Exception {
        SchedulerSettings config = new SchedulerSettings();
        config.leaderElection.leaseNamespace = NS;
        config.backoffInitialSeconds = 0.2;
        config.backoffMaxSeconds = 1;
        SchedulerService s = new SchedulerService(config, profiles == null ? h -> K8sSchedulerCommand.profile(config, h) : profiles,
                client, identity, Clock.systemUTC());
        services.add(s);
        s.start();
        return s;
    }

    @Test
    void aBrokenNodeMetricMakesOnlyItsNodeUnusableAndASecondReplicaStillStarts(KubernetesClient client) throws Exception {
        ColocationObjects.namespace(client, NS);
        node(client, "ok-node", "2000");
        node(client, "garbage-node", "16000");
        node(client, "badtime-node", "16000");
        rawNodeMetric(client, "badtime-node", Map.of("updateTime", "yesterday"));
        rawNodeMetric(client, "garbage-node", Map.of("updateTime", java.time.Instant.now().toString(), "podsMetric", "garbage"));

        SchedulerService first = start(client, "replica-a", null);
        Await.until(Duration.ofSeconds(30), first::leading);
        // The informer's first list comes from the API server's watch cache, which may trail the writes above by a few
        // milliseconds; its watch then brings them in order. The garbage metric, written last, seen: both are.
        Await.until(Duration.ofSeconds(10), () -> first.unreadableNodeMetrics().containsKey("garbage-node"));
        batchPod(client, "small", "1000");
        batchPod(client, "big", "8000");
        Await.until(Duration.ofSeconds(30), () -> "ok-node".equals(nodeOf(client, "small")));
        String expected = "0/3 nodes are available: 1 Insufficient kubernetes.io/batch-cpu, 2 node(s) nodeMetric unreadable.";
        try {
            Await.until(Duration.ofSeconds(30), () -> failed(client, "big").stream().anyMatch(e -> e.getMessage().equals(expected)));
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError(expected + " never came; the pod was told: " + failed(client, "big").stream().map(Event::getMessage)
                    .toList(), e);
        }
        assertNull(nodeOf(client, "big"));
        assertTrue(first.unreadableNodeMetrics().get("garbage-node").contains("status.podsMetric"), first.unreadableNodeMetrics().toString());
        assertNull(first.notReady(), "one bad object does not make the scheduler unready");

        SchedulerService second = start(client, "replica-b", null);
        assertFalse(second.leading(), "the second replica started while the broken object exists, as a follower");
        assertNull(second.notLive());

        // Mended by its writer: the big pod goes to a node whose metric is readable again, on its next try.
        ColocationObjects.nodeMetric(client, "garbage-node", OWNER, 1000, 1L << 30, java.time.Instant.now());
        Await.until(Duration.ofSeconds(30), () -> "garbage-node".equals(nodeOf(client, "big")));
        assertTrue(first.unreadableNodeMetrics().keySet().stream().noneMatch(k -> k.equals("garbage-node")));
    }

    @Test
    void aPodWhoseAttemptThrowsIsBackedOffToldWhyAndTriedAgain(KubernetesClient client) throws Exception {
        ColocationObjects.namespace(client, NS);
        node(client, "ok-node", "4000");
        AtomicInteger calls = new AtomicInteger();
        FilterPlugin flaky = new FilterPlugin() {
            @Override
            public String name() {
                return "Flaky";
            }

            @Override
            public Status filter(io.colocation.scheduler.framework.CycleState state, io.colocation.scheduler.framework.PodInfo pod,
                    io.colocation.scheduler.framework.NodeInfo node) {
                if (pod.key().equals(NS + "/unlucky") && calls.incrementAndGet() <= 2) {
                    throw new IllegalStateException("a plugin bug");
                }
                return Status.SUCCESS;
            }
        };
        SchedulerSettings config = new SchedulerSettings();
        SchedulerService s = start(client, "replica-flaky", h -> {
            Profile p = K8sSchedulerCommand.profile(config, h);
            List<FilterPlugin> filters = new ArrayList<>(p.filters());
            filters.add(flaky);
            return new Profile(p.schedulerName(), p.queueSort(), p.preFilters(), filters, p.postFilters(), p.scores(), p.reserves(),
                    p.permits(), p.binds(), p.percentageOfNodesToScore());
        });
        Await.until(Duration.ofSeconds(30), s::leading);
        batchPod(client, "unlucky", "1000");
        Await.until(Duration.ofSeconds(30), () -> "ok-node".equals(nodeOf(client, "unlucky")));
        assertEquals(2L, s.counts().get("errors"));
        Await.until(Duration.ofSeconds(10), () -> failed(client, "unlucky").stream().anyMatch(e -> e.getMessage().startsWith(
                "the scheduler failed on this pod (java.lang.IllegalStateException: a plugin bug); it will try again")));
    }

    @Test
    void twoThousandPodsThatFitNowhereAreTriedOnceUntilTheyChangeAndLeaveOneEventEach(KubernetesClient client) throws Exception {
        ColocationObjects.namespace(client, NS);
        node(client, "storm-node", "1000");
        int pods = 2000;
        ExecutorService creators = Executors.newFixedThreadPool(8);
        List<Future<?>> created = new ArrayList<>();
        for (int i = 0; i < pods; i++) {
            String name = "storm-" + i;
            created.add(creators.submit(() -> batchPod(client, name, "900000"))); // 900 cores: no node anywhere has them
        }
        for (Future<?> f : created) {
            f.get();
        }
        SchedulerService s = start(client, "replica-storm", null);
        Await.until(Duration.ofSeconds(30), s::leading);
        Await.until(Duration.ofSeconds(60), () -> s.counts().get("unschedulable") >= pods);
        Thread.sleep(3_000); // several backoffs (0.2 s doubling to 1 s): nothing changed, so no pod is searched again
        long once = s.counts().get("unschedulable");
        assertTrue(once < pods + pods / 20, once + " unschedulable attempts for " + pods + " pods and no change");

        int relabelled = 100; // a pod whose labels changed may fit now: it is tried again
        created.clear();
        for (int i = 0; i < relabelled; i++) {
            String name = "storm-" + i;
            created.add(creators.submit(() -> client.pods().inNamespace(NS).withName(name).patch(PatchContext.of(PatchType.JSON_MERGE),
                    "{\"metadata\":{\"labels\":{\"retry\":\"yes\"}}}"))); // as kubectl label: no resourceVersion
        }
        for (Future<?> f : created) {
            f.get();
        }
        creators.shutdown();
        Await.until(Duration.ofSeconds(30), () -> s.counts().get("unschedulable") >= once + relabelled);
        Thread.sleep(35_000); // the repeats' counts are written every 30 s
        List<Event> events = client.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> "FailedScheduling".equals(e.getReason()) && e.getInvolvedObject().getName().startsWith("storm-")).toList();
        long attempts = s.counts().get("unschedulable");
        assertTrue(events.size() <= pods, events.size() + " Events for " + pods + " pods and " + attempts + " unschedulable attempts");
        assertTrue(events.stream().mapToInt(e -> e.getCount() == null ? 1 : e.getCount()).max().orElse(0) > 1,
                "repeats are counted on the Event");
        assertTrue(events.stream().allMatch(e -> e.getMessage().contains("Insufficient kubernetes.io/batch-cpu")),
                events.stream().map(Event::getMessage).distinct().toList().toString());
    }
}
