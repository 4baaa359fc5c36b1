package io.colocation.scheduler.plugins.coscheduling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.api.PriorityClass;
import io.colocation.scheduler.framework.ClusterSnapshot;
import io.colocation.scheduler.framework.CycleState;
import io.colocation.scheduler.framework.Handle;
import io.colocation.scheduler.framework.PermitPlugin.Permit;
import io.colocation.scheduler.framework.PodInfo;
import io.colocation.scheduler.framework.Status;
import io.colocation.scheduler.framework.WaitingPods;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** Coscheduling's decisions at PreFilter, Permit, PostFilter and Unreserve, on a cluster the test describes. */
class CoschedulingTest {
    /** The scheduler's side as the plugin sees it: pods, assumptions, PodGroups and the pods waiting at Permit. */
    private static final class Cluster implements Handle, WaitingPods {
        @Override
        public void watchPods(PodListener listener) {
            // Coscheduling reads its pods through its index, not events
        }

        @Override
        public ElasticQuotas elasticQuotas() {
            throw new UnsupportedOperationException("Coscheduling reads no ElasticQuota");
        }

        final List<Pod> pods = new ArrayList<>();
        final Set<String> assumed = new HashSet<>();
        final Map<String, GenericKubernetesResource> podGroups = new HashMap<>();
        final Map<String, PodInfo> waiting = new LinkedHashMap<>();
        final List<String> allowed = new ArrayList<>();
        final Map<String, String> rejected = new LinkedHashMap<>();

        @Override
        public KubernetesClient client() {
            throw new UnsupportedOperationException("Coscheduling writes nothing");
        }

        @Override
        public boolean writeToken() {
            throw new UnsupportedOperationException("Coscheduling writes nothing");
        }

        @Override
        public PodIndex podIndex(String name, Function<Pod, String> keyOf) {
            return key -> pods.stream().filter(p -> key.equals(keyOf.apply(p))).toList();
        }

        @Override
        public boolean assumed(String podKey) {
            return assumed.contains(podKey);
        }

        @Override
        public GenericKubernetesResource podGroup(String namespace, String name) {
            return podGroups.get(namespace + "/" + name);
        }

        @Override
        public WaitingPods waitingPods() {
            return this;
        }

        @Override
        public List<Waiting> list() {
            return waiting.values().stream().map(p -> new Waiting(p, "node-1")).toList();
        }

        @Override
        public boolean allow(String podKey) {
            allowed.add(podKey);
            return waiting.remove(podKey) != null;
        }

        @Override
        public boolean reject(String podKey, String reason) {
            rejected.put(podKey, reason);
            return waiting.remove(podKey) != null;
        }

        Pod member(String name, Map<String, String> annotations) {
            Pod p = new PodBuilder().withNewMetadata().withName(name).withNamespace("ns").withAnnotations(annotations)
                    .endMetadata().withNewSpec().endSpec().build();
            pods.add(p);
            return p;
        }

        Pod bound(String name, Map<String, String> annotations) {
            Pod p = member(name, annotations);
            p.getSpec().setNodeName("node-1");
            return p;
        }

        /** Reserved and waiting at Permit, as the service leaves a pod the plugin told to wait. */
        void waits(Pod p) {
            assumed.add("ns/" + p.getMetadata().getName());
            waiting.put("ns/" + p.getMetadata().getName(), info(p));
        }
    }

    private final Cluster cluster = new Cluster();
    private final Coscheduling plugin = new Coscheduling(CoschedulingArgs.DEFAULTS, cluster);

    private static PodInfo info(Pod p) {
        return new PodInfo(p, "ns/" + p.getMetadata().getName(), PriorityClass.BATCH, Map.of(), Map.of(), Instant.EPOCH, null);
    }

    private static CycleState cycle() {
        return new CycleState(new ClusterSnapshot(List.of(), Instant.EPOCH));
    }

    private static Map<String, String> gang(String min, String... more) {
        Map<String, String> a = new HashMap<>(Map.of(Gang.ANNOTATION_NAME, "spark", Gang.ANNOTATION_MIN_AVAILABLE, min));
        for (int i = 0; i < more.length; i += 2) {
            a.put(Gang.PREFIX + more[i], more[i + 1]);
        }
        return a;
    }

    /** What the service does for a pod: reserve it (assume) and ask Permit. */
    private Permit permit(Pod p) {
        cluster.assumed.add("ns/" + p.getMetadata().getName());
        return plugin.permit(cycle(), info(p), "node-1");
    }

    @Test
    void aPodWithoutAGangPassesEveryPoint() {
        Pod p = cluster.member("alone", Map.of());
        assertEquals(Status.SUCCESS, plugin.preFilter(cycle(), info(p)));
        assertEquals(Permit.ALLOW, permit(p));
    }

    @Test
    void preFilterWaitsForEnoughMembersAndRejectsUnusableGangs() {
        Pod first = cluster.member("spark-0", gang("2"));
        assertEquals(List.of("gang ns/spark: 1 of its 2 members exist; waiting for the rest"),
                plugin.preFilter(cycle(), info(first)).reasons());
        cluster.member("spark-1", gang("2"));
        assertTrue(plugin.preFilter(cycle(), info(first)).success());

        Pod bad = cluster.member("bad", Map.of(Gang.ANNOTATION_NAME, "x", Gang.ANNOTATION_MIN_AVAILABLE, "two"));
        assertEquals(List.of("gang: annotation gang.scheduling.koordinator.sh/min-available must be a positive integer, found 'two'"),
                plugin.preFilter(cycle(), info(bad)).reasons());
        Pod labelled = new PodBuilder().withNewMetadata().withName("etl-0").withNamespace("ns")
                .addToLabels(Gang.LABEL_POD_GROUP, "etl").endMetadata().withNewSpec().endSpec().build();
        cluster.pods.add(labelled);
        assertEquals(List.of("gang: PodGroup ns/etl does not exist (yet)"), plugin.preFilter(cycle(), info(labelled)).reasons());
    }

    @Test
    void membersWaitUntilEnoughArePlacedThenGoTogether() {
        Pod a = cluster.member("spark-0", gang("3", "waiting-time", "30s"));
        Pod b = cluster.member("spark-1", gang("3", "waiting-time", "30s"));
        Pod c = cluster.member("spark-2", gang("3", "waiting-time", "30s"));
        Permit first = permit(a);
        assertTrue(first.waiting());
        assertEquals(Duration.ofSeconds(30), first.timeout(), "the gang's waiting-time");
        assertEquals("gang ns/spark: 1 of the 3 members it needs are placed", first.waitingFor());
        cluster.waits(a);
        assertTrue(permit(b).waiting());
        cluster.waits(b);
        assertEquals(Permit.ALLOW, permit(c), "the third completes the gang");
        assertEquals(List.of("ns/spark-0", "ns/spark-1"), cluster.allowed, "and lets the waiting ones go on");
    }

    @Test
    void theWaitingTimeDefaultsToTheArgsAndPodGroupsSetTheirOwn() {
        Pod a = cluster.member("spark-0", gang("2", "waiting-time", "0s"));
        cluster.member("spark-1", gang("2"));
        assertEquals(Duration.ofSeconds(600), permit(a).timeout(), "0 → defaultTimeout");

        cluster.podGroups.put("ns/etl", new GenericKubernetesResourceBuilder().withApiVersion("scheduling.sigs.k8s.io/v1alpha1")
                .withKind("PodGroup").withNewMetadata().withName("etl").withNamespace("ns").endMetadata()
                .addToAdditionalProperties("spec", Map.of("minMember", 2, "scheduleTimeoutSeconds", 45)).build());
        Pod e = new PodBuilder().withNewMetadata().withName("etl-0").withNamespace("ns")
                .addToLabels(Gang.LABEL_POD_GROUP, "etl").endMetadata().withNewSpec().endSpec().build();
        cluster.pods.add(e);
        assertEquals(Duration.ofSeconds(45), permit(e).timeout());
    }

    @Test
    void matchPolicies() {
        // once-satisfied (default): a member already bound means the gang was satisfied; the next goes at once.
        cluster.bound("spark-0", gang("2"));
        Pod late = cluster.member("spark-1", gang("2"));
        assertEquals(Permit.ALLOW, permit(late));
        assertTrue(plugin.preFilter(cycle(), info(late)).success());

        // only-waiting: bound members do not count.
        Cluster other = new Cluster();
        Coscheduling strictCount = new Coscheduling(CoschedulingArgs.DEFAULTS, other);
        other.bound("spark-0", gang("2", "match-policy", "only-waiting"));
        Pod p = other.member("spark-1", gang("2", "match-policy", "only-waiting"));
        other.assumed.add("ns/spark-1");
        assertTrue(strictCount.permit(cycle(), info(p), "node-1").waiting());

        // waiting-and-running: bound + waiting.
        Cluster third = new Cluster();
        Coscheduling sum = new Coscheduling(CoschedulingArgs.DEFAULTS, third);
        third.bound("spark-0", gang("3", "match-policy", "waiting-and-running"));
        Pod w = third.member("spark-1", gang("3", "match-policy", "waiting-and-running"));
        third.waits(w);
        Pod last = third.member("spark-2", gang("3", "match-policy", "waiting-and-running"));
        third.assumed.add("ns/spark-2");
        assertEquals(Permit.ALLOW, sum.permit(cycle(), info(last), "node-1"));
        assertEquals(List.of("ns/spark-1"), third.allowed);
    }

    @Test
    void aStrictGangLetsItsWaitingMembersGoWhenOneFindsNoNode() {
        Pod a = cluster.member("spark-0", gang("3"));
        Pod b = cluster.member("spark-1", gang("3"));
        Pod c = cluster.member("spark-2", gang("3"));
        cluster.waits(a);
        cluster.waits(b);
        plugin.postFilter(cycle(), info(c), "0/1 nodes are available: 1 Insufficient kubernetes.io/batch-cpu.");
        assertEquals(Map.of(
                "ns/spark-0", "gang ns/spark gets rejected: member ns/spark-2 is unschedulable: 0/1 nodes are available: 1 Insufficient kubernetes.io/batch-cpu.",
                "ns/spark-1", "gang ns/spark gets rejected: member ns/spark-2 is unschedulable: 0/1 nodes are available: 1 Insufficient kubernetes.io/batch-cpu."),
                cluster.rejected);
    }

    @Test
    void aNonStrictGangKeepsThemWaiting() {
        Pod a = cluster.member("spark-0", gang("3", "mode", "NonStrict"));
        Pod c = cluster.member("spark-1", gang("3", "mode", "NonStrict"));
        cluster.member("spark-2", gang("3", "mode", "NonStrict"));
        cluster.waits(a);
        plugin.postFilter(cycle(), info(c), "no room");
        plugin.unreserve(cycle(), info(c), "node-1");
        assertTrue(cluster.rejected.isEmpty());
        assertFalse(cluster.waiting.isEmpty());
    }

    @Test
    void aStrictMemberGivingUpItsPlaceReleasesTheOthers() {
        Pod a = cluster.member("spark-0", gang("2"));
        Pod b = cluster.member("spark-1", gang("2"));
        cluster.waits(a);
        plugin.unreserve(cycle(), info(b), "node-1");
        assertEquals(Map.of("ns/spark-0", "gang ns/spark gets rejected: member ns/spark-1 gave up its place on node-1"),
                cluster.rejected);
    }

    private static Map<String, String> grouped(String name, String min) {
        return Map.of(Gang.ANNOTATION_NAME, name, Gang.ANNOTATION_MIN_AVAILABLE, min, Gang.ANNOTATION_GROUPS, "[\"ns/a\",\"ns/b\"]");
    }

    @Test
    void aGangGroupWaitsForEveryGangAndGoesTogether() {
        Pod a0 = cluster.member("a-0", grouped("a", "2"));
        Pod a1 = cluster.member("a-1", grouped("a", "2"));
        assertEquals(List.of("gang group ns/a,ns/b: gang ns/b has no members yet"), plugin.preFilter(cycle(), info(a0)).reasons());
        Pod b0 = cluster.member("b-0", grouped("b", "1"));
        assertEquals(Status.SUCCESS, plugin.preFilter(cycle(), info(a0)));

        assertEquals("gang ns/a: 1 of the 2 members it needs are placed", permit(a0).waitingFor());
        cluster.waits(a0);
        assertEquals("gang ns/b: 0 of the 1 members it needs are placed", permit(a1).waitingFor(),
                "gang a is complete, its group is not");
        cluster.waits(a1);
        assertEquals(Permit.ALLOW, permit(b0), "the last gang of the group completes it");
        assertEquals(List.of("ns/a-0", "ns/a-1"), cluster.allowed, "every waiting member of the group goes on");
    }

    @Test
    void aStrictMemberThatFailsReleasesTheWholeGroup() {
        Pod a0 = cluster.member("a-0", grouped("a", "1"));
        Pod b0 = cluster.member("b-0", grouped("b", "2"));
        cluster.member("b-1", grouped("b", "2"));
        assertTrue(permit(a0).waiting());
        cluster.waits(a0);
        plugin.postFilter(cycle(), info(b0), "0/1 nodes are available");
        assertEquals(Map.of("ns/a-0", "gang ns/a gets rejected: member ns/b-0 is unschedulable: 0/1 nodes are available"),
                cluster.rejected);
    }

    @Test
    void unreadableGroupsMeanTheGangAlone() throws Exception {
        Pod p = cluster.member("x-0", Map.of(Gang.ANNOTATION_NAME, "x", Gang.ANNOTATION_MIN_AVAILABLE, "1",
                Gang.ANNOTATION_GROUPS, "not json"));
        assertEquals(List.of("ns/x"), Gang.of(p, (ns, n) -> null).orElseThrow().group());
        assertEquals(Permit.ALLOW, permit(p));
    }
}
