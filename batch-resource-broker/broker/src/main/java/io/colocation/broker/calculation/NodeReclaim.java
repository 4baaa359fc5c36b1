package io.colocation.broker.calculation;

import io.colocation.model.Resources;

import java.util.List;
import java.util.Map;

/**
 * One node's result after Koordinator's Prepare stage.
 *
 * @param allocatable the extended resources that would be written to the node's status (batch-cpu and
 *                    mid-cpu in milli-cores, memory in bytes); a reset resource is absent
 * @param originBatch the Batch before third-party (YARN) allocations are subtracted, as recorded in
 *                    {@code node.koordinator.sh/originExtendedAllocatable}; 0/0 when reset
 * @param degraded    the NodeMetric was missing or stale
 * @param explain     how each figure was derived, one line each
 */
public record NodeReclaim(String name, Map<String, Long> allocatable, Resources originBatch, boolean degraded,
        List<String> explain) {
}
