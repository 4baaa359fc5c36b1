package io.colocation.koordlet.qos.agent;

import io.colocation.koordlet.qos.BestEffortState;
import io.colocation.koordlet.qos.NodeSnapshot;
import io.colocation.koordlet.qos.QoSPod;
import io.colocation.koordlet.qos.YarnContainerState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;

/**
 * The BE tier's CPU over time, as Koordinator's BECPUEvict reads it from the besteffort cgroup (COMPAT §5.5): each
 * round records what the tier used (BE pods and YARN containers), its real limit (min(|cpuset| × 1000, quota × 1000
 * / period)) and leaves the request to the strategy; the window average covers {@code max(collectInterval,
 * cpuEvictTimeWindowSeconds)} and counts only with samples for a third of it, the latest covers 2 × collectInterval.
 */
final class BeCpuWindow {
    /** Longer than any window Koordinator accepts in practice; older samples are dropped. */
    private static final Duration KEEP = Duration.ofMinutes(10);

    private record Sample(Instant time, double usedMilli, double limitMilli) {
    }

    private final Deque<Sample> samples = new ArrayDeque<>();

    /** Records this round's BE usage and real limit from the snapshot and returns the BE state with the window. */
    BestEffortState record(Instant now, NodeSnapshot s) {
        BestEffortState be = s.bestEffort();
        samples.addLast(new Sample(now, used(s), realLimit(s, be)));
        Instant horizon = now.minus(KEEP);
        while (!samples.isEmpty() && samples.peekFirst().time().isBefore(horizon)) {
            samples.removeFirst();
        }
        long interval = Math.max(1, s.collectIntervalSeconds());
        Long configured = s.thresholds() == null ? null : s.thresholds().cpuEvictTimeWindowSeconds();
        long window = Math.max(interval, configured == null ? interval : configured);
        return new BestEffortState(be.cpusetCpus(), be.cfsQuotaMicros(), be.cfsPeriodMicros(),
                average(now, window, window, interval), average(now, 2 * interval, 0, interval));
    }

    /** The mean over the last {@code seconds}; null without samples covering a third of {@code window}. */
    private BestEffortState.BeCpu average(Instant now, long seconds, long window, long interval) {
        Instant from = now.minusSeconds(seconds);
        double used = 0;
        double limit = 0;
        int n = 0;
        // newest first: the window is the deque's tail
        for (Iterator<Sample> it = samples.descendingIterator(); it.hasNext(); ) {
            Sample x = it.next();
            if (!x.time().isAfter(from)) {
                break;
            }
            used += x.usedMilli();
            limit += x.limitMilli();
            n++;
        }
        if (n == 0 || n * interval * 3 < window) {
            return null;
        }
        return new BestEffortState.BeCpu(used / n, limit / n, null);
    }

    /** BE pods' and YARN containers' CPU: what the besteffort cgroup's cpuacct counts. */
    private static double used(NodeSnapshot s) {
        return s.beUsage(QoSPod::cpuUsedMilli, YarnContainerState::cpuUsedMilli);
    }

    /** min(|cpuset| × 1000, quota × 1000 / period when a quota is set); the node's capacity without either. */
    private static double realLimit(NodeSnapshot s, BestEffortState be) {
        List<Integer> cpuset = be.cpusetCpus();
        double limit = cpuset == null || cpuset.isEmpty() ? s.capacityCpuMilli() : cpuset.size() * 1000.0;
        if (be.cfsQuotaMicros() != BestEffortState.UNSET_QUOTA && be.cfsQuotaMicros() > 0 && be.cfsPeriodMicros() > 0) {
            limit = Math.min(limit, be.cfsQuotaMicros() * 1000.0 / be.cfsPeriodMicros());
        }
        return limit;
    }
}
