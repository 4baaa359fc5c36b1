package io.colocation.koordlet.qos.agent;

import io.colocation.koordlet.qos.YarnContainerState;
import io.colocation.model.Resources;
import io.colocation.model.node.YarnRelease;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Builds the graceful route's {@link YarnRelease} from the node's running YARN containers. */
final class YarnReleases {
    private YarnReleases() {
    }

    /**
     * Limit = YARN's allocation on the node minus what the leaving containers (this round's victims and those released
     * before that still run) hold, in the broker's units (1000m per vcore, bytes).
     */
    static YarnRelease of(List<YarnContainerState> running, Set<String> leaving, Instant expires, String reason) {
        Resources limit = Resources.ZERO;
        List<String> victims = new ArrayList<>();
        for (YarnContainerState c : running) {
            if (leaving.contains(c.id())) {
                victims.add(c.id());
            } else {
                limit = limit.plus(new Resources(c.cpuMilli(), c.memoryBytes()));
            }
        }
        return new YarnRelease(limit, expires, reason, victims);
    }
}
