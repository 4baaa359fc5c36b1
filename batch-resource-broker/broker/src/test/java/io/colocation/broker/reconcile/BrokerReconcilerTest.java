package io.colocation.broker.reconcile;

import io.colocation.broker.decision.NodeDecision;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.api.KoordinatorKeys;
import io.colocation.broker.arbitration.ArbitrationSettings;
import io.colocation.broker.arbitration.GrantPolicy;
import io.colocation.testsupport.ManualClock;
import io.colocation.broker.fakes.FakeCluster;
import io.colocation.broker.fakes.FakeKubernetesSide;
import io.colocation.broker.fakes.InMemoryYarnSide;
import io.colocation.broker.ledger.Ledger;
import io.colocation.broker.ledger.NodeLedger;
import io.colocation.broker.yarn.LeaderEpoch;
import io.colocation.broker.yarn.Leadership;
import io.colocation.model.Resources;
import io.colocation.model.node.YarnRelease;
import io.colocation.model.node.YarnReleaseResource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The pass's orchestration with both sides in memory (the real-system tests are in {@code service}): what is
 * written where, what is frozen, what a standby and a quiet pass do.
 */
class BrokerReconcilerTest {
    private final FakeCluster cluster = new FakeCluster();
    private final FakeKubernetesSide kubernetes = new FakeKubernetesSide();
    private final InMemoryYarnSide yarn = new InMemoryYarnSide("c", List.of("h1:8041", "h2:8041"));
    private final AtomicBoolean leading = new AtomicBoolean(true);
    private final Leadership leadership = () -> leading.get() ? Optional.of(new LeaderEpoch.Fence(1, 1)) : Optional.empty();
    private final Ledger ledger = new Ledger();
    private BrokerReconciler reconciler;

    @BeforeEach
    void cluster() {
        for (String n : List.of("n1", "n2")) {
            cluster.node(n, 16, 64, Map.of());
            cluster.nodeManager(n, "h" + n.substring(1) + ":8041", "c");
            cluster.metric(n, 4000, 16, Instant.now());
        }
        reconciler = new BrokerReconciler(cluster, kubernetes, Map.of("c", yarn), leadership, ArbitrationSettings.defaults(), false, 2,
                ledger, Clock.systemUTC(), Duration.ofHours(1), 500, null);
    }

    @AfterEach
    void close() {
        reconciler.close();
    }

    private NodeLedger ledger(String node) {
        return ledger.get(node).orElseThrow();
    }

    private void passes(int n) {
        for (int i = 0; i < n; i++) {
            reconciler.reconcileAll();
        }
    }

    @Test
    void bothSidesArePublishedWithinOrigin() {
        passes(3);
        NodeLedger l = ledger("n1");
        assertEquals(5600, l.origin().cpuMilli(), "16 cores x 60 % - 4 cores");
        assertTrue(l.kubernetesGrant().cpuMilli() > 0 && l.yarnGrant().cpuMilli() > 0, l.toString());
        assertTrue(l.kubernetesGrant().plus(l.yarnGrant()).cpuMilli() <= l.origin().cpuMilli(), l.toString());
        assertEquals(l.kubernetesGrant(), kubernetes.written.get("n1").batch());
        assertEquals(l.yarnGrant().cpuMilli(), yarn.grant("h1:8041").orElseThrow().vcores() * 1000L);
    }

    @Test
    void yarnGrowsIntoAKubernetesShrinkOnlyOnceBindingsDecidedOnTheOldGrantHadTimeToLand() throws Exception {
        passes(3);
        assertEquals(2800, ledger("n1").kubernetesGrant().cpuMilli(), "nobody wants anything: origin 5600 split by the weights");
        yarn.use("h1:8041", 3, 3072); // YARN wants more than its half: Kubernetes' grant shrinks, YARN's grows
        passes(3);
        NodeLedger shrunk = ledger("n1");
        assertEquals(1300, shrunk.kubernetesGrant().cpuMilli(), shrunk.toString());
        assertEquals(2, yarn.grant("h1:8041").orElseThrow().vcores(), "YARN still counts on Kubernetes' earlier 2800");
        assertTrue(yarn.grant("h1:8041").orElseThrow().keepVcores() >= 3, "below its use of 3, which is kept from preemption");
        Thread.sleep(ArbitrationSettings.DEFAULT_KUBERNETES_SHRINK_SETTLE.toMillis() + 100);
        passes(2);
        NodeLedger settled = ledger("n1");
        assertEquals(4, yarn.grant("h1:8041").orElseThrow().vcores(), "grown into the shrink once it settled: " + settled);
        assertTrue(settled.kubernetesGrant().plus(settled.yarnGrant()).cpuMilli() <= settled.origin().cpuMilli(), settled.toString());
    }

    @Test
    void aQuietPassWritesNothing() {
        passes(3);
        int writes = kubernetes.writes.get();
        long version = yarn.grant("h1:8041").orElseThrow().version();
        passes(2);
        assertEquals(writes, kubernetes.writes.get());
        assertEquals(version, yarn.grant("h1:8041").orElseThrow().version());
    }

    @Test
    void aNodeWithAnInvalidInputIsFrozenAloneAndResumesWhenFixed() {
        passes(3);
        NodeLedger before = ledger("n2");
        cluster.annotate("n2", KoordinatorKeys.ANNOTATION_THIRD_PARTY_ALLOCATIONS, "{\"allocations\": 7}");
        cluster.metric("n1", 1000, 8, Instant.now());
        cluster.metric("n2", 1000, 8, Instant.now());
        passes(3);
        NodeLedger frozen = ledger("n2");
        assertTrue(frozen.degradedReason().startsWith("frozen: "), frozen.degradedReason());
        assertEquals(before.kubernetesGrant(), frozen.kubernetesGrant(), "its grants stay as they were");
        assertEquals(before.kubernetesGrant(), kubernetes.written.get("n2").batch());
        assertEquals(List.of("n2"), List.copyOf(reconciler.nodeFaults().keySet()));
        assertEquals(1, kubernetes.events.stream().filter(e -> e.startsWith("n2 BatchInputInvalid")).count(), "one Event per cause: " + kubernetes.events);
        assertEquals(8600, ledger("n1").origin().cpuMilli(), "the other node follows its new NodeMetric");
        assertNull(ledger("n1").degradedReason());

        cluster.annotate("n2", KoordinatorKeys.ANNOTATION_THIRD_PARTY_ALLOCATIONS, "{\"allocations\": []}");
        passes(2);
        assertNull(ledger("n2").degradedReason());
        assertEquals(8600, ledger("n2").origin().cpuMilli());
        assertTrue(reconciler.nodeFaults().isEmpty());
    }

    @Test
    void whenOriginStaysBelowUseYarnsGrantShrinksBelowItsUseButADrainedNodeTakesNothingBack() {
        ManualClock clock = new ManualClock(Instant.now());
        reconciler.close();
        ArbitrationSettings takeBackCpu = new ArbitrationSettings(GrantPolicy.PARTITIONED, 1, 1, 0.1,
                ArbitrationSettings.DEFAULT_TAKE_BACK_AFTER, true, Duration.ZERO);
        reconciler = new BrokerReconciler(cluster, kubernetes, Map.of("c", yarn), leadership, takeBackCpu, false, 2,
                ledger, clock, Duration.ofHours(1), 500, null);
        passes(3);
        yarn.use("h1:8041", 2, 2048);
        yarn.use("h2:8041", 2, 2048);
        passes(2);
        cluster.annotate("n2", NodeDecision.ANNOTATION_DRAIN_BATCH, "true");
        // online load rose on both nodes: origin 16 x 60 % - 9 = 0.6 cores, below YARN's 2
        cluster.metric("n1", 9000, 16, clock.instant());
        cluster.metric("n2", 9000, 16, clock.instant());
        passes(3);
        NodeLedger fallen = ledger("n1");
        assertEquals(600, fallen.origin().cpuMilli());
        assertEquals(0, yarn.grant("h1:8041").orElseThrow().vcores(), "below its use at once: YARN places nothing more there");
        assertEquals(2, yarn.grant("h1:8041").orElseThrow().keepVcores(), "kept from preemption until the excess lasts takeBackAfter");
        assertEquals(1400, fallen.excess().cpuMilli());
        clock.advance(ArbitrationSettings.DEFAULT_TAKE_BACK_AFTER);
        cluster.metric("n1", 9000, 16, clock.instant());
        cluster.metric("n2", 9000, 16, clock.instant());
        passes(2);
        fallen = ledger("n1");
        assertEquals(0, yarn.grant("h1:8041").orElseThrow().vcores(), "shrunk below the 2 vcores in use: the RM preempts");
        assertEquals(0, yarn.grant("h1:8041").orElseThrow().keepVcores(), "nothing kept any more");
        assertEquals(1400, fallen.excess().cpuMilli());
        NodeLedger drained = ledger("n2");
        assertTrue(drained.drained());
        assertEquals(2, yarn.grant("h2:8041").orElseThrow().vcores(), "a drained node's grant is held at use");
        assertEquals(0, drained.excess().cpuMilli());
    }

    @Test
    void aKoordletReleaseHoldsYarnAtItsLimitUntilItExpiresAndAMalformedOneIsNamed() throws Exception {
        passes(3);
        yarn.use("h1:8041", 3, 3072);
        passes(2);
        Thread.sleep(ArbitrationSettings.DEFAULT_KUBERNETES_SHRINK_SETTLE.toMillis() + 100); // Kubernetes' shrink settles
        passes(2);
        long before = yarn.grant("h1:8041").orElseThrow().vcores();
        assertTrue(before >= 3, "YARN's grant covers its use: " + before);
        long kubernetesBefore = ledger("n1").kubernetesGrant().cpuMilli();
        Instant expires = Instant.now().plusSeconds(60);
        cluster.release("n1", YarnReleaseResource.of("n1", new YarnRelease(new Resources(1000, 1L << 30), expires, "BECPUEvict: test",
                List.of("container_1_0001_01_000002"))));
        passes(2);
        assertEquals(1, yarn.grant("h1:8041").orElseThrow().vcores(), "held at the koordlet's limit, below the 3 in use");
        assertEquals(1024, yarn.grant("h1:8041").orElseThrow().memoryMB());
        assertEquals(kubernetesBefore, ledger("n1").kubernetesGrant().cpuMilli(), "Kubernetes gets none of the released room");
        assertTrue(ledger("n1").explain().stream().anyMatch(l -> l.startsWith("YARN: the koordlet asks YARN down to 1000m/1024Mi until "
                + expires + " (BECPUEvict: test; its victims container_1_0001_01_000002)")), ledger("n1").explain().toString());

        cluster.release("n1", YarnReleaseResource.of("n1", new YarnRelease(new Resources(1000, 1L << 30), Instant.now().minusSeconds(1),
                "BECPUEvict: test", List.of())));
        passes(3);
        assertEquals(before, yarn.grant("h1:8041").orElseThrow().vcores(), "an expired release holds nothing");

        YarnReleaseResource malformed = new YarnReleaseResource();
        malformed.getMetadata().setName("n1");
        malformed.setSpec(new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode().put("limit", 3));
        cluster.release("n1", malformed);
        passes(2);
        assertEquals(before, yarn.grant("h1:8041").orElseThrow().vcores());
        assertTrue(ledger("n1").explain().contains("ignored YarnRelease n1: spec: limit must give cpu and memory"),
                ledger("n1").explain().toString());
    }

    @Test
    void anUnreadableNodeMetricDegradesTheNodeWithItsReason() {
        cluster.unreadableMetric("n2", "NodeMetric n2: status.nodeMetric.nodeUsage.resources.cpu: quantity \"1e-2147483648\" has an"
                + " exponent outside ±100");
        passes(2);
        NodeLedger l = ledger("n2");
        assertTrue(l.degraded());
        assertEquals(0, l.origin().cpuMilli());
        assertTrue(l.degradedReason().contains("exponent outside"), l.degradedReason());
        assertEquals(5600, ledger("n1").origin().cpuMilli());
    }

    @Test
    void aFailingWriteIsInTheLedgerAndRetriedNextPass() {
        kubernetes.failing.add("n1");
        passes(2);
        NodeLedger l = ledger("n1");
        assertNotNull(l.lastKubernetesPublication().error(), l.toString());
        assertTrue(l.lastKubernetesPublication().error().contains("refused the status of Node n1"));
        kubernetes.failing.clear();
        passes(2);
        assertNull(ledger("n1").lastKubernetesPublication().error());
        assertNotNull(kubernetes.written.get("n1"));
    }

    @Test
    void aStandbyComputesTheLedgerButWritesNothing() {
        leading.set(false);
        passes(2);
        assertEquals(5600, ledger("n1").origin().cpuMilli());
        assertEquals(0, kubernetes.writes.get());
        assertTrue(yarn.grant("h1:8041").isEmpty());
    }

    @Test
    void anIncrementalPassDecidesOnlyTheNodesWhoseInputsChanged() {
        passes(3);
        NodeLedger quiet = ledger("n2");
        cluster.metric("n1", 1000, 8, Instant.now());
        BrokerReconciler.PassReport report = reconciler.reconcileAll();
        assertEquals(1, report.nodes(), "only n1 changed");
        assertEquals(8600, ledger("n1").origin().cpuMilli());
        assertEquals(quiet, ledger("n2"), "n2 keeps its ledger");
        settle();
        yarn.use("h2:8041", 1, 1024);
        assertEquals(1, reconciler.reconcileAll().nodes(), "YARN's use moved on n2");
        assertEquals(1000, ledger("n2").yarnUsed().cpuMilli());
        settle();
        assertEquals(0, reconciler.reconcileAll().nodes(), "nothing changed");
        reconciler.forgetPublications();
        assertEquals(2, reconciler.reconcileAll().nodes(), "a resync decides every node");
    }

    @Test
    void thePeriodicFullPassIsTakenASliceAtATimeAndAChangeDoesNotWaitBehindIt() {
        ManualClock clock = new ManualClock(Instant.now());
        reconciler.close();
        reconciler = new BrokerReconciler(cluster, kubernetes, Map.of("c", yarn), leadership, ArbitrationSettings.defaults(), false, 2,
                ledger, clock, Duration.ofSeconds(1), 1, null);
        settle();
        long fullPasses = reconciler.stats().fullPasses.get();
        clock.advance(Duration.ofSeconds(2));
        BrokerReconciler.PassReport first = reconciler.reconcileAll();
        assertEquals(1, first.nodes(), "the full pass's first slice: one node of two");
        assertTrue(first.sweeping(), "a node is left for the next pass");
        assertEquals(fullPasses, reconciler.stats().fullPasses.get());

        cluster.metric("n1", 1000, 8, clock.instant());
        BrokerReconciler.PassReport second = reconciler.reconcileAll();
        assertTrue(second.nodes() >= 1 && second.nodes() <= 2, "what changed and the last slice: " + second);
        assertEquals(8600, ledger("n1").origin().cpuMilli(), "the change is decided in the next pass");
        assertFalse(second.sweeping());
        assertEquals(fullPasses + 1, reconciler.stats().fullPasses.get(), "every node decided: the full pass is done");
        settle();
        assertEquals(0, reconciler.reconcileAll().nodes(), "the next full pass is a second away");
    }

    /** Passes until one decides nothing: YARN applying a new grant is itself a change the next pass sees. */
    private void settle() {
        for (int i = 0; i < 5 && reconciler.reconcileAll().nodes() > 0; i++) {
            assertTrue(i < 4, "the pass does not settle");
        }
    }
}
