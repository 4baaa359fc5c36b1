package io.colocation.broker.publication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.api.KoordinatorKeys;
import io.colocation.api.ResourceNames;
import io.colocation.api.yarn.YarnGrant;
import io.colocation.broker.arbitration.Decision;
import io.colocation.broker.calculation.NodeReclaim;
import io.colocation.broker.decision.NodeManagerIdentity;
import io.colocation.broker.decision.NodeWork;
import io.colocation.broker.decision.YarnFacts;
import io.colocation.broker.kube.BatchPublication;
import io.colocation.broker.ledger.NodeLedger.Publication;
import io.colocation.broker.yarn.YarnSide;
import io.colocation.model.Resources;
import io.colocation.model.config.ColocationStrategy;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link PublicationPlanner} as a pure function: one row per rule, a node's decision and memory in, its plan out. */
class PublicationPlannerTest {
    static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");
    static final long GI = 1L << 30;
    static final long MI = 1L << 20;

    /** A node whose origin annotation shows {@code annotated} (null: none). */
    static Node node(Resources annotated) {
        NodeBuilder b = new NodeBuilder().withNewMetadata().withName("n1").endMetadata();
        if (annotated != null) {
            b.editMetadata().withAnnotations(Map.of(KoordinatorKeys.ANNOTATION_ORIGIN_EXTENDED_ALLOCATABLE, "{\"resources\":{\""
                    + ResourceNames.BATCH_CPU + "\":\"" + annotated.cpuMilli() + "\",\"" + ResourceNames.BATCH_MEMORY + "\":\""
                    + annotated.memoryBytes() + "\"}}")).endMetadata();
        }
        return b.build();
    }

    static Resources cores(long cores, long gib) {
        return new Resources(cores * 1000, gib * GI);
    }

    /** A grant persisted for the NodeManager of {@code vcores} and {@code gib}, keeping nothing. */
    static YarnFacts yarn(boolean reachable, Integer vcores, long gib) {
        return new YarnFacts("prod", "n1:8041", cores(2, 4), null, null, reachable, Resources.ZERO,
                vcores == null ? null : new YarnGrant("n1:8041", 1, 1, vcores, gib * 1024, NOW.toEpochMilli()));
    }

    /**
     * A node of origin 20 cores / 80 GiB carrying {@code currentBatch}, 2 cores / 4 GiB used by Kubernetes, decided to
     * publish {@code batch} to Kubernetes and {@code yarnGrant} to YARN (keeping {@code keep}).
     */
    static NodeWork work(Node node, Resources currentBatch, Resources batch, YarnFacts yarn, Resources yarnGrant, Resources keep) {
        Resources origin = cores(20, 80);
        Decision d = new Decision(batch, yarnGrant, batch, yarnGrant, Resources.ZERO, Resources.ZERO, "", keep);
        NodeReclaim reclaim = new NodeReclaim("n1", Map.of(ResourceNames.BATCH_CPU, origin.cpuMilli(), ResourceNames.BATCH_MEMORY,
                origin.memoryBytes()), origin, false, List.of());
        NodeWork.Basis basis = new NodeWork.Basis(ColocationStrategy.defaults(), reclaim, origin, false, cores(32, 128), cores(8, 32),
                cores(2, 4), yarn == null ? null : new NodeManagerIdentity.NodeManager("prod", "n1:8041", "Pod yarn/nm"));
        return new NodeWork("n1", node, null, null, basis, yarn, d, currentBatch, null, new NodeWork.Handover(null, null, null), List.of());
    }

    /** This leader wrote {@code batch} a minute ago with the origin, and published {@code yarnGrant} (null: nothing). */
    static NodeMemory wrote(Resources batch, Resources yarnGrant) {
        Publication k = new Publication(NOW.minusSeconds(60), batch, "first write since this broker started leading", null);
        return new NodeMemory(new NodeMemory.Written(batch, null, NOW.minusSeconds(60)), cores(20, 80), null, yarnGrant,
                yarnGrant == null ? null : Resources.ZERO, k, null);
    }

    private static Arguments row(String name, NodeWork w, NodeMemory memory, boolean leading, Consumer<PublicationPlan> check) {
        return Arguments.of(name, w, memory, leading, check);
    }

    static Stream<Arguments> rules() {
        Node bare = node(null);
        YarnFacts yarn8 = yarn(true, 8, 32);
        return Stream.of(
                row("a standby writes nothing", work(bare, null, cores(10, 40), yarn8, cores(8, 32), Resources.ZERO), NodeMemory.NONE, false,
                        p -> assertEquals(PublicationPlan.NOTHING, p)),
                row("a frozen node writes nothing", NodeWork.frozen("n1", bare, "broken", null, null, cores(1, 1), null), NodeMemory.NONE,
                        true, p -> assertEquals(PublicationPlan.NOTHING, p)),
                row("first write since leading: the share, with the origin; YARN's unchanged persisted grant is not written again",
                        work(bare, cores(10, 40), cores(10, 40), yarn8, cores(8, 32), Resources.ZERO), NodeMemory.NONE, true, p -> {
                            assertEquals("first write since this broker started leading", p.kubernetes().reason());
                            assertEquals(new BatchPublication(cores(10, 40), null, cores(20, 80), cores(2, 4)), p.kubernetes().publication());
                            assertNull(p.kubernetes().shrinksFrom(), "not a shrink");
                            assertNull(p.yarn(), "8 vcores / 32 GiB are persisted");
                        }),
                row("within the thresholds nothing is written", work(bare, cores(10, 40), cores(10, 40), yarn8, cores(8, 32),
                        Resources.ZERO), wrote(cores(10, 40), cores(8, 32)), true, p -> assertEquals(PublicationPlan.NOTHING, p)),
                row("a shrink is written at once and remembered with the grant it shrinks from",
                        work(bare, cores(10, 40), cores(9, 40), yarn8, cores(8, 32), Resources.ZERO), wrote(cores(10, 40), cores(8, 32)),
                        true, p -> {
                            assertEquals("batch grant shrinks", p.kubernetes().reason());
                            assertEquals(cores(10, 40), p.kubernetes().shrinksFrom());
                        }),
                row("a shrink while one settles keeps the larger grant it shrinks from",
                        work(bare, cores(9, 40), cores(8, 40), yarn8, cores(8, 32), Resources.ZERO),
                        withSettling(wrote(cores(9, 40), cores(8, 32)), cores(10, 30)), true,
                        p -> assertEquals(cores(10, 40), p.kubernetes().shrinksFrom())),
                row("YARN grows within the origin this leader wrote: the grant alone",
                        work(bare, cores(10, 40), cores(10, 40), yarn8, cores(9, 36), Resources.ZERO), wrote(cores(10, 40), cores(8, 32)),
                        true, p -> {
                            assertNull(p.kubernetes());
                            assertNull(p.origin());
                            assertEquals(new YarnSide.Usage(9, 36 * 1024), p.yarn().grant());
                            assertEquals("grow", p.yarn().reason());
                            assertFalse(p.yarn().needsOrigin());
                        }),
                row("YARN grows beyond what the annotation shows: the origin first, the grant only once it is shown",
                        work(node(cores(12, 48)), cores(10, 40), cores(10, 40), yarn8, cores(9, 36), Resources.ZERO),
                        new NodeMemory(new NodeMemory.Written(cores(10, 40), null, NOW.minusSeconds(60)), null, null, cores(8, 32),
                                Resources.ZERO, null, null), true, p -> {
                            assertNull(p.kubernetes());
                            assertEquals(cores(20, 80), p.origin().publication().origin());
                            assertNull(p.origin().publication().batch(), "the annotation alone");
                            assertTrue(p.yarn().needsOrigin());
                        }),
                row("an annotation showing the whole origin already: no origin write can help, the grant goes",
                        work(node(cores(20, 80)), cores(10, 40), cores(10, 40), yarn8, cores(12, 48), Resources.ZERO),
                        new NodeMemory(new NodeMemory.Written(cores(10, 40), null, NOW.minusSeconds(60)), null, null, cores(8, 32),
                                Resources.ZERO, null, null), true, p -> {
                            assertNull(p.origin());
                            assertFalse(p.yarn().needsOrigin());
                        }),
                row("Kubernetes' use above its grant counts in what the annotation must cover",
                        work(bare, cores(1, 4), cores(1, 4), yarn8, cores(18, 72), Resources.ZERO),
                        new NodeMemory(new NodeMemory.Written(cores(1, 4), null, NOW.minusSeconds(60)), cores(19, 76), null, cores(8, 32),
                                Resources.ZERO, null, null), true, p -> {
                            assertNotNull(p.origin(), "2 cores used + 18 granted exceed the 19 shown");
                            assertTrue(p.yarn().needsOrigin());
                        }),
                row("only the keep changed: YARN's grant is written again (a grow: nothing shrinks)",
                        work(bare, cores(10, 40), cores(10, 40), yarn8, cores(8, 32), cores(3, 6)), wrote(cores(10, 40), cores(8, 32)),
                        true, p -> {
                            assertEquals(new YarnSide.Usage(3, 6 * 1024), p.yarn().keep());
                            assertEquals("grow", p.yarn().reason());
                        }),
                row("a first grant where none was persisted", work(bare, cores(10, 40), cores(10, 40), yarn(true, null, 0), cores(8, 32),
                        Resources.ZERO), wrote(cores(10, 40), null), true, p -> assertEquals("shrink or first grant", p.yarn().reason())),
                row("YARN rounds down to whole vcores and MiB", work(bare, cores(10, 40), cores(10, 40), yarn8,
                        new Resources(8999, 32 * GI + MI - 1), Resources.ZERO), wrote(cores(10, 40), cores(8, 32)), true,
                        p -> assertNull(p.yarn(), "8.999 cores and 32 GiB + 1 MiB - 1 byte are 8 vcores and 32 GiB")),
                row("an unreachable NodeManager: nothing for YARN, not even the origin",
                        work(node(cores(1, 1)), cores(10, 40), cores(10, 40), yarn(false, 8, 32), cores(12, 48), Resources.ZERO),
                        new NodeMemory(new NodeMemory.Written(cores(10, 40), null, NOW.minusSeconds(60)), null, null, null, null, null, null),
                        true, p -> assertEquals(PublicationPlan.NOTHING, p)),
                row("no NodeManager: the share alone", work(bare, cores(10, 40), null, null, Resources.ZERO, Resources.ZERO),
                        wrote(cores(10, 40), null), true, p -> {
                            assertEquals("batch resources removed", p.kubernetes().reason());
                            assertNull(p.kubernetes().publication().batch());
                            assertEquals(cores(10, 40), p.kubernetes().shrinksFrom(), "removing Batch shrinks it");
                            assertNull(p.yarn());
                        }));
    }

    private static NodeMemory withSettling(NodeMemory m, Resources from) {
        return new NodeMemory(m.kubernetes(), m.originWritten(), new NodeMemory.Shrink(from, System.nanoTime()), m.yarnPublished(),
                m.yarnKept(), m.lastKubernetes(), m.lastYarn());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rules")
    void plans(String name, NodeWork w, NodeMemory memory, boolean leading, Consumer<PublicationPlan> check) {
        check.accept(PublicationPlanner.plan(w, memory, leading, NOW));
    }
}
