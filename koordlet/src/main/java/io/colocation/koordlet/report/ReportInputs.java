package io.colocation.koordlet.report;

import io.colocation.koordlet.predict.ProdReclaimablePredictor;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Everything one NodeMetric status is built from, besides the metric cache.
 *
 * @param aggregateWindow    {@code aggregateDurationSeconds}: the window of every average
 * @param aggregateDurations {@code nodeAggregatePolicy.durations}
 * @param pods               this node's pods with their Koordinator priority and QoS names
 * @param hostApps           the NodeSLO's host applications (without YARN)
 * @param yarnAppName        the host application all YARN containers are reported as
 * @param prediction         the prod prediction, empty until the predictor has one
 */
public record ReportInputs(Instant now, Duration aggregateWindow, List<Duration> aggregateDurations, List<Pod> pods,
        List<HostApp> hostApps, String yarnAppName, Optional<ProdReclaimablePredictor.Result> prediction) {

    public record Pod(String uid, String namespace, String name, String priority, String qos) {
    }

    public record HostApp(String name, String priority, String qos) {
    }
}
