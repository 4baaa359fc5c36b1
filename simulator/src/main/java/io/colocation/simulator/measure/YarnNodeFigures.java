package io.colocation.simulator.measure;

/**
 * A node's YARN figures: capacity (the grant YARN's scheduler applies) and allocation as the scheduler holds them, and
 * the vcores of the grant the broker published ({@code publishedMilli}, -1 before the first), which the scheduler applies
 * once the plugin's update has made its way to it.
 */
public record YarnNodeFigures(long capacityMilli, long capacityMemory, long allocatedMilli, long allocatedMemory, long publishedMilli) {
    public static final YarnNodeFigures NONE = new YarnNodeFigures(0, 0, 0, 0, -1);
}
