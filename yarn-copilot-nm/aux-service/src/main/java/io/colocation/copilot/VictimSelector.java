package io.colocation.copilot;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Which containers to kill to free at least a given amount: tasks before ApplicationMasters (killing an
 * AM loses the whole attempt), newest first (least work lost), and no more than needed: when one
 * container covers what is still missing, the newest such one ends the choice, and any pick the others
 * already cover is dropped again.
 */
final class VictimSelector {
    private VictimSelector() {
    }

    static final Comparator<TrackedContainer> LOWEST_VALUE_FIRST = Comparator
            .comparing((TrackedContainer c) -> c.applicationMaster)
            .thenComparing(c -> -c.startTime)
            .thenComparing(c -> c.containerId, Comparator.reverseOrder());

    static List<TrackedContainer> choose(List<TrackedContainer> live, long cpuMilli, long memoryBytes) {
        List<TrackedContainer> candidates = new ArrayList<>(live);
        candidates.sort(LOWEST_VALUE_FIRST);
        List<TrackedContainer> chosen = new ArrayList<>();
        long needCpu = cpuMilli;
        long needMem = memoryBytes;
        for (boolean amPass : new boolean[] {false, true}) {
            List<TrackedContainer> group = new ArrayList<>(candidates.stream().filter(c -> c.applicationMaster == amPass).toList());
            while ((needCpu > 0 || needMem > 0) && !group.isEmpty()) {
                final long cpu = needCpu;
                final long mem = needMem;
                TrackedContainer pick = group.stream().filter(c -> cpuMilli(c) >= cpu && memoryBytes(c) >= mem)
                        .findFirst().orElse(group.get(0));
                group.remove(pick);
                chosen.add(pick);
                needCpu -= cpuMilli(pick);
                needMem -= memoryBytes(pick);
            }
        }
        // Drop picks that the rest already cover, most valuable first.
        List<TrackedContainer> byValueDesc = new ArrayList<>(chosen);
        byValueDesc.sort(LOWEST_VALUE_FIRST.reversed());
        for (TrackedContainer c : byValueDesc) {
            long cpuWithout = chosen.stream().filter(o -> o != c).mapToLong(VictimSelector::cpuMilli).sum();
            long memWithout = chosen.stream().filter(o -> o != c).mapToLong(VictimSelector::memoryBytes).sum();
            if (cpuWithout >= cpuMilli && memWithout >= memoryBytes) {
                chosen.remove(c);
            }
        }
        return chosen;
    }

    static long cpuMilli(TrackedContainer c) {
        return c.vcores * 1000L;
    }

    static long memoryBytes(TrackedContainer c) {
        return c.memoryMB * 1024L * 1024L;
    }
}
