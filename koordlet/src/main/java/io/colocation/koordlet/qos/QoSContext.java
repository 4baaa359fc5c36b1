package io.colocation.koordlet.qos;

import io.colocation.koordlet.qos.evict.MemoryPressureEvict;

/**
 * What a round gives its strategies besides the snapshot: the agent's switches beyond Koordinator's feature gates and
 * the host's memory pressure stall.
 *
 * @param beMemoryHigh              {@code memory.high} on the BE tier is on
 * @param memoryPressure            the memory-pressure eviction settings
 * @param memorySomeAvg10           the host's memory "some avg10" now (percent; NaN without PSI)
 * @param memoryPressureHighSeconds how long it has been at or above the threshold without a break
 */
public record QoSContext(boolean beMemoryHigh, MemoryPressureEvict.Settings memoryPressure, double memorySomeAvg10,
        long memoryPressureHighSeconds) {

    /** What {@code explain} decides with: the agent's switches off, no pressure stall information. */
    public static QoSContext offline() {
        return new QoSContext(false, new MemoryPressureEvict.Settings(false, 40, 5), Double.NaN, 0);
    }
}
