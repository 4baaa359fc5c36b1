package io.colocation.koordlet.qos.cpusuppress;

import io.colocation.koordlet.qos.Processor;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Picks {@code count} CPUs for the BE tier as Koordinator's {@code calculateBESuppressCPUSetPolicy} does: CPUs
 * grouped by (NUMA node, socket), groups largest first; whole hyper-thread pairs first, round-robin over the
 * groups so BE is spread across NUMA nodes, then single CPUs. The result is in the order the CPUs were picked.
 */
final class CpuSetPicker {
    private CpuSetPicker() {
    }

    static List<Integer> pick(int count, List<Processor> processors) {
        List<Integer> picked = new ArrayList<>();
        int n = processors.size();
        if (n < count) {
            return picked; // Koordinator writes nothing rather than a smaller set
        }
        Map<Long, List<Processor>> byGroup = new LinkedHashMap<>();
        for (Processor p : processors) {
            long group = (long) (p.node() + n) * (p.socket() + 1);
            byGroup.computeIfAbsent(group, k -> new ArrayList<>()).add(p);
        }
        List<List<Processor>> buckets = new ArrayList<>(byGroup.values());
        Comparator<Processor> byCore = Comparator.comparingInt(Processor::core).thenComparingInt(Processor::cpu);
        buckets.forEach(b -> b.sort(byCore));
        buckets.sort((a, b) -> a.size() == b.size() ? Integer.compare(a.get(0).cpu(), b.get(0).cpu())
                : Integer.compare(b.size(), a.size()));

        int need = count;
        Set<Integer> used = new HashSet<>();
        // Whole cores first: a BE pair shares an L1/L2 with itself, not with an online thread.
        int previous = -1;
        int i = 0;
        for (; i < buckets.size(); i = (i + 1) % buckets.size()) {
            if (need <= 1) {
                break;
            }
            if (i == 0) {
                if (previous == need) {
                    break; // a full round picked nothing
                }
                previous = need;
            }
            List<Processor> bucket = buckets.get(i);
            for (int j = 0; j < bucket.size() - 1; j++) {
                if (used.contains(bucket.get(j).cpu())) {
                    continue;
                }
                if (bucket.get(j).core() == bucket.get(j + 1).core()) {
                    picked.add(bucket.get(j).cpu());
                    picked.add(bucket.get(j + 1).cpu());
                    used.add(bucket.get(j).cpu());
                    used.add(bucket.get(j + 1).cpu());
                    need -= 2;
                    break;
                }
            }
        }
        previous = -1;
        int start = i;
        for (; i < buckets.size(); i = (i + 1) % buckets.size()) {
            if (need <= 0) {
                break;
            }
            if (i == start) {
                if (previous == need) {
                    break;
                }
                previous = need;
            }
            for (Processor p : buckets.get(i)) {
                if (!used.contains(p.cpu())) {
                    picked.add(p.cpu());
                    used.add(p.cpu());
                    need--;
                    break;
                }
            }
        }
        return picked;
    }
}
