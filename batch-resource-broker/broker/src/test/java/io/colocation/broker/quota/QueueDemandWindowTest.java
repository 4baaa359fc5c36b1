package io.colocation.broker.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.colocation.api.yarn.YarnQueues;
import io.colocation.quota.YarnLeaf;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QueueDemandWindowTest {
    private static Map<String, YarnQueues.Queue> queue(int allocatedVcores, long allocatedMb, int pendingVcores, long pendingMb) {
        return Map.of("root.a", new YarnQueues.Queue(true, allocatedVcores, allocatedMb, pendingVcores, pendingMb, 0, 0, 0, 0));
    }

    private static YarnLeaf.Demand demand(long allocatedVcores, long allocatedMb, long pendingVcores, long pendingMb) {
        return new YarnLeaf.Demand(new YarnLeaf.Amount(allocatedVcores, allocatedMb), new YarnLeaf.Amount(pendingVcores, pendingMb));
    }

    @Test
    void aBurstCountsAtOnceAndIsHeldForTheWindowEachResourceOnItsOwn() {
        QueueDemandWindow window = new QueueDemandWindow(Duration.ofSeconds(60));
        assertEquals(demand(2, 2048, 0, 0), window.sample(0, queue(2, 2048, 0, 0)).get("root.a"));
        assertEquals(demand(2, 2048, 8, 1024), window.sample(10_000, queue(2, 2048, 8, 1024)).get("root.a"), "a new ask counts at once");
        // The burst is over: used stays as reported, the request is the window's highest (10 vcores, and 4096 MiB now).
        assertEquals(demand(3, 4096, 7, 0), window.sample(20_000, queue(3, 4096, 0, 0)).get("root.a"));
        assertEquals(demand(3, 4096, 7, 0), window.sample(69_999, queue(3, 4096, 0, 0)).get("root.a"));
        assertEquals(demand(3, 4096, 0, 0), window.sample(70_000, queue(3, 4096, 0, 0)).get("root.a"), "a minute after the burst");
    }

    @Test
    void aQueueNoLongerReportedIsForgotten() {
        QueueDemandWindow window = new QueueDemandWindow(Duration.ofSeconds(60));
        window.sample(0, queue(0, 0, 10, 10240));
        assertEquals(Map.of(), window.sample(1000, Map.of()));
        assertEquals(demand(0, 0, 0, 0), window.sample(2000, queue(0, 0, 0, 0)).get("root.a"));
    }
}
