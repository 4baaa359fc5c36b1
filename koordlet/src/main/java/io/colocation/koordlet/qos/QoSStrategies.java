package io.colocation.koordlet.qos;

import io.colocation.koordlet.qos.cpusuppress.CpuSuppress;
import io.colocation.koordlet.qos.cpusuppress.CpuSuppressDecision;
import io.colocation.koordlet.qos.evict.CpuEvict;
import io.colocation.koordlet.qos.evict.EvictionDecision;
import io.colocation.koordlet.qos.evict.MemoryEvict;
import io.colocation.koordlet.qos.evict.MemoryPressureEvict;
import io.colocation.koordlet.qos.memory.BeMemoryHigh;
import io.colocation.koordlet.qos.EvictionStrategy.Area;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * The koordlet's QoS strategies, registered in one map (Koordinator's {@code qosmanager} plugin registry), in the order
 * a round runs them. The QoS manager enforces CPU suppress and memory.high and carries out the eviction strategies area
 * by area; {@code explain} decides with the same entries.
 */
public final class QoSStrategies {
    public static final QoSStrategy<CpuSuppressDecision> CPU_SUPPRESS = strategy("CPUSuppress", (s, c) -> CpuSuppress.decide(s));
    public static final QoSStrategy<BeMemoryHigh.Decision> BE_MEMORY_HIGH = strategy("BEMemoryHigh",
            (s, c) -> BeMemoryHigh.decide(s, c.beMemoryHigh()));
    public static final EvictionStrategy MEMORY_EVICT = eviction("MemoryEvict", EvictionStrategy.Area.MEMORY,
            (s, c) -> MemoryEvict.decide(s));
    public static final EvictionStrategy MEMORY_PRESSURE_EVICT = eviction(MemoryPressureEvict.NAME, EvictionStrategy.Area.MEMORY,
            (s, c) -> MemoryPressureEvict.decide(s, c.memoryPressure(), c.memorySomeAvg10(), c.memoryPressureHighSeconds()));
    public static final EvictionStrategy CPU_EVICT = eviction("CPUEvict", EvictionStrategy.Area.CPU, (s, c) -> CpuEvict.decide(s));

    /** Every strategy by name, in the order a round runs them. */
    public static final Map<String, QoSStrategy<?>> ALL = register(CPU_SUPPRESS, BE_MEMORY_HIGH, MEMORY_EVICT, MEMORY_PRESSURE_EVICT,
            CPU_EVICT);

    private QoSStrategies() {
    }

    /** The eviction strategies in the registry's order (an area's first strategy evicts before its second is tried). */
    public static List<EvictionStrategy> evictions() {
        return ALL.values().stream().filter(EvictionStrategy.class::isInstance).map(EvictionStrategy.class::cast).toList();
    }

    private static Map<String, QoSStrategy<?>> register(QoSStrategy<?>... strategies) {
        Map<String, QoSStrategy<?>> m = new LinkedHashMap<>();
        for (QoSStrategy<?> s : strategies) {
            if (m.put(s.name(), s) != null) {
                throw new IllegalStateException("QoS strategy " + s.name() + " registered twice");
            }
        }
        return java.util.Collections.unmodifiableMap(m);
    }

    private static <D> QoSStrategy<D> strategy(String name, BiFunction<NodeSnapshot, QoSContext, D> decide) {
        return new Registered<>(name, decide);
    }

    private static EvictionStrategy eviction(String name, EvictionStrategy.Area area,
            BiFunction<NodeSnapshot, QoSContext, EvictionDecision> decide) {
        return new RegisteredEviction(name, area, decide);
    }

    private record Registered<D>(String name, BiFunction<NodeSnapshot, QoSContext, D> decision) implements QoSStrategy<D> {
        @Override
        public D decide(NodeSnapshot snapshot, QoSContext context) {
            return decision.apply(snapshot, context);
        }
    }

    private record RegisteredEviction(String name, Area area, BiFunction<NodeSnapshot, QoSContext, EvictionDecision> decision)
            implements EvictionStrategy {
        @Override
        public EvictionDecision decide(NodeSnapshot snapshot, QoSContext context) {
            return decision.apply(snapshot, context);
        }
    }
}
