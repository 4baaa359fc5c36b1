package io.colocation.simulator.measure;

import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The k8s-scheduler's attempt latency, from its Prometheus histogram {@code koord_scheduler_attempt_duration_seconds}. */
public final class SchedulerAttemptLatency {
    private static final Pattern BUCKET = Pattern.compile(
            "koord_scheduler_attempt_duration_seconds_bucket\\{([^}]*)le=\"([^\"]+)\"[^}]*}\\s+([0-9.eE+-]+)");

    private SchedulerAttemptLatency() {
    }

    /**
     * The 99th percentile of every attempt (all results), in milliseconds, as the upper bound of the bucket it falls in
     * (NaN without the metric; the largest finite bound when it falls in +Inf).
     */
    public static double p99Millis(String text) {
        if (text == null) {
            return Double.NaN;
        }
        TreeMap<Double, Double> cumulative = new TreeMap<>();
        Matcher m = BUCKET.matcher(text);
        while (m.find()) {
            double le = m.group(2).equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(m.group(2));
            cumulative.merge(le, Double.parseDouble(m.group(3)), Double::sum);
        }
        if (cumulative.isEmpty()) {
            return Double.NaN;
        }
        double total = cumulative.lastEntry().getValue();
        double lastFinite = Double.NaN;
        for (var e : cumulative.entrySet()) {
            if (Double.isFinite(e.getKey())) {
                lastFinite = e.getKey();
            }
            if (e.getValue() >= 0.99 * total) {
                return (Double.isFinite(e.getKey()) ? e.getKey() : lastFinite) * 1000;
            }
        }
        return lastFinite * 1000;
    }
}
