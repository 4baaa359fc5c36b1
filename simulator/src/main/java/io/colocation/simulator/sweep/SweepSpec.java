package io.colocation.simulator.sweep;

import io.colocation.api.KoordinatorKeys;
import io.colocation.model.config.SloConfigKey;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code --sweep KEY=FROM..TO:STEP}: a threshold of the {@code slo-controller-config} and the values to run it at, FROM to
 * TO (both included) by STEP. The thresholds are the ones that trade cluster CPU against evictions and preemptions;
 * each value is checked by the broker's and the koordlet's own rules before anything starts.
 *
 * @param configMapKey the ConfigMap key that holds it: {@code colocation-config} (top level) or
 *                     {@code resource-threshold-config} (its {@code clusterStrategy})
 */
public record SweepSpec(String key, String configMapKey, List<Long> values) {
    /** The sweepable thresholds and the ConfigMap key each lives in. */
    public static final Map<String, String> KEYS = keys();
    /** Each value is a whole run of the real engine. */
    public static final int MAX_RUNS = 20;
    private static final Pattern FORM = Pattern.compile("([A-Za-z]+)=(-?\\d{1,9})\\.\\.(-?\\d{1,9}):(\\d{1,9})");

    /** Why a {@code --sweep} cannot be used, in one line. */
    public static final class Invalid extends Exception {
        private static final long serialVersionUID = 1L;

        Invalid(String message) {
            super(message);
        }
    }

    private static Map<String, String> keys() {
        Map<String, String> m = new LinkedHashMap<>();
        for (String k : List.of("cpuReclaimThresholdPercent", "memoryReclaimThresholdPercent")) {
            m.put(k, KoordinatorKeys.COLOCATION_CONFIG_KEY);
        }
        for (String k : List.of("cpuSuppressThresholdPercent", "memoryEvictThresholdPercent", "cpuEvictTimeWindowSeconds",
                "cpuEvictBESatisfactionLowerPercent", "cpuEvictBESatisfactionUpperPercent", "cpuEvictBEUsageThresholdPercent")) {
            m.put(k, SloConfigKey.RESOURCE_THRESHOLD.key());
        }
        return java.util.Collections.unmodifiableMap(m);
    }

    public static SweepSpec parse(String spec) throws Invalid {
        Matcher m = FORM.matcher(spec.trim());
        if (!m.matches()) {
            throw new Invalid("--sweep must be KEY=FROM..TO:STEP in whole numbers (for example cpuReclaimThresholdPercent=60..80:5),"
                    + " not '" + spec + "'");
        }
        String key = m.group(1);
        String holder = KEYS.get(key);
        if (holder == null) {
            throw new Invalid("--sweep: " + key + " is not a threshold the simulation sweeps; one of " + String.join(", ", KEYS.keySet()));
        }
        long from = Long.parseLong(m.group(2));
        long to = Long.parseLong(m.group(3));
        long step = Long.parseLong(m.group(4));
        if (step <= 0 || from > to) {
            throw new Invalid("--sweep: " + spec + " is an empty range: FROM must not be above TO, and STEP must be above 0");
        }
        long runs = (to - from) / step + 1;
        if (runs > MAX_RUNS) {
            throw new Invalid("--sweep: " + spec + " is " + runs + " runs; at most " + MAX_RUNS + " (take a larger STEP)");
        }
        List<Long> values = new ArrayList<>();
        for (long v = from; v <= to; v += step) {
            values.add(v);
        }
        return new SweepSpec(key, holder, List.copyOf(values));
    }

    /** {@code KEY=VALUE}: how one run is named (its report's folder). */
    public String run(long value) {
        return key + "=" + value;
    }
}
