package io.colocation.broker.decision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.api.yarn.YarnGrant;
import io.colocation.broker.arbitration.ArbitrationSettings;
import io.colocation.broker.calculation.NodeCalculation;
import io.colocation.broker.calculation.NodeCalculationMemo;
import io.colocation.broker.calculation.NodeMetricState;
import io.colocation.model.Resources;
import io.colocation.model.config.ColocationConfig;
import io.colocation.model.config.ColocationConfigParser;
import io.colocation.model.node.YarnRelease;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link NodeDecision} as a pure function: one row per rule, facts in, decided work out. */
class NodeDecisionTest {
    private static final Instant NOW = Instant.parse("2026-11-24T10:00:00Z");
    private static final long GI = 1L << 30;
    private static final ArbitrationSettings PARTITIONED = ArbitrationSettings.defaults();
    private static final NodeManagerIdentity.NodeManager NM = new NodeManagerIdentity.NodeManager("prod", "n1:8041", "Pod yarn/nm");
    private static final String INVALID = "Node n1: status.capacity.cpu: \"lots\" is not a Kubernetes quantity";

    /** A 16-core node; {@code readable} false gives it a capacity that is not a quantity. */
    private static Node node(Map<String, String> annotations, boolean readable) {
        Map<String, Quantity> r = Map.of("cpu", new Quantity(readable ? "16" : "lots"), "memory", new Quantity("64Gi"));
        return new NodeBuilder().withNewMetadata().withName("n1").withResourceVersion("1").withAnnotations(annotations).endMetadata()
                .withNewStatus().withCapacity(r).withAllocatable(r).endStatus().build();
    }

    /** A healthy 16-core node, 4 cores and 16 GiB used, no NodeManager; each row changes what it tests. */
    private static NodeFacts facts(Node node, UnaryOperator<NodeFacts> change) {
        ColocationConfig config;
        try {
            config = ColocationConfigParser.parse("{\"enable\": true}", "test");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        NodeCalculation.Metric metric = NodeCalculation.Metric.of(new NodeMetricState(NOW.minusSeconds(30),
                new Resources(4000, 16 * GI), new Resources(4000, 16 * GI), List.of(), List.of(), null));
        NodeCalculation.Outcome outcome = NodeCalculation.calculate(config, node, List.of(), metric, NOW);
        NodeCalculationMemo.Facts calculation = new NodeCalculationMemo.Facts(outcome, Resources.ZERO, null, null, List.of());
        return change.apply(new NodeFacts("n1", node, metric, calculation, new NodeManagerIdentity.Resolution(null, null), null,
                KoordletRelease.NONE, null, null, new NodeFacts.InForce(null, null, null, null), new NodeFacts.Pass(null, Resources.ZERO,
                        true, NOW)));
    }

    private static NodeFacts with(NodeFacts f, InputFault prior, YarnFacts yarn, Resources yarnGranted, NodeManagerIdentity.Resolution nm) {
        return with(f, prior, yarn, yarnGranted, nm, null);
    }

    private static NodeFacts with(NodeFacts f, InputFault prior, YarnFacts yarn, Resources yarnGranted, NodeManagerIdentity.Resolution nm,
            java.time.Instant excessSince) {
        return new NodeFacts(f.name(), f.node(), f.metric(), f.calculation(), nm, yarn, f.release(), prior, excessSince,
                new NodeFacts.InForce(f.inForce().batch(), f.inForce().mid(), yarnGranted, f.inForce().batchSettlingFrom()), f.pass());
    }

    private static YarnFacts yarn(Resources used) {
        return yarn(used, used, null);
    }

    private static YarnFacts yarn(Resources used, Resources applied, Resources unconfirmed) {
        return new YarnFacts("prod", "n1:8041", used, applied, unconfirmed, true, Resources.ZERO,
                new YarnGrant("n1:8041", 1, 1, 8, 32768, NOW.toEpochMilli()));
    }

    private static Arguments row(String name, NodeFacts facts, Consumer<NodeWork> check) {
        return Arguments.of(name, facts, check);
    }

    static Stream<Arguments> rules() {
        Node healthy = node(Map.of(), true);
        Node broken = node(Map.of(), false);
        KoordletRelease release = new KoordletRelease(new YarnRelease(new Resources(1000, GI), NOW.plusSeconds(60), "BECPUEvict",
                List.of()), null);
        KoordletRelease ignored = new KoordletRelease(null, "ignored YarnRelease n1: it carries no colocation.io/yarn-release-proof");
        NodeManagerIdentity.Resolution withNm = new NodeManagerIdentity.Resolution(NM, null);
        return Stream.of(
                row("no usable config: frozen, reported by the config's own check", facts(healthy, f -> new NodeFacts(f.name(), f.node(),
                        null, null, f.nodeManager(), null, KoordletRelease.NONE, null, null, new NodeFacts.InForce(new Resources(1, 1), null,
                                null, null), new NodeFacts.Pass("ConfigMap broken", f.pass().kubernetesDemand(), true, NOW))), w -> {
                            assertEquals("ConfigMap broken", w.frozen());
                            assertNull(w.handover().report());
                            assertEquals(new Resources(1, 1), w.currentBatch());
                        }),
                row("unreadable input, first seen: frozen and reported", facts(broken, f -> f), w -> {
                    assertTrue(w.frozen().startsWith("Node n1: status.capacity"), w.frozen());
                    assertEquals(NOW, w.handover().fault().since());
                    assertEquals("BatchInputInvalid", w.handover().report().reason());
                    assertTrue(w.frozen().contains("degradeTimeMinutes"), w.frozen());
                }),
                row("unreadable input past degradeTimeMinutes: Batch removed", facts(broken,
                        f -> with(f, new InputFault(f.calculation().outcome().invalidInput(), NOW.minus(Duration.ofMinutes(16))), null, null,
                                f.nodeManager())), w -> {
                            assertNull(w.frozen());
                            assertEquals(Resources.ZERO, w.basis().origin());
                            assertTrue(w.basis().reclaim().allocatable().isEmpty());
                            assertTrue(w.degradedReason().startsWith("input invalid since"), w.degradedReason());
                        }),
                row("a fault whose input is fixed is cleared", facts(healthy,
                        f -> with(f, new InputFault(INVALID, NOW.minusSeconds(60)), null, null, f.nodeManager())), w -> {
                            assertNull(w.handover().fault());
                            assertTrue(w.explain().contains("the input that froze this node is fixed"));
                            assertTrue(w.basis().origin().cpuMilli() > 0);
                        }),
                row("drained: origin counts as 0", facts(node(Map.of(NodeDecision.ANNOTATION_DRAIN_BATCH, "true"), true), f -> f), w -> {
                    assertTrue(w.basis().drained());
                    assertEquals(Resources.ZERO, w.basis().origin());
                    assertEquals(Resources.ZERO, w.decision().kubernetesPublish());
                }),
                row("a NodeManager of a cluster not configured: Kubernetes only", facts(healthy,
                        f -> with(f, null, null, null, withNm)), w -> {
                            assertTrue(w.explain().stream().anyMatch(l -> l.contains("not configured for (yarn.clusters)")));
                            assertEquals(w.basis().origin(), w.decision().kubernetesPublish());
                        }),
                row("YARN never granted: Kubernetes does not count on origin yet", facts(healthy,
                        f -> with(f, null, yarn(Resources.ZERO), null, withNm)), w -> {
                            assertTrue(w.explain().stream().anyMatch(l -> l.contains("no grant yet")));
                            assertEquals(Resources.ZERO, w.decision().kubernetesPublish());
                        }),
                row("a grow then a shrink, neither confirmed: Kubernetes leaves YARN the grow's room, YARN may still enforce it",
                        facts(healthy, f -> with(f, null, yarn(Resources.ZERO, Resources.ZERO, new Resources(5000, 4 * GI)),
                                new Resources(1000, GI), withNm)), w -> {
                            assertEquals(w.basis().origin().cpuMilli() - 5000, w.decision().kubernetesPublish().cpuMilli(), w.decision().toString());
                            assertTrue(w.explain().stream().anyMatch(l -> l.contains("may still be in force, up to")), w.explain().toString());
                        }),
                row("YARN's use above origin, just now: no new room, YARN keeps its use from preemption", facts(healthy,
                        f -> with(f, null, yarn(new Resources(9000, 8 * GI)), new Resources(9000, 8 * GI), withNm)), w -> {
                            assertEquals(NOW, w.handover().excessSince());
                            assertEquals(w.basis().origin().cpuMilli(), w.decision().yarnPublish().cpuMilli(), w.decision().toString());
                            assertEquals(9000, w.decision().yarnKeep().cpuMilli(), w.decision().toString());
                            assertEquals(0, w.decision().kubernetesPublish().cpuMilli(), w.decision().toString());
                            assertTrue(w.explain().stream().anyMatch(l -> l.contains("held until it has lasted takeBackAfterSeconds")));
                        }),
                row("YARN's use above origin for longer than takeBackAfter: its memory taken back, its CPU left to the koordlet",
                        facts(healthy, f -> with(f, null, yarn(new Resources(9000, 40 * GI)), new Resources(9000, 40 * GI), withNm,
                                NOW.minus(Duration.ofMinutes(6)))), w -> {
                            assertEquals(NOW.minus(Duration.ofMinutes(6)), w.handover().excessSince());
                            assertEquals(w.basis().origin().memoryBytes(), w.decision().yarnTarget().memoryBytes(), "memory shrinks to origin");
                            assertTrue(w.decision().yarnPublish().memoryBytes() < 40 * GI, w.decision().toString());
                            assertEquals(9000, w.decision().yarnKeep().cpuMilli(), "CPU kept from preemption (takeBackCpu false)");
                            assertEquals(0, w.decision().yarnKeep().memoryBytes(), "memory not kept");
                        }),
                row("use back within origin: the excess clock stops", facts(healthy,
                        f -> with(f, null, yarn(new Resources(1000, GI)), new Resources(2000, 2 * GI), withNm,
                                NOW.minus(Duration.ofMinutes(6)))), w -> assertNull(w.handover().excessSince())),
                row("the koordlet's YarnRelease holds YARN at its limit", facts(healthy,
                        f -> released(with(f, null, yarn(new Resources(4000, 8 * GI)), new Resources(8000, 32 * GI), withNm), release)),
                        w -> {
                            Resources limit = new Resources(1000, GI);
                            assertEquals(w.decision().yarnPublish(), w.decision().yarnPublish().min(limit), w.decision().toString());
                            assertTrue(w.explain().stream().anyMatch(l -> l.contains("the koordlet asks YARN down")));
                        }),
                row("a release the reader ignored: named, nothing held", facts(healthy,
                        f -> released(with(f, null, yarn(new Resources(4000, 8 * GI)), new Resources(8000, 32 * GI), withNm), ignored)),
                        w -> {
                            assertTrue(w.decision().yarnPublish().cpuMilli() > 1000, w.decision().toString());
                            assertTrue(w.explain().contains(ignored.ignored()), w.explain().toString());
                        }));
    }

    private static NodeFacts released(NodeFacts f, KoordletRelease release) {
        return new NodeFacts(f.name(), f.node(), f.metric(), f.calculation(), f.nodeManager(), f.yarn(), release, f.priorFault(),
                f.excessSince(), f.inForce(), f.pass());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rules")
    void decidesByRule(String name, NodeFacts facts, Consumer<NodeWork> check) {
        check.accept(NodeDecision.decide(facts, PARTITIONED));
    }
}
