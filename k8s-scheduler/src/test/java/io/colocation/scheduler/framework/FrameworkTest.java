package io.colocation.scheduler.framework;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The runtime's order of extension points and its undoing of a reservation, with recording plugins. */
class FrameworkTest {
    /** A plugin at PreFilter, Reserve and Permit that records its calls and answers as told. */
    private record Recorder(String name, List<String> calls, boolean preFilterOk, boolean reserveOk, PermitPlugin.Permit permit)
            implements PreFilterPlugin, ReservePlugin, PermitPlugin, PostFilterPlugin {
        @Override
        public Status preFilter(CycleState state, PodInfo pod) {
            calls.add(name + ".preFilter");
            return preFilterOk ? Status.SUCCESS : Status.unschedulable(name + " says no");
        }

        @Override
        public java.util.Optional<Nomination> postFilter(CycleState state, PodInfo pod, String why) {
            calls.add(name + ".postFilter");
            return java.util.Optional.empty();
        }

        @Override
        public Status reserve(CycleState state, PodInfo pod, String node) {
            calls.add(name + ".reserve");
            return reserveOk ? Status.SUCCESS : Status.unschedulable(name + " cannot reserve");
        }

        @Override
        public void unreserve(CycleState state, PodInfo pod, String node) {
            calls.add(name + ".unreserve");
        }

        @Override
        public Permit permit(CycleState state, PodInfo pod, String node) {
            calls.add(name + ".permit");
            return permit;
        }
    }

    private static Arguments row(String name, boolean nodeFits, boolean aPre, boolean bReserve, PermitPlugin.Permit bPermit,
            Framework.Point rejectedAt, String waitingFor, List<String> calls) {
        return Arguments.of(name, nodeFits, aPre, bReserve, bPermit, rejectedAt, waitingFor, calls);
    }

    static Stream<Arguments> cycles() {
        PermitPlugin.Permit allow = PermitPlugin.Permit.ALLOW;
        return Stream.of(
                row("every point passes", true, true, true, allow, null, null, List.of("a.preFilter", "b.preFilter", "assume",
                        "a.reserve", "b.reserve", "a.permit", "b.permit")),
                row("PreFilter stops at the first rejection, then PostFilter (kube-scheduler's)", true, false, true, allow,
                        Framework.Point.PRE_FILTER, null, List.of("a.preFilter", "a.postFilter", "b.postFilter")),
                row("no node: PostFilter, nothing assumed", false, true, true, allow, Framework.Point.FILTER, null,
                        List.of("a.preFilter", "b.preFilter", "a.postFilter", "b.postFilter")),
                row("Reserve fails: every unreserve in reverse, then forget", true, true, false, allow, Framework.Point.RESERVE, null,
                        List.of("a.preFilter", "b.preFilter", "assume", "a.reserve", "b.reserve", "b.unreserve", "a.unreserve",
                                "forget")),
                row("Permit rejects: unreserved", true, true, true, PermitPlugin.Permit.reject("no"), Framework.Point.PERMIT, null,
                        List.of("a.preFilter", "b.preFilter", "assume", "a.reserve", "b.reserve", "a.permit", "b.permit",
                                "b.unreserve", "a.unreserve", "forget")),
                row("Permit waits: its timeout, for what its plugin says", true, true, true,
                        PermitPlugin.Permit.waitFor(Duration.ofSeconds(90), "the rest of the gang"), null, "b: the rest of the gang",
                        List.of("a.preFilter", "b.preFilter", "assume", "a.reserve", "b.reserve", "a.permit", "b.permit")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cycles")
    void runsThePointsInOrder(String name, boolean nodeFits, boolean aPre, boolean bReserve, PermitPlugin.Permit bPermit,
            Framework.Point rejectedAt, String waitingFor, List<String> expected) {
        List<String> calls = new ArrayList<>();
        Recorder a = new Recorder("a", calls, aPre, true, PermitPlugin.Permit.ALLOW);
        Recorder b = new Recorder("b", calls, true, bReserve, bPermit);
        Profile profile = new Profile("test", null, List.of(a, b), List.of(), List.of(a, b), List.of(), List.of(a, b), List.of(a, b),
                List.of(), 100);
        Framework.NodeSelector selector = (state, pod) -> nodeFits ? new SchedulingCycle.Selection("n1", null)
                : new SchedulingCycle.Selection(null, "0/1 nodes are available.");
        Framework.Assumption assumption = new Framework.Assumption() {
            @Override
            public void assume(PodInfo pod, String node) {
                calls.add("assume");
            }

            @Override
            public void forget(PodInfo pod) {
                calls.add("forget");
            }
        };
        PodInfo pod = PluginFixtures.pod("containers: [{name: c}]");
        Framework.CycleResult result = new Framework(profile).schedulingCycle(new CycleState(new ClusterSnapshot(List.of(),
                PluginFixtures.NOW)), pod, selector, assumption);
        assertEquals(expected, calls);
        assertEquals(rejectedAt, result.rejectedAt());
        if (waitingFor == null) {
            assertNull(result.permit() == null ? null : result.permit().waitingFor());
        } else {
            assertEquals(waitingFor, result.permit().waitingFor());
            assertEquals(Duration.ofSeconds(90), result.permit().timeout());
        }
    }
}
