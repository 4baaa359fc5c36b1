package io.colocation.koordlet.qos;

import io.colocation.koordlet.qos.evict.EvictionDecision;
import java.time.Duration;

/** A strategy that chooses victims; the strategies of one {@link Area} share a cool-down, the first to evict ends the area's round. */
public interface EvictionStrategy extends QoSStrategy<EvictionDecision> {
    /**
     * An eviction area and Koordinator's cool-down after an eviction in it; CPU also cools down from the agent's start.
     */
    enum Area {
        MEMORY("memory", Duration.ofSeconds(4), false), CPU("cpu", Duration.ofSeconds(20), true);

        private final String label;
        private final Duration coolDown;
        private final boolean coolsFromStart;

        Area(String label, Duration coolDown, boolean coolsFromStart) {
            this.label = label;
            this.coolDown = coolDown;
            this.coolsFromStart = coolsFromStart;
        }

        public String label() {
            return label;
        }

        public Duration coolDown() {
            return coolDown;
        }

        public boolean coolsFromStart() {
            return coolsFromStart;
        }
    }

    Area area();
}
