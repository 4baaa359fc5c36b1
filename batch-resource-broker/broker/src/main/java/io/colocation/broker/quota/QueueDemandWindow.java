package io.colocation.broker.quota;

import io.colocation.api.yarn.YarnQueues;
import io.colocation.quota.YarnLeaf;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * A YARN leaf's demand as the tree counts it (docs/quota.md): what its queue holds now, and as its request the highest
 * allocated-plus-pending the queue reported within the window (a minute), each resource on its own. One application's
 * burst of asks, and its end, then moves the tree once instead of at every report; a new ask counts at once.
 */
public final class QueueDemandWindow {
    private record Sample(long atMillis, YarnLeaf.Amount request) {
    }

    private final long windowMillis;
    private final Map<String, Deque<Sample>> samples = new HashMap<>();

    public QueueDemandWindow(Duration window) {
        this.windowMillis = window.toMillis();
    }

    /** Adds the report's figures at {@code nowMillis}; returns each queue's demand by path. */
    public Map<String, YarnLeaf.Demand> sample(long nowMillis, Map<String, YarnQueues.Queue> queues) {
        samples.keySet().retainAll(queues.keySet());
        Map<String, YarnLeaf.Demand> out = new HashMap<>();
        for (Map.Entry<String, YarnQueues.Queue> e : queues.entrySet()) {
            YarnQueues.Queue q = e.getValue();
            YarnLeaf.Amount allocated = new YarnLeaf.Amount(q.allocatedVcores(), q.allocatedMemoryMB());
            YarnLeaf.Amount request = allocated.plus(new YarnLeaf.Amount(q.pendingVcores(), q.pendingMemoryMB()));
            Deque<Sample> window = samples.computeIfAbsent(e.getKey(), k -> new ArrayDeque<>());
            window.addLast(new Sample(nowMillis, request));
            while (window.peekFirst().atMillis() <= nowMillis - windowMillis) {
                window.removeFirst();
            }
            long vcores = 0;
            long memory = 0;
            for (Sample s : window) {
                vcores = Math.max(vcores, s.request().vcores());
                memory = Math.max(memory, s.request().memoryMB());
            }
            out.put(e.getKey(), new YarnLeaf.Demand(allocated, new YarnLeaf.Amount(Math.max(0, vcores - allocated.vcores()),
                    Math.max(0, memory - allocated.memoryMB()))));
        }
        return out;
    }
}
