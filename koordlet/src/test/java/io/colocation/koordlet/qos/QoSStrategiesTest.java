package io.colocation.koordlet.qos;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The registry: Koordinator's names, the round's order, and which area each eviction strategy cools down. */
class QoSStrategiesTest {
    @Test
    void registeredInTheRoundsOrder() {
        assertEquals(List.of("CPUSuppress", "BEMemoryHigh", "MemoryEvict", "MemoryPressureEvict", "CPUEvict"),
                List.copyOf(QoSStrategies.ALL.keySet()));
        assertEquals(List.of(EvictionStrategy.Area.MEMORY, EvictionStrategy.Area.MEMORY, EvictionStrategy.Area.CPU),
                QoSStrategies.evictions().stream().map(EvictionStrategy::area).toList(),
                "MemoryEvict before MemoryPressureEvict: the first that evicts ends the memory area's round");
    }
}
