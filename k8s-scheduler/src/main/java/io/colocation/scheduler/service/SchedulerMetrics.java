package io.colocation.scheduler.service;

import io.prometheus.client.Collector;
import io.prometheus.client.CollectorRegistry;
import io.prometheus.client.GaugeMetricFamily;
import io.prometheus.client.Histogram;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/** The scheduler's counters and its Prometheus registry: attempts by result with their latency, the queue, Permit waits, leadership. */
final class SchedulerMetrics {
    final AtomicLong attempts = new AtomicLong();
    final AtomicLong bound = new AtomicLong();
    final AtomicLong unschedulable = new AtomicLong();
    final AtomicLong errors = new AtomicLong();
    private final CollectorRegistry registry = new CollectorRegistry();
    private final Histogram attemptSeconds = Histogram.build("koord_scheduler_attempt_duration_seconds",
            "one pod's scheduling attempt (decision and binding), by result").labelNames("result")
            .buckets(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1).register(registry);
    private final Supplier<Map<PendingQueue.Where, Integer>> pending;
    private final IntSupplier waiting;

    SchedulerMetrics(Supplier<Map<PendingQueue.Where, Integer>> pending, IntSupplier waiting, BooleanSupplier leading) {
        this.pending = pending;
        this.waiting = waiting;
        new Collector() {
            @Override
            public List<MetricFamilySamples> collect() {
                GaugeMetricFamily queues = new GaugeMetricFamily("koord_scheduler_pending_pods",
                        "pods of this scheduler waiting for a node, by queue (active, backoff, unschedulable; taken: being"
                                + " decided or bound)", List.of("queue"));
                pending.get().forEach((where, n) -> queues.addMetric(List.of(where.name().toLowerCase(java.util.Locale.ROOT)), n));
                return List.of(queues,
                        new GaugeMetricFamily("koord_scheduler_permit_waiting_pods",
                                "pods reserved on a node and waiting at Permit (gang members)", waiting.getAsInt()),
                        new GaugeMetricFamily("koord_scheduler_leader", "1 while this replica holds the Lease and binds",
                                leading.getAsBoolean() ? 1 : 0));
            }
        }.register(registry);
    }

    CollectorRegistry registry() {
        return registry;
    }

    /** An attempt ended with {@code result} ({@code scheduled}, {@code unschedulable}, {@code error}); it began at {@code startNanos}. */
    void attemptEnded(String result, long startNanos) {
        attemptSeconds.labels(result).observe((System.nanoTime() - startNanos) / 1e9);
    }

    Map<String, Long> counts() {
        return Map.of("attempts", attempts.get(), "bound", bound.get(), "unschedulable", unschedulable.get(),
                "errors", errors.get(), "pending", (long) pending.get().values().stream().mapToInt(Integer::intValue).sum(),
                "waiting", (long) waiting.getAsInt());
    }
}
