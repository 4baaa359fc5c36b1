package io.colocation.broker.calculation;

import io.colocation.model.Resources;

import java.util.List;

/**
 * What the calculation needs of one node.
 *
 * @param capacity              {@code status.capacity} cpu/memory
 * @param allocatable           {@code status.allocatable} cpu/memory
 * @param annotationReserved    {@code node.koordinator.sh/reservation} (reservedCPUs already counted), or zero
 * @param cpuNormalizationRatio {@code node.koordinator.sh/cpu-normalization-ratio}, or null
 * @param thirdPartyBatch       sum of {@code koord-batch} entries of {@code node.koordinator.sh/thirdPartyAllocations},
 *                              or null when the annotation is absent
 * @param pods                  the pods whose {@code spec.nodeName} is this node
 */
public record NodeState(String name, Resources capacity, Resources allocatable, Resources annotationReserved,
        Double cpuNormalizationRatio, Resources thirdPartyBatch, List<PodState> pods) {

    /** {@code max(capacity - allocatable, 0)}: what the kubelet keeps back. */
    public Resources kubeletReserved() {
        return capacity.minus(allocatable).atLeastZero();
    }

    /** {@code max(kubeletReserved, annotationReserved)} per resource. */
    public Resources reserved() {
        return kubeletReserved().max(annotationReserved);
    }
}
