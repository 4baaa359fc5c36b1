package io.colocation.simulator.measure;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How long a node's new usage takes to become its published Batch: from the koordlet's latest NodeMetric report to the
 * change of the node's {@code originExtendedAllocatable} that followed it (wall-clock milliseconds). A report that changes
 * nothing published is not counted; a publication without a report since the last one (a pod's change) neither.
 */
public final class PublishLag {
    private final Map<String, Long> reportedAtNanos = new ConcurrentHashMap<>();
    private final List<Long> lagsMillis = new ArrayList<>();

    /** A koordlet reported its node's usage now. */
    public void reported(String node) {
        reportedAtNanos.put(node, System.nanoTime());
    }

    /** The node's published Batch changed now. */
    public void published(String node) {
        Long at = reportedAtNanos.remove(node);
        if (at != null) {
            long lag = (System.nanoTime() - at) / 1_000_000;
            synchronized (lagsMillis) {
                lagsMillis.add(lag);
            }
        }
    }

    public List<Long> lagsMillis() {
        synchronized (lagsMillis) {
            return new ArrayList<>(lagsMillis);
        }
    }
}
