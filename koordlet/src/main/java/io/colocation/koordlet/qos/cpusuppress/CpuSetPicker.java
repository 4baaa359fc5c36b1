package io.colocation.koordlet.qos.cpusuppress;

import io.colocation.koordlet.qos.Processor;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
        // taken[b][j]: the j-th CPU of bucket b is picked (each CPU sits in one bucket)
        boolean[][] taken = new boolean[buckets.size()][];
        for (int b = 0; b < buckets.size(); b++) {
            taken[b] = new boolean[buckets.get(b).size()];
        }
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
                if (taken[i][j]) {
                    continue;
                }
                if (bucket.get(j).core() == bucket.get(j + 1).core()) {
                    picked.add(bucket.get(j).cpu());
                    picked.add(bucket.get(j + 1).cpu());
                    taken[i][j] = true;
                    taken[i][j + 1] = true;
                    need -= 2;
                    break;
                }
            }
        }
        previous = -1;
        int start = i;
        // Each bucket's first unused CPU only moves forward: a cursor per bucket instead of a scan from its start.
        int[] cursor = new int[buckets.size()];
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
            while (cursor[i] < taken[i].length && taken[i][cursor[i]]) {
                cursor[i]++;
            }
            if (cursor[i] < taken[i].length) {
                taken[i][cursor[i]] = true;
                picked.add(buckets.get(i).get(cursor[i]++).cpu());
                need--;
            }
        }
        return picked;
    }
}
