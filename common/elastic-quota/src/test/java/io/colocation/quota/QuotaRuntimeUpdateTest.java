package io.colocation.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Recomputing only what a change affects gives what computing anew gives: random 3-level trees (contended and not, with
 * and without min scaling, lending and not), random changes of mins, maxes, weights, lending, own requests and the
 * total, one or several at a time, each runtime updated from the last compared with one computed from scratch.
 */
class QuotaRuntimeUpdateTest {
    private static final ResourceAmounts BIG = ResourceAmounts.of("cpu", 1L << 40, "memory", 1L << 50);

    private record World(Random random, Map<String, ElasticQuotaSpec> specs, Map<String, ResourceAmounts> requests) {
        ResourceAmounts amounts(long scale) {
            return ResourceAmounts.of("cpu", (long) random.nextInt(10) * scale, "memory", (long) random.nextInt(10) * scale * 4);
        }

        ElasticQuotaSpec spec(String name, String parent, boolean isParent, long scale) {
            ResourceAmounts min = amounts(scale);
            ResourceAmounts max = min.plus(amounts(scale));
            ResourceAmounts weight = random.nextInt(4) == 0 ? amounts(1).plus(ResourceAmounts.of("cpu", 1L, "memory", 1L)) : max;
            return new ElasticQuotaSpec(name, name, parent, isParent, random.nextInt(4) != 0, min, max, weight, List.of(), null);
        }

        QuotaDirectory directory() {
            return QuotaDirectory.of(specs.values(), "koordinator-system", BIG, BIG);
        }

        QuotaUsage own(String quota) {
            ResourceAmounts r = requests.getOrDefault(quota, ResourceAmounts.NONE);
            ElasticQuotaSpec spec = specs.get(quota);
            ResourceAmounts masked = spec == null ? r : r.masked(spec.max().names());
            return new QuotaUsage(masked, ResourceAmounts.NONE, ResourceAmounts.NONE, ResourceAmounts.NONE);
        }
    }

    @Test
    void anUpdatedRuntimeEqualsOneComputedAnew() {
        for (int seed = 0; seed < 40; seed++) {
            World w = new World(new Random(seed), new TreeMap<>(), new TreeMap<>());
            List<String> leaves = new ArrayList<>();
            List<String> parents = new ArrayList<>();
            for (int o = 0; o < 3 + w.random().nextInt(3); o++) {
                String org = "org-" + o;
                w.specs().put(org, w.spec(org, QuotaTree.ROOT, true, 100));
                parents.add(org);
                for (int d = 0; d < 1 + w.random().nextInt(3); d++) {
                    String dept = org + "-d" + d;
                    w.specs().put(dept, w.spec(dept, org, true, 30));
                    parents.add(dept);
                    for (int t = 0; t < 1 + w.random().nextInt(4); t++) {
                        String team = dept + "-t" + t;
                        w.specs().put(team, w.spec(team, dept, false, 10));
                        leaves.add(team);
                    }
                }
            }
            leaves.forEach(t -> w.requests().put(t, w.amounts(12)));
            boolean scaleMin = seed % 3 != 0;
            ResourceAmounts total = w.amounts(200 + seed * 40L);
            QuotaRuntime runtime = QuotaRuntime.compute(w.directory(), w::own, total, scaleMin);
            for (int step = 0; step < 60; step++) {
                Set<String> changed = new HashSet<>();
                for (int n = 0; n < 1 + w.random().nextInt(3); n++) {
                    switch (w.random().nextInt(6)) {
                        case 0, 1 -> {
                            String team = leaves.get(w.random().nextInt(leaves.size()));
                            w.requests().put(team, w.amounts(12));
                            changed.add(team);
                        }
                        case 2 -> {
                            String team = leaves.get(w.random().nextInt(leaves.size()));
                            ElasticQuotaSpec was = w.specs().get(team);
                            w.specs().put(team, w.spec(team, was.parent(), false, 10));
                            changed.add(team);
                        }
                        case 3 -> {
                            String parent = parents.get(w.random().nextInt(parents.size()));
                            ElasticQuotaSpec was = w.specs().get(parent);
                            w.specs().put(parent, w.spec(parent, was.parent(), true, was.parent().equals(QuotaTree.ROOT) ? 100 : 30));
                            changed.add(parent);
                        }
                        case 4 -> w.requests().put(QuotaDirectory.DEFAULT, w.amounts(5));
                        default -> total = w.amounts(200 + seed * 40L);
                    }
                }
                if (w.random().nextBoolean()) {
                    changed.add(QuotaDirectory.DEFAULT);
                }
                QuotaDirectory directory = w.directory();
                runtime = runtime.updated(directory, changed, w::own, total);
                QuotaRuntime anew = QuotaRuntime.compute(directory, w::own, total, scaleMin);
                assertEquals(anew.entries().size(), runtime.entries().size());
                for (int i = 0; i < anew.entries().size(); i++) {
                    assertEquals(anew.entries().get(i), runtime.entries().get(i), "seed " + seed + ", step " + step + ", changed " + changed
                            + ": " + anew.entries().get(i).spec().name());
                }
            }
        }
    }
}
