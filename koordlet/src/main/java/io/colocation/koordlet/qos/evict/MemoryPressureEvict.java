package io.colocation.koordlet.qos.evict;

import io.colocation.api.ResourceNames;
import io.colocation.koordlet.qos.FeatureGates;
import io.colocation.koordlet.qos.NodeSnapshot;
import io.colocation.koordlet.qos.Victim;
import java.util.List;
import java.util.Map;

/**
 * Eviction on memory pressure stall, beyond Koordinator: when the host's {@code /proc/pressure/memory} "some avg10"
 * has stayed at or above a threshold for a while, tasks are stalled on memory even if usage is below every
 * percentage threshold (reclaim, refaults, a BE tier held at memory.high), so the first BE candidate in
 * BEMemoryEvict's order (BE pods and YARN containers, ApplicationMasters last) leaves, one per round. A pod's
 * {@code koordinator.sh/eviction-policy} is read as for BEMemoryEvict.
 */
public final class MemoryPressureEvict {
    public static final String NAME = "MemoryPressureEvict";

    /** @param someAvg10Percent the stall share that counts as high; {@code forSeconds} how long it must last */
    public record Settings(boolean enabled, double someAvg10Percent, long forSeconds) {
        public Settings {
            if (someAvg10Percent <= 0 || someAvg10Percent > 100) {
                throw new IllegalArgumentException("someAvg10Percent must be in (0, 100], got " + someAvg10Percent);
            }
            if (forSeconds < 0) {
                throw new IllegalArgumentException("forSeconds must not be negative, got " + forSeconds);
            }
        }
    }

    private MemoryPressureEvict() {
    }

    /**
     * @param someAvg10     the host's memory "some avg10" now (percent; NaN: the kernel has no PSI)
     * @param highForSeconds how long it has been at or above the threshold without a break (0 when it is not now)
     */
    public static EvictionDecision decide(NodeSnapshot s, Settings settings, double someAvg10, long highForSeconds) {
        if (!settings.enabled()) {
            return new EvictionDecision(Map.of(), List.of(), List.of());
        }
        List<Candidate> ordered = MemoryEvict.beCandidates(s, FeatureGates.BE_MEMORY_EVICT);
        List<Victim> candidates = ordered.stream().map(Candidate::victim).toList();
        if (Double.isNaN(someAvg10)) {
            return none(candidates, NAME + ": no pressure stall information on this host (kernel without PSI, or psi=0)");
        }
        if (someAvg10 < settings.someAvg10Percent() || highForSeconds < settings.forSeconds()) {
            return none(candidates, NAME + ": memory some avg10 " + someAvg10 + "% (threshold " + settings.someAvg10Percent() + "% for "
                    + settings.forSeconds() + " s; high for " + highForSeconds + " s): no eviction");
        }
        if (ordered.isEmpty()) {
            return none(candidates, NAME + ": memory some avg10 " + someAvg10 + "% for " + highForSeconds
                    + " s, but no BE pod or YARN container to evict");
        }
        Candidate first = ordered.get(0);
        List<Victim> victims = List.of(first.victim());
        return new EvictionDecision(Map.of(NAME, new EvictionDecision.Strategy(Map.of(ResourceNames.MEMORY, first.memoryUsed()),
                candidates, victims)), victims, List.of(NAME + ": memory some avg10 " + someAvg10 + "% ≥ " + settings.someAvg10Percent()
                + "% for " + highForSeconds + " s ≥ " + settings.forSeconds() + " s: evict the first BE candidate, " + first.victim()
                + " (" + first.memoryUsed() + " B used)"));
    }

    /** The strategy ran and releases nothing, saying why. */
    private static EvictionDecision none(List<Victim> candidates, String why) {
        return new EvictionDecision(Map.of(NAME, new EvictionDecision.Strategy(Map.of(), candidates, List.of())), List.of(), List.of(why));
    }
}
