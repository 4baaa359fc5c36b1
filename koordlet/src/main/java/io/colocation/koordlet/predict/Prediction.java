package io.colocation.koordlet.predict;

import io.colocation.model.Resources;

/**
 * What the predict server serves for one model (docs/koordinator-compatibility.md §13): CPU in milli-cores
 * ({@code int64(p × 1000)}) and memory in bytes ({@code int64(p)}) at each reported percentile.
 */
public record Prediction(Resources p60, Resources p90, Resources p95, Resources p98, Resources max) {
    /** The peak the predictors use: p95 CPU, p98 memory. */
    public Resources peak() {
        return new Resources(p95.cpuMilli(), p98.memoryBytes());
    }
}
