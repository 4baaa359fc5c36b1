package io.colocation.yarn.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.colocation.api.yarn.YarnGrant;
import java.util.stream.Stream;
import org.apache.hadoop.yarn.api.records.Resource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Why a node's scheduler capacity is not yet its grant, and when the update goes out again: a grant the scheduler
 * once enforced and lost is re-applied at once and logged; a scheduler merely behind an update its RMNode took is not
 * fed the same event again every second.
 */
class NodeCapacityLagTest {
    private static final YarnGrant GRANT = new YarnGrant("host-1:8041", 3, 7, 2, 4096, 0L);

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("enforced once, the capacity differs now", true, Resource.newInstance(8192, 8),
                        NodeCapacity.Lag.LOST, NodeCapacity.REDISPATCH_AFTER_MS),
                Arguments.of("enforced once, the RMNode still shows it", true, Resource.newInstance(4096, 2),
                        NodeCapacity.Lag.LOST, NodeCapacity.REDISPATCH_AFTER_MS),
                Arguments.of("the RMNode took it, the scheduler not yet", false, Resource.newInstance(4096, 2),
                        NodeCapacity.Lag.SCHEDULER_BEHIND, NodeCapacity.REDISPATCH_BEHIND_AFTER_MS),
                Arguments.of("the RMNode has other vcores", false, Resource.newInstance(4096, 3),
                        NodeCapacity.Lag.NOT_APPLIED, NodeCapacity.REDISPATCH_AFTER_MS),
                Arguments.of("the RMNode has other memory", false, Resource.newInstance(2048, 2),
                        NodeCapacity.Lag.NOT_APPLIED, NodeCapacity.REDISPATCH_AFTER_MS),
                Arguments.of("no RMNode", false, null, NodeCapacity.Lag.NOT_APPLIED, NodeCapacity.REDISPATCH_AFTER_MS));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void classifiesTheLagAndPacesTheNextUpdate(String name, boolean seenEnforced, Resource rmNodeTotal, NodeCapacity.Lag expected,
            long redispatchAfter) {
        NodeCapacity.Lag lag = NodeCapacity.Lag.of(seenEnforced, rmNodeTotal, GRANT);
        assertEquals(expected, lag);
        assertEquals(redispatchAfter, lag.redispatchAfterMillis());
    }
}
