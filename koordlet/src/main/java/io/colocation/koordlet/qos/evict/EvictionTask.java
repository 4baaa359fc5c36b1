package io.colocation.koordlet.qos.evict;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What one eviction strategy asks for in a round: resources to release (by target: usage, request or batch
 * request), the victims in its order, and how much each victim counts toward its target.
 */
record EvictionTask(String gate, Target target, Map<String, Long> release, List<Candidate> candidates,
        Function<Candidate, Map<String, Long>> releasedBy) {

    /** Koordinator's ReleaseTargetType: what an evicted victim's figures are counted as. */
    enum Target { POD_USED, POD_RESOURCE_REQUEST, POD_BATCH_RESOURCE_REQUEST }
}
