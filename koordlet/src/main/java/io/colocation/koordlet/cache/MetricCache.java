package io.colocation.koordlet.cache;

import io.colocation.koordlet.collect.HostSample;
import io.colocation.koordlet.collect.Usage;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * The agent's memory of what it measured: a bounded series per thing (node, system, YARN as a whole, each pod and
 * host application) and the last sample. Node and system keep the longest window (the aggregated percentiles need 30
 * minutes by default); pods and host applications keep a shorter one (the average window and the prediction's
 * training window). Things not seen for their window are dropped. Written by the collector, read by the reporter and
 * the predictor. A YARN container has no series: nothing reads one (the strategies take its usage from the last
 * sample), and at 10 minutes a series costs about 14 KiB, so a host of 4,000 containers would need 56 MiB of the
 * agent's 64 MiB heap (issue 64).
 */
public final class MetricCache {
    /** {@code YARN} is the sum of all YARN containers (the {@code hadoop-yarn} host application). */
    public enum Kind { NODE, SYSTEM, YARN, POD, HOST_APP }

    public static final String NODE_ID = "";

    private final long intervalMillis;
    private final int nodeCapacity;
    private final int itemCapacity;
    private final Map<Kind, Map<String, Series>> series = new EnumMap<>(Kind.class);
    private volatile HostSample last;

    /**
     * @param nodeWindowSeconds how far back node and system usage is kept
     * @param itemWindowSeconds how far back each pod, host application and YARN container is kept
     */
    public MetricCache(int intervalSeconds, int nodeWindowSeconds, int itemWindowSeconds) {
        this.intervalMillis = intervalSeconds * 1000L;
        this.nodeCapacity = nodeWindowSeconds / intervalSeconds + 2;
        this.itemCapacity = itemWindowSeconds / intervalSeconds + 2;
        for (Kind k : Kind.values()) {
            series.put(k, new HashMap<>());
        }
    }

    public synchronized void append(HostSample s) {
        long t = s.timeMillis();
        add(Kind.NODE, NODE_ID, t, s.node());
        add(Kind.SYSTEM, NODE_ID, t, s.system());
        add(Kind.YARN, NODE_ID, t, s.yarn());
        s.pods().forEach((uid, u) -> add(Kind.POD, uid, t, u));
        s.hostApps().forEach((name, u) -> add(Kind.HOST_APP, name, t, u));
        long horizon = t - itemCapacity * intervalMillis;
        for (Kind k : new Kind[] {Kind.POD, Kind.HOST_APP}) {
            for (Iterator<Series> it = series.get(k).values().iterator(); it.hasNext(); ) {
                if (it.next().lastTime() < horizon) {
                    it.remove();
                }
            }
        }
        last = s;
    }

    private void add(Kind kind, String id, long t, Usage u) {
        int capacity = kind == Kind.NODE || kind == Kind.SYSTEM || kind == Kind.YARN ? nodeCapacity : itemCapacity;
        series.get(kind).computeIfAbsent(id, x -> new Series(capacity))
                .add(t, u.cpuCores(), u.hasMemory() ? u.memoryBytes() : Double.NaN);
    }

    /** CPU (cores) or memory (bytes) of one thing between two times, both inclusive. */
    public synchronized Points points(Kind kind, String id, boolean cpu, long fromMillis, long toMillis) {
        Series s = series.get(kind).get(id);
        return s == null ? Points.NONE : s.points(cpu, fromMillis, toMillis);
    }

    /** The newest sample, or null before the first. */
    public HostSample last() {
        return last;
    }
}
