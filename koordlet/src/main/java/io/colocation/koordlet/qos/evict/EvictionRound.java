package io.colocation.koordlet.qos.evict;

import io.colocation.koordlet.qos.Victim;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Koordinator's {@code KillAndEvictPods} for one area (memory or CPU): the tasks run in order over one shared
 * account; each evicts down its own order until what its target has released covers what it asked for. A victim
 * counts once, with the largest figure any enabled task gives it per target; a victim evicted by an earlier task
 * is not evicted again.
 */
final class EvictionRound {
    record Result(Map<String, List<Victim>> victimsByGate, List<Victim> victims) {
    }

    private EvictionRound() {
    }

    static Result run(List<EvictionTask> tasks) {
        Map<EvictionTask.Target, Map<String, Long>> released = new EnumMap<>(EvictionTask.Target.class);
        List<Map.Entry<EvictionTask.Target, Function<Candidate, Map<String, Long>>>> counters = new ArrayList<>();
        for (EvictionTask task : tasks) {
            if (task.release().values().stream().anyMatch(v -> v > 0)) {
                released.computeIfAbsent(task.target(), k -> new LinkedHashMap<>());
                counters.add(Map.entry(task.target(), task.releasedBy()));
            }
        }
        Set<Victim> evicted = new LinkedHashSet<>();
        Map<String, List<Victim>> byGate = new LinkedHashMap<>();
        for (EvictionTask task : tasks) {
            List<Victim> mine = new ArrayList<>();
            byGate.put(task.gate(), mine);
            Map<String, Long> need = remaining(task.release(), released.get(task.target()));
            if (need.isEmpty()) {
                continue;
            }
            for (Candidate c : task.candidates()) {
                if (!evicted.add(c.victim())) {
                    continue;
                }
                mine.add(c.victim());
                count(released, c, counters);
                if (remaining(need, released.get(task.target())).isEmpty()) {
                    break;
                }
            }
        }
        return new Result(byGate, List.copyOf(evicted));
    }

    /** What is still to release: each positive entry of {@code want} above what was released. */
    private static Map<String, Long> remaining(Map<String, Long> want, Map<String, Long> got) {
        Map<String, Long> out = new LinkedHashMap<>();
        want.forEach((r, v) -> {
            long done = got == null ? 0 : got.getOrDefault(r, 0L);
            if (v > done) {
                out.put(r, v - done);
            }
        });
        return out;
    }

    private static void count(Map<EvictionTask.Target, Map<String, Long>> released, Candidate c,
            List<Map.Entry<EvictionTask.Target, Function<Candidate, Map<String, Long>>>> counters) {
        Map<EvictionTask.Target, Map<String, Long>> mostByTarget = new EnumMap<>(EvictionTask.Target.class);
        for (Map.Entry<EvictionTask.Target, Function<Candidate, Map<String, Long>>> counter : counters) {
            Map<String, Long> figures = counter.getValue().apply(c);
            Map<String, Long> most = mostByTarget.computeIfAbsent(counter.getKey(), k -> new LinkedHashMap<>());
            figures.forEach((r, v) -> most.merge(r, v, Math::max));
        }
        mostByTarget.forEach((target, figures) -> {
            Map<String, Long> account = released.computeIfAbsent(target, k -> new LinkedHashMap<>());
            figures.forEach((r, v) -> account.merge(r, v, Long::sum));
        });
    }
}
