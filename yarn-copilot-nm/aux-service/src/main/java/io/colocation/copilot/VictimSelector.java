package io.colocation.copilot;

import io.colocation.api.yarn.VictimOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which of this NodeManager's containers to kill to free at least a given amount, in the one victim order
 * the RM plugin and the koordlet share ({@link VictimOrder}): tasks before ApplicationMasters, newest first,
 * no more than needed. The NodeManager knows no application or request priorities: they count as equal.
 */
final class VictimSelector {
    private static final long MIB = 1024L * 1024L;

    private VictimSelector() {
    }

    static List<TrackedContainer> choose(List<TrackedContainer> live, long cpuMilli, long memoryBytes) {
        Map<String, TrackedContainer> byId = new HashMap<>();
        List<VictimOrder.Candidate> candidates = new ArrayList<>(live.size());
        for (TrackedContainer c : live) {
            byId.put(c.containerId, c);
            candidates.add(new VictimOrder.Candidate(c.containerId, c.applicationMaster, 0, 0, c.startTime, c.memoryMB, c.vcores));
        }
        // Round up: freeing 1 m of CPU or 1 byte takes a whole vcore or MiB.
        long vcores = (Math.max(cpuMilli, 0) + 999) / 1000;
        long memoryMB = (Math.max(memoryBytes, 0) + MIB - 1) / MIB;
        List<TrackedContainer> chosen = new ArrayList<>();
        for (VictimOrder.Candidate v : VictimOrder.choose(candidates, memoryMB, (int) Math.min(vcores, Integer.MAX_VALUE))) {
            chosen.add(byId.get(v.containerId()));
        }
        return chosen;
    }
}
