package io.colocation.koordlet.qos.evict;

import io.colocation.koordlet.qos.Victim;
import java.util.List;
import java.util.Map;

/**
 * One round of an eviction area (memory or CPU): per enabled strategy, keyed by its feature gate, what it releases,
 * its order and the victims it took; then all victims of the round in eviction order.
 */
public record EvictionDecision(Map<String, Strategy> strategies, List<Victim> victims, List<String> explain) {

    /** @param release resource → amount (cpu in milli-cores, memory in bytes, batch/mid as their integers) */
    public record Strategy(Map<String, Long> release, List<Victim> candidates, List<Victim> victims) {
    }
}
