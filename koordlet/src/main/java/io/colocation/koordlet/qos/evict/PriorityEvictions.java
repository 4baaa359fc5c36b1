package io.colocation.koordlet.qos.evict;

import io.colocation.api.ResourceNames;
import io.colocation.api.PriorityClass;
import io.colocation.koordlet.qos.NodeSnapshot;
import io.colocation.koordlet.qos.QoSPod;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * What the priority-threshold strategies share (MemoryEvict, CPUEvict and the two allocatable ones): who may be
 * evicted, in which order, and how much of the allocatable is over-requested.
 */
final class PriorityEvictions {
    private PriorityEvictions() {
    }

    /**
     * Koordinator's {@code getPodEvictInfoAndSortByPriority}: running pods the strategy's eviction policy allows, with
     * a priority at or below the threshold, labelled {@code koordinator.sh/eviction-enabled: "true"} and with a usage
     * sample; ordered by eviction-priority annotation, priority, {@code koordinator.sh/priority}, then {@code sub}.
     */
    static List<Candidate> candidates(NodeSnapshot s, String gate, long priorityThreshold, Function<QoSPod, Long> sample,
            Function<QoSPod, Candidate> build, Ordering.Less sub) {
        List<Candidate> out = new ArrayList<>();
        for (QoSPod p : s.pods()) {
            if (!p.active() || !p.evictionAllowedBy(gate) || p.priority() > priorityThreshold || !p.evictionEnabled()
                    || sample.apply(p) == null) {
                continue;
            }
            out.add(build.apply(p));
        }
        return Ordering.sort(out, (a, b) -> {
            if (a.pod().evictionPriority() != b.pod().evictionPriority()) {
                return a.pod().evictionPriority() < b.pod().evictionPriority();
            }
            if (a.pod().priority() != b.pod().priority()) {
                return a.pod().priority() < b.pod().priority();
            }
            if (a.pod().labelPriority() != b.pod().labelPriority()) {
                return a.pod().labelPriority() < b.pod().labelPriority();
            }
            return sub.less(a, b);
        });
    }

    /**
     * Koordinator's {@code calculateReleaseByAllocatableThresholdPercent}: the requests of pods at or below the
     * priority threshold, in the resource of each pod's class, against the node's allocatable of that resource;
     * over threshold% releases down to lower%. The arithmetic is Koordinator's: float64 for memory
     * (MemoryAllocatableEvict), float32 for CPU (CPUAllocatableEvict); on 100 GiB the two differ by 4 KiB.
     */
    static Map<String, Long> overRequested(NodeSnapshot s, String resource, long thresholdPercent, long lowerPercent,
            long priorityThreshold, Consumer<String> explain) {
        boolean float64 = resource.equals(ResourceNames.MEMORY);
        Map<String, Long> requested = new LinkedHashMap<>();
        for (QoSPod p : s.pods()) {
            if (p.priority() > priorityThreshold) {
                continue;
            }
            Map.Entry<String, Long> r = Requests.typed(p, resource);
            requested.merge(r.getKey(), r.getValue(), Long::sum);
        }
        Map<String, Long> release = new LinkedHashMap<>();
        requested.forEach((name, rq) -> {
            Long alloc = s.allocatable().get(name);
            if (alloc == null || alloc == 0) {
                release.put(name, rq);
                explain.accept(name + ": requested " + rq + " with no allocatable: release all of it");
                return;
            }
            boolean over;
            long amount;
            if (float64) {
                double ratio = (double) rq / (double) alloc;
                over = ratio > (double) thresholdPercent / 100;
                amount = (long) ((ratio - (double) lowerPercent / 100) * (double) alloc);
            } else {
                float ratio = (float) rq / (float) alloc;
                over = ratio > (float) thresholdPercent / 100;
                amount = (long) ((ratio - (float) lowerPercent / 100) * (float) alloc);
            }
            if (over) {
                release.put(name, amount);
                explain.accept(name + ": requested " + rq + " of allocatable " + alloc + " > " + thresholdPercent
                        + "%: release down to " + lowerPercent + "% = " + amount);
            } else {
                explain.accept(name + ": requested " + rq + " of allocatable " + alloc + " ≤ " + thresholdPercent + "%");
            }
        });
        return release;
    }

    /** How an evicted pod counts toward an allocatable release: its request, if its class is one being released. */
    static Function<Candidate, Map<String, Long>> requestOf(Map<String, Long> release, String resource) {
        Set<PriorityClass> classes = new HashSet<>();
        release.keySet().forEach(r -> {
            PriorityClass c = Requests.classOf(r);
            if (c != PriorityClass.NONE) {
                classes.add(c);
            }
        });
        return c -> {
            if (c.pod() == null || !classes.contains(c.pod().rawPriorityClass())) {
                return Map.of();
            }
            Map.Entry<String, Long> r = Requests.typed(c.pod(), resource);
            return Map.of(r.getKey(), r.getValue());
        };
    }

    /** The positive entries: what the strategy really asks to release. */
    static Map<String, Long> positive(Map<String, Long> release) {
        Map<String, Long> out = new LinkedHashMap<>();
        release.forEach((r, v) -> {
            if (v > 0) {
                out.put(r, v);
            }
        });
        return out;
    }
}
