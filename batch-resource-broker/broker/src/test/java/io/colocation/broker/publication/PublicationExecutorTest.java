package io.colocation.broker.publication;

import static io.colocation.broker.publication.PublicationPlannerTest.NOW;
import static io.colocation.broker.publication.PublicationPlannerTest.cores;
import static io.colocation.broker.publication.PublicationPlannerTest.node;
import static io.colocation.broker.publication.PublicationPlannerTest.work;
import static io.colocation.broker.publication.PublicationPlannerTest.yarn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.broker.decision.NodeWork;
import io.colocation.broker.fakes.FakeKubernetesSide;
import io.colocation.broker.fakes.InMemoryYarnSide;
import io.colocation.broker.kube.BatchPublication;
import io.colocation.broker.yarn.YarnSide;
import io.colocation.model.Resources;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** {@link PublicationExecutor} carrying plans out to both sides in memory: the order, what waits for what, the fence. */
class PublicationExecutorTest {
    private final FakeKubernetesSide kubernetes = new FakeKubernetesSide();
    private final InMemoryYarnSide yarnSide = new InMemoryYarnSide("prod", List.of("n1:8041"));
    private final AtomicBoolean fence = new AtomicBoolean(true);
    private final PublicationMemory memory = new PublicationMemory(Duration.ofSeconds(30));
    private final PublicationExecutor executor = new PublicationExecutor(kubernetes, Map.of("prod", yarnSide), memory, fence::get);
    private final NodeWork w = work(node(null), cores(10, 40), cores(8, 40), yarn(true, 8, 32), cores(9, 36), Resources.ZERO);

    private static PublicationPlan.KubernetesShare share(Resources shrinksFrom) {
        return new PublicationPlan.KubernetesShare(new BatchPublication(cores(8, 40), null, cores(20, 80), cores(2, 4)), "batch grant shrinks",
                shrinksFrom);
    }

    private static final PublicationPlan.OriginCover COVER = new PublicationPlan.OriginCover(
            new BatchPublication(null, null, cores(20, 80), cores(2, 4)));

    private static PublicationPlan.YarnGrantStep grow(boolean needsOrigin) {
        return new PublicationPlan.YarnGrantStep("prod", "n1:8041", new YarnSide.Usage(9, 36 * 1024), YarnSide.Usage.NONE, "grow",
                needsOrigin);
    }

    @Test
    void theShareCarriesTheOriginSoTheGrantFollowsWithoutAnOriginWrite() {
        PublicationExecutor.Outcome done = executor.execute(w, new PublicationPlan(share(cores(10, 40)), COVER, grow(true)), NOW);
        assertEquals(cores(8, 40), kubernetes.written.get("n1").batch());
        assertTrue(kubernetes.origins.isEmpty(), "the share wrote the origin: " + kubernetes.origins);
        assertEquals(9, yarnSide.grant("n1:8041").orElseThrow().vcores());
        assertNotNull(done.yarnWritten());
        NodeMemory m = done.memory();
        assertEquals(new NodeMemory.Written(cores(8, 40), null, NOW), m.kubernetes());
        assertEquals(cores(20, 80), m.originWritten());
        assertEquals(cores(10, 40), m.settlingFrom(System.nanoTime(), memory.settle()), "YARN may not grow into the shrink yet");
        assertEquals(cores(9, 36), m.yarnPublished());
        assertEquals("grow", m.lastYarn().reason());
        assertNull(m.lastKubernetes().error());
        assertEquals(m, memory.of("n1"));
    }

    @Test
    void aFailedShareLeavesTheOriginStepAndAGrowThatNeedsItWaits() {
        kubernetes.failing.add("n1");
        PublicationExecutor.Outcome done = executor.execute(w, new PublicationPlan(share(cores(10, 40)), COVER, grow(true)), NOW);
        assertTrue(kubernetes.written.isEmpty());
        assertTrue(yarnSide.grant("n1:8041").isEmpty(), "neither the share nor the origin landed: the grow waits");
        assertNull(done.yarnWritten());
        NodeMemory m = done.memory();
        assertTrue(m.lastKubernetes().error().contains("refused the status of Node n1"), m.lastKubernetes().toString());
        assertNull(m.kubernetes(), "nothing was written");
        assertNull(m.settling(), "a shrink that was not written does not settle");
        assertNull(m.lastYarn());
    }

    @Test
    void theOriginAloneLetsTheGrowGo() {
        PublicationExecutor.Outcome done = executor.execute(w, new PublicationPlan(null, COVER, grow(true)), NOW);
        assertEquals(cores(20, 80), kubernetes.origins.get("n1"));
        assertTrue(kubernetes.written.isEmpty(), "the status is not written");
        assertEquals(9, yarnSide.grant("n1:8041").orElseThrow().vcores());
        assertEquals(cores(20, 80), done.memory().originWritten());
    }

    @Test
    void aGrantThatNeedsNoOriginGoesEvenWhenKubernetesRefuses() {
        kubernetes.failing.add("n1");
        executor.execute(w, new PublicationPlan(share(null), null, grow(false)), NOW);
        assertEquals(9, yarnSide.grant("n1:8041").orElseThrow().vcores());
    }

    @Test
    void aFenceThatNoLongerHoldsWritesNothing() {
        fence.set(false);
        PublicationExecutor.Outcome done = executor.execute(w, new PublicationPlan(share(null), COVER, grow(false)), NOW);
        assertTrue(kubernetes.written.isEmpty() && kubernetes.origins.isEmpty());
        assertTrue(yarnSide.grant("n1:8041").isEmpty());
        assertEquals(NodeMemory.NONE, done.memory());
    }

    @Test
    void withoutASettleTimeAShrinkIsNotKept() {
        PublicationMemory unsettled = new PublicationMemory(Duration.ZERO);
        new PublicationExecutor(kubernetes, Map.of("prod", yarnSide), unsettled, fence::get)
                .execute(w, new PublicationPlan(share(cores(10, 40)), null, null), NOW);
        assertNull(unsettled.of("n1").settling());
        assertEquals(cores(8, 40), unsettled.of("n1").kubernetes().batch());
    }

    @Test
    void aNewLeaderForgetsWhatWasWrittenButKeepsTheLastPublications() {
        executor.execute(w, new PublicationPlan(share(cores(10, 40)), null, grow(false)), NOW);
        memory.forgetWritten();
        NodeMemory m = memory.of("n1");
        assertNull(m.kubernetes());
        assertNull(m.originWritten());
        assertNull(m.settling());
        assertNull(m.yarnPublished());
        assertEquals("batch grant shrinks", m.lastKubernetes().reason());
        assertEquals("grow", m.lastYarn().reason());
    }
}
