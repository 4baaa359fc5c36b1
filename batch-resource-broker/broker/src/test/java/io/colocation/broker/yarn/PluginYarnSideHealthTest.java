package io.colocation.broker.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A plugin-mode YARN cluster's health from what its plugin wrote to ZooKeeper. */
class PluginYarnSideHealthTest {
    private static final Duration STALE = Duration.ofSeconds(30);

    static Stream<Arguments> cases() {
        return Stream.of(
                // connected, known nodes, fresh reports, demand report age (null: none), healthy, message says
                Arguments.of(false, 3, 3L, 1_000L, false, "ZooKeeper is not connected"),
                Arguments.of(true, 3, 1L, null, true, "1 of 3 nodes reported"),
                Arguments.of(true, 0, 0L, null, true, "0 of 0 nodes"),
                Arguments.of(true, 3, 0L, null, false, "no node report newer than 30 s"),
                Arguments.of(true, 3, 0L, 31_000L, false, "no node report newer than 30 s"),
                // every NodeManager gone (a chart uninstalled, a cluster drained), the ResourceManager up
                Arguments.of(true, 1, 0L, 5_000L, true, "the plugin reports, no NodeManager does"),
                Arguments.of(true, 0, 0L, 5_000L, true, "0 of 0 nodes"));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void healthFollowsThePluginsReports(boolean connected, int known, long fresh, Long pluginAge, boolean healthy, String says) {
        YarnSide.Health h = PluginYarnSide.health("c1", connected, known, fresh, pluginAge, STALE, 0);
        assertEquals(healthy, h.healthy(), h.message());
        assertTrue(h.message().contains(says), h.message());
    }
}
