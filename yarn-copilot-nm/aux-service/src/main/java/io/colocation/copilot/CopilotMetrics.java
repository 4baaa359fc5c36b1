package io.colocation.copilot;

import org.apache.hadoop.metrics2.annotation.Metric;
import org.apache.hadoop.metrics2.annotation.Metrics;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.lib.MutableCounterLong;
import org.apache.hadoop.metrics2.lib.MutableGaugeInt;

/** Hadoop metrics2 source (in the NodeManager's JMX and metrics sinks as {@code YarnCopilot}). */
@Metrics(about = "YARN copilot aux service: containers tracked, kills, API requests", context = "yarn")
final class CopilotMetrics {
    static final String SOURCE = "YarnCopilot";

    @Metric("Containers the copilot tracks (live and recently finished)")
    MutableGaugeInt containersTracked;
    @Metric("Containers killed through the copilot API")
    MutableCounterLong containersKilled;
    @Metric("Local API requests served")
    MutableCounterLong apiRequests;
    @Metric("Local API requests refused (bad request, forbidden, unauthorized)")
    MutableCounterLong apiRequestsRefused;

    static CopilotMetrics register() {
        return DefaultMetricsSystem.instance().register(SOURCE, "YARN copilot aux service", new CopilotMetrics());
    }

    void unregister() {
        DefaultMetricsSystem.instance().unregisterSource(SOURCE);
    }
}
