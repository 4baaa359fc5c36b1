package io.colocation.broker.arbitration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.model.Resources;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class GrantArbiterTest {
    private static final ArbitrationSettings EVEN = new ArbitrationSettings(GrantPolicy.PARTITIONED, 1, 1, 0.1);

    private static Resources cpu(long milli) {
        return new Resources(milli, 0);
    }

    private static SideState side(long used, long demand, long published, Long acked, boolean reachable) {
        return new SideState(cpu(used), cpu(demand), cpu(published), acked == null ? null : cpu(acked), reachable);
    }

    @Test
    void originIsSplitMaxMinFairOverUsePlusDemand() {
        // origin 12, k8s uses 6, yarn 4: free 2 (the yarn-copilot issue #25 example) -> split evenly without demand
        Decision d = GrantArbiter.decide(EVEN, cpu(12_000), side(6_000, 0, 7_000, 7_000L, true), side(4_000, 0, 5_000, 5_000L, true));
        assertEquals(cpu(7_000), d.kubernetesTarget());
        assertEquals(cpu(5_000), d.yarnTarget());
        assertEquals(12_000, d.kubernetesTarget().cpuMilli() + d.yarnTarget().cpuMilli());
        // all demand on YARN: Kubernetes wants what it uses (6, its fair half), YARN the rest
        Decision yarnBusy = GrantArbiter.decide(EVEN, cpu(12_000), side(6_000, 0, 7_000, 7_000L, true), side(4_000, 8_000, 5_000, 5_000L, true));
        assertEquals(cpu(6_000), yarnBusy.kubernetesTarget());
        assertEquals(cpu(6_000), yarnBusy.yarnTarget());
        // both want more than half: half each, however long either queue is
        Decision both = GrantArbiter.decide(EVEN, cpu(12_000), side(2_000, 90_000, 2_000, 2_000L, true), side(1_000, 5_000, 1_000, 1_000L, true));
        assertEquals(cpu(6_000), both.kubernetesTarget());
        assertEquals(cpu(6_000), both.yarnTarget());
        // a side without demand keeps the minimum share of origin (10 %) to start with
        Decision idle = GrantArbiter.decide(EVEN, cpu(12_000), side(0, 0, 0, 0L, true), side(1_000, 50_000, 1_000, 1_000L, true));
        assertEquals(cpu(1_200), idle.kubernetesTarget());
    }

    @Test
    void aGrantStaysWhereItIsWhileItsTargetIsWithinTenPercentOfOriginAndTheOtherSideDoesNotNeedRoom() {
        // YARN started a container inside its grant: the split of free moves by half a core, the grants do not
        Decision d = GrantArbiter.decide(EVEN, cpu(13_000), side(6_000, 1_000, 7_000, 7_000L, true), side(6_000, 1_000, 6_000, 6_000L, true));
        assertEquals(cpu(6_500), d.kubernetesTarget(), "the target follows the split");
        assertEquals(cpu(7_000), d.kubernetesPublish(), "the grant stays: within 1.3 cores of its target");
        assertEquals(cpu(6_000), d.yarnPublish());
        // YARN needs room Kubernetes holds unused (its target 3 cores above its grant): Kubernetes shrinks at once
        Decision needed = GrantArbiter.decide(EVEN, cpu(13_000), side(6_000, 0, 7_000, 7_000L, true), side(4_000, 8_000, 4_000, 4_000L, true));
        assertEquals(cpu(6_000), needed.kubernetesPublish(), "shrinks to what it wants, its use: YARN wants more than half");
        // origin fell: a grant that no longer fits beside the other's shrinks whatever the hysteresis
        Decision fallen = GrantArbiter.decide(EVEN, cpu(12_500), side(6_000, 0, 7_000, 7_000L, true), side(6_000, 0, 6_000, 6_000L, true));
        assertTrue(fallen.kubernetesPublish().cpuMilli() + 6_000 <= 12_500, fallen.toString());
    }

    @Test
    void shrinkIsPublishedAtOnceGrowWaitsForTheOtherSidesAcknowledgement() {
        // YARN published 5.5, now demand moves to Kubernetes (its target 1.3 cores above its grant, more than the 10 %
        // of origin a grant may lag): YARN must shrink before Kubernetes may grow
        SideState k = side(6_000, 8_000, 6_500, 6_500L, true);
        SideState y = side(4_000, 0, 5_500, 5_500L, true);
        Decision first = GrantArbiter.decide(EVEN, cpu(12_000), k, y);
        assertEquals(cpu(8_000), first.kubernetesTarget(), "its half and the 2 YARN leaves");
        assertEquals(cpu(4_000), first.yarnPublish(), "the shrink goes out at once");
        assertEquals(cpu(6_500), first.kubernetesPublish(), "no grow while YARN may still schedule up to 5.5");
        // YARN acknowledges 4: now Kubernetes grows
        Decision second = GrantArbiter.decide(EVEN, cpu(12_000), k, side(4_000, 0, 4_000, 4_000L, true));
        assertEquals(cpu(8_000), second.kubernetesPublish());
    }

    @Test
    void anUnreachableSideKeepsItsGrantAndTheOtherDoesNotGrowIntoIt() {
        Decision d = GrantArbiter.decide(EVEN, cpu(12_000), side(6_000, 8_000, 7_000, 7_000L, true), side(4_000, 0, 5_000, 5_000L, false));
        assertEquals(cpu(5_000), d.yarnPublish());
        assertEquals(cpu(7_000), d.kubernetesPublish());
        assertEquals(cpu(7_000), d.kubernetesTarget());
    }

    @Test
    void originBelowUseShrinksEachGrantToWhatTheOtherSidesUseLeaves() {
        // online load rose: origin 9 while 6 + 4 are used -> YARN gives back the 1 core (RM preemption)
        Decision d = GrantArbiter.decide(EVEN, cpu(9_000), side(6_000, 0, 7_000, 7_000L, true), side(4_000, 0, 5_000, 5_000L, true));
        assertEquals(cpu(4_000), d.kubernetesPublish(), "below its use, beside what YARN may still enforce (its 5 until it"
                + " acknowledges): the scheduler places nothing more, nothing is evicted for it");
        assertEquals(cpu(2_000), d.yarnPublish(), "published at once, below YARN's use, beside Kubernetes' 7 until it acknowledges");
        assertEquals(Resources.ZERO, d.yarnKeep(), "taken back at once (EVEN): YARN keeps nothing from preemption");
        assertEquals(cpu(1_000), d.excess());
        assertTrue(d.kubernetesPublish().cpuMilli() + d.yarnPublish().cpuMilli() <= 9_000, "grants fit origin again");
        // not yet taken back: the same grants, and YARN keeps what it uses
        Decision held = GrantArbiter.decide(EVEN, cpu(9_000), side(6_000, 0, 7_000, 7_000L, true), side(4_000, 0, 5_000, 5_000L, true), false);
        assertEquals(cpu(2_000), held.yarnPublish());
        assertTrue(held.yarnKeep().cpuMilli() >= 4_000, "no preemption while held: " + held);
        assertEquals(cpu(4_000), held.kubernetesPublish());
        // Kubernetes alone uses more than origin: YARN gives back everything, the rest is left to eviction
        Decision deep = GrantArbiter.decide(EVEN, cpu(5_000), side(6_000, 0, 7_000, 7_000L, true), side(4_000, 0, 5_000, 5_000L, true));
        assertEquals(cpu(0), deep.kubernetesPublish(), "what YARN may still enforce leaves nothing");
        assertEquals(cpu(0), deep.yarnPublish());
        assertEquals(cpu(5_000), deep.excess());
        // an unreachable YARN keeps its grant even then
        Decision silent = GrantArbiter.decide(EVEN, cpu(9_000), side(6_000, 0, 7_000, 7_000L, true), side(4_000, 0, 5_000, 5_000L, false));
        assertEquals(cpu(5_000), silent.yarnPublish());
        assertEquals(cpu(4_000), silent.kubernetesPublish());
    }

    @Test
    void aDrainedNodeHoldsEachGrantAtItsUse() {
        Decision d = GrantArbiter.drained(side(6_000, 3_000, 7_000, 7_000L, true), side(4_000, 3_000, 5_000, 5_000L, true));
        assertEquals(cpu(6_000), d.kubernetesPublish());
        assertEquals(cpu(4_000), d.yarnPublish());
        assertEquals(Resources.ZERO, d.excess(), "nothing is taken back");
        Decision silent = GrantArbiter.drained(side(6_000, 0, 7_000, 7_000L, true), side(4_000, 0, 5_000, 5_000L, false));
        assertEquals(cpu(5_000), silent.yarnPublish(), "an unreachable side keeps its grant");
    }

    @Test
    void sharedPolicyIsKoordinatorsAndCountsTheOvercommit() {
        Decision d = GrantArbiter.decide(new ArbitrationSettings(GrantPolicy.SHARED, 1, 1, 0), cpu(12_000),
                side(6_000, 0, 0, null, true), side(4_000, 0, 0, null, true));
        assertEquals(cpu(8_000), d.kubernetesPublish());
        assertEquals(cpu(6_000), d.yarnPublish());
        assertEquals(cpu(2_000), d.overcommit(), "the free 2 cores are offered to both");
        Decision tight = GrantArbiter.decide(new ArbitrationSettings(GrantPolicy.SHARED, 1, 1, 0), cpu(9_000),
                side(6_000, 0, 0, null, true), side(4_000, 0, 0, null, true));
        assertEquals(cpu(5_000), tight.kubernetesPublish(), "below its 6 used: Kubernetes places nothing more");
        assertEquals(cpu(3_000), tight.yarnPublish());
        assertEquals(cpu(1_000), tight.excess());
    }

    @Test
    void publishedGrantsNeverExceedOriginUnderRandomRounds() {
        SplittableRandom random = new SplittableRandom(7);
        long kPub = 0, yPub = 0, kAck = 0, yAck = 0;
        for (int round = 0; round < 20_000; round++) {
            long origin = 8_000 + random.nextInt(8_000);
            long kUsed = Math.min(kAck, random.nextInt(6_000));
            long yUsed = Math.min(yAck, random.nextInt(6_000));
            boolean yarnReachable = random.nextInt(10) > 0;
            Decision d = GrantArbiter.decide(EVEN, cpu(origin),
                    side(kUsed, random.nextInt(5_000), kPub, kAck, true),
                    side(yUsed, random.nextInt(5_000), yPub, yAck, yarnReachable));
            long kNew = d.kubernetesPublish().cpuMilli();
            long yNew = d.yarnPublish().cpuMilli();
            String at = "round " + round + " origin " + origin + " used " + kUsed + "/" + yUsed + " pub " + kPub + "/" + yPub + " ack " + kAck + "/" + yAck + ": " + d;
            long kEnforceable = Math.max(kPub, kAck);
            long yEnforceable = Math.max(yPub, yAck);
            // no side is given room the other side may still enforce (beyond what it already uses)
            assertTrue(kNew <= Math.max(kUsed, origin - yEnforceable), at);
            if (yarnReachable) {
                assertTrue(yNew <= Math.max(yUsed, origin - kEnforceable), at);
                // the room the two grants leave the schedulers (beyond what each uses) fits what origin leaves: no
                // scheduler can refill a task's freed room beyond Batch
                assertTrue(Math.max(0, kNew - kUsed) + Math.max(0, yNew - yUsed) <= Math.max(0, origin - kUsed - yUsed), at);
                // YARN below its use is preempted only when use above origin is taken back
                if (yNew < yUsed && kUsed + yUsed <= origin) {
                    assertTrue(d.yarnKeep().cpuMilli() >= yUsed, "kept from preemption: " + at);
                }
                // the grants published together fit origin (YARN shrinks below its use when origin fell),
                // unless Kubernetes alone already uses more
                assertTrue(kNew + yNew <= Math.max(origin, kUsed), at);
                // what both may enforce after this round fits origin, except where use or the old acknowledged
                // limits already did not (origin fell since, or a side uses more than is left)
                assertTrue(Math.max(kNew, kAck) + Math.max(yNew, yAck)
                        <= Math.max(Math.max(origin, kAck + yAck), Math.max(kUsed + yEnforceable, yUsed + kEnforceable)), at);
            } else {
                assertEquals(yPub, yNew, "an unreachable side's grant is left alone");
            }
            kPub = kNew;
            yPub = yNew;
            if (random.nextBoolean()) {
                kAck = kPub;
            }
            if (yarnReachable && random.nextBoolean()) {
                yAck = yPub;
            }
        }
    }

    @Test
    void settingsAreValidated() {
        assertThrows(IllegalArgumentException.class, () -> new ArbitrationSettings(GrantPolicy.PARTITIONED, 0, 1, 0.1));
        assertThrows(IllegalArgumentException.class, () -> new ArbitrationSettings(GrantPolicy.PARTITIONED, 1, 1, 0.6));
        assertThrows(IllegalArgumentException.class, () -> new ArbitrationSettings(null, 1, 1, 0.1));
    }

    @Test
    void aNodeWithoutYarnGivesKubernetesAllOfOriginAndFreezesAtUse() {
        Resources origin = new Resources(4000, 4000);
        Decision d = GrantArbiter.kubernetesOnly(origin, new SideState(new Resources(1000, 1000), Resources.ZERO, Resources.ZERO, Resources.ZERO, true));
        assertEquals(origin, d.kubernetesPublish());
        assertEquals(Resources.ZERO, d.yarnPublish());
        Decision fallen = GrantArbiter.kubernetesOnly(new Resources(500, 4000), new SideState(new Resources(1000, 1000),
                Resources.ZERO, origin, origin, true));
        assertEquals(new Resources(1000, 4000), fallen.kubernetesPublish());
        assertEquals(new Resources(500, 0), fallen.excess());
    }

    @Test
    void aKoordletReleaseHoldsYarnBelowItsUseAndGivesKubernetesNothingMore() {
        // origin 12, k8s uses 6, yarn 4: YARN's target 5; the koordlet asks YARN down to 2.5 cores
        Decision d = GrantArbiter.decide(EVEN, cpu(12_000), side(6_000, 0, 7_000, 7_000L, true), side(4_000, 0, 5_000, 5_000L, true));
        Decision held = GrantArbiter.yarnHeldAt(d, cpu(12_000), cpu(2_500), side(4_000, 0, 5_000, 5_000L, true));
        assertEquals(cpu(2_500), held.yarnPublish(), "below YARN's use: the RM plugin preempts 1.5 cores");
        assertEquals(cpu(2_500), held.yarnTarget());
        assertEquals(d.kubernetesPublish(), held.kubernetesPublish(), "Kubernetes does not grow into the released room");
        assertEquals(d.kubernetesTarget(), held.kubernetesTarget());
        // a limit above the grant changes nothing; an unreachable YARN keeps its grant
        assertEquals(d.yarnPublish(), GrantArbiter.yarnHeldAt(d, cpu(12_000), cpu(9_000), side(4_000, 0, 5_000, 5_000L, true)).yarnPublish());
        Decision silent = GrantArbiter.decide(EVEN, cpu(12_000), side(6_000, 0, 7_000, 7_000L, true), side(4_000, 0, 5_000, 5_000L, false));
        assertEquals(cpu(5_000), GrantArbiter.yarnHeldAt(silent, cpu(12_000), cpu(2_500), side(4_000, 0, 5_000, 5_000L, false)).yarnPublish());
        // shared: the overcommit shrinks with YARN's grant
        Decision shared = GrantArbiter.decide(new ArbitrationSettings(GrantPolicy.SHARED, 1, 1, 0), cpu(12_000),
                side(6_000, 0, 0, null, true), side(4_000, 0, 0, null, true));
        Decision sharedHeld = GrantArbiter.yarnHeldAt(shared, cpu(12_000), cpu(5_000), side(4_000, 0, 0, null, true));
        assertEquals(cpu(1_000), sharedHeld.overcommit(), "8 + 5 granted on 12");
    }
}
