package io.colocation.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.colocation.api.InvalidInputException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A tree over Batch (Koordinator's multi-tree form with YARN leaves): the forest's split by tree-id, the runtime of a
 * tree whose leaves are Kubernetes quotas and YARN queues, the CapacityScheduler limits that follow, and the
 * webhook's rules for such trees.
 */
class TreeOverBatchTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String P = "quota.scheduling.koordinator.sh/";
    private static final long GI = 1L << 30;

    private static JsonNode object(String name, String labels, String annotations, String min, String max) throws Exception {
        return JSON.readTree("{\"metadata\": {\"name\": \"" + name + "\", \"namespace\": \"batch\", \"labels\": {" + labels
                + "}, \"annotations\": {" + annotations + "}}, \"spec\": {\"min\": {" + min + "}, \"max\": {" + max + "}}}");
    }

    private static String batch(String cpu, String memory) {
        return "\"kubernetes.io/batch-cpu\": \"" + cpu + "\", \"kubernetes.io/batch-memory\": \"" + memory + "\"";
    }

    private static final String FULL = batch("60000", "240Gi");

    /** Koordinator's illustration on Batch: A lends (4 of min 10), B (a YARN queue) and C (weight 2) share the rest. */
    private static List<ElasticQuotaSpec> tree() throws Exception {
        String member = "\"" + P + "tree-id\": \"batch\", \"" + P + "parent\": \"batch-root\"";
        List<ElasticQuotaSpec> out = new ArrayList<>();
        out.add(ElasticQuotaSpec.read(object("batch-root", "\"" + P + "tree-id\": \"batch\", \"" + P + "is-root\": \"true\", \"" + P
                + "is-parent\": \"true\"", "\"" + P + "total-resource\": \"{" + FULL.replace("\"", "\\\"") + "}\"", FULL, FULL)));
        String weight1 = "\"" + P + "shared-weight\": \"{\\\"kubernetes.io/batch-cpu\\\": \\\"1\\\", \\\"kubernetes.io/batch-memory\\\": \\\"1\\\"}\"";
        String weight2 = weight1.replace("\\\"1\\\"", "\\\"2\\\"");
        out.add(ElasticQuotaSpec.read(object("team-a", member, weight1 + ", \"" + P + "namespaces\": \"[\\\"team-a\\\"]\"",
                batch("10000", "40Gi"), FULL)));
        out.add(ElasticQuotaSpec.read(object("team-b", member, weight1 + ", \"colocation.io/yarn-queue\": \"root.org.team-b\"",
                batch("10000", "40Gi"), FULL)));
        out.add(ElasticQuotaSpec.read(object("team-c", member, weight2, batch("20000", "80Gi"), FULL)));
        out.add(ElasticQuotaSpec.read(object("plain", "", "", "\"cpu\": \"1\"", "\"cpu\": \"2\"")));
        return out;
    }

    private static ResourceAmounts amounts(long cpuMilli, long memoryBytes) {
        return ResourceAmounts.of("kubernetes.io/batch-cpu", cpuMilli, "kubernetes.io/batch-memory", memoryBytes);
    }

    @Test
    void aTreeWithYarnAndKubernetesLeavesSharesItsTotalAsKoordinatorDoes() throws Exception {
        List<ElasticQuotaSpec> specs = tree();
        QuotaForest forest = QuotaForest.of(specs);
        assertEquals(List.of("plain"), forest.defaultTree().stream().map(ElasticQuotaSpec::name).toList());
        QuotaForest.Tree t = forest.trees().get("batch");
        assertEquals("batch-root", t.root().name());
        assertEquals(amounts(60000, 240 * GI), t.total());
        assertNull(t.totalNote());
        ElasticQuotaSpec b = specs.get(2);
        Map<String, QuotaUsage> own = Map.of(
                "team-a", new QuotaUsage(amounts(4000, 8 * GI), amounts(4000, 8 * GI), ResourceAmounts.NONE, ResourceAmounts.NONE),
                "team-b", YarnLeaf.usage(b.max(), new YarnLeaf.Demand(new YarnLeaf.Amount(30, 60 * 1024), new YarnLeaf.Amount(10, 20 * 1024))),
                "team-c", new QuotaUsage(amounts(50000, 100 * GI), amounts(30000, 50 * GI), ResourceAmounts.NONE, ResourceAmounts.NONE));
        QuotaRuntime runtime = t.runtime(q -> own.getOrDefault(q, QuotaUsage.NONE), true);
        assertEquals(Map.of(), runtime.problems());
        assertEquals(amounts(40000, 80 * GI), runtime.get("team-b").state().request(), "allocated + pending, in milli-cores and bytes");
        // CPU: 60000 - 4000 (A lends) - 10000 - 20000 = 26000 shared 1:2, the odd unit to B's larger remainder.
        assertEquals(amounts(4000, 8 * GI), runtime.get("team-a").state().runtime());
        assertEquals(amounts(18667, 80 * GI), runtime.get("team-b").state().runtime());
        assertEquals(amounts(37333, 100 * GI), runtime.get("team-c").state().runtime());

        List<YarnQueueLimit> limits = YarnQueueLimit.of(runtime);
        assertEquals(List.of("root.org", "root.org.team-b"), limits.stream().map(YarnQueueLimit::queue).toList());
        YarnQueueLimit leaf = limits.get(1);
        assertEquals("team-b", leaf.quota());
        assertEquals(Map.of("yarn.scheduler.capacity.root.org.team-b.capacity", "[memory=40960,vcores=10]",
                "yarn.scheduler.capacity.root.org.team-b.maximum-capacity", "[memory=81920,vcores=18]"), leaf.properties(),
                "whole vcores rounded down: 18.667 cores is 18");
        assertNull(limits.get(0).quota());
        assertEquals(leaf.maximumCapacity(), limits.get(0).maximumCapacity(), "a queue above leaves holds their sum");
    }

    @Test
    void aLeafsMaximumNeverFallsBelowItsMin() throws Exception {
        List<ElasticQuotaSpec> specs = tree();
        QuotaRuntime runtime = QuotaForest.of(specs).trees().get("batch").runtime(q -> q.equals("team-b")
                ? YarnLeaf.usage(specs.get(2).max(), new YarnLeaf.Demand(new YarnLeaf.Amount(2, 4096), YarnLeaf.Amount.NONE)) : QuotaUsage.NONE, true);
        assertEquals(amounts(2000, 4 * GI), runtime.get("team-b").state().runtime(), "a lending queue's runtime is its demand");
        YarnQueueLimit leaf = YarnQueueLimit.of(runtime).get(1);
        assertEquals(new YarnLeaf.Amount(10, 40960), leaf.capacity(), "its min");
        assertEquals(leaf.capacity(), leaf.maximumCapacity(), "YARN refuses capacity > maximum; the min is the tenant's guarantee");
    }

    @Test
    void anAllZeroAmountIsOneMebibyteForYarnReadsZeroAsNoSetting() {
        assertEquals(new YarnLeaf.Amount(0, 1), YarnLeaf.Amount.NONE.readable());
        assertEquals("[memory=1,vcores=0]", YarnLeaf.Amount.NONE.readable().absolute());
        assertEquals(new YarnLeaf.Amount(1, 0), new YarnLeaf.Amount(1, 0).readable());
    }

    @Test
    void treesWithoutARootOrWithTwoLeaveQuotasOut() throws Exception {
        List<ElasticQuotaSpec> specs = new ArrayList<>(tree());
        specs.add(ElasticQuotaSpec.read(object("orphan", "\"" + P + "tree-id\": \"gone\"", "", "", FULL)));
        specs.add(ElasticQuotaSpec.read(object("second-root", "\"" + P + "tree-id\": \"batch\", \"" + P + "is-root\": \"true\"", "", FULL, FULL)));
        QuotaForest forest = QuotaForest.of(specs);
        assertEquals(Map.of("batch/orphan", "tree gone has no root (a quota with label quota.scheduling.koordinator.sh/is-root: \"true\" and this tree-id)",
                "batch/second-root", "tree batch has its root already: batch-root"), forest.problems());
        assertEquals(List.of("batch"), List.copyOf(forest.trees().keySet()));
    }

    @Test
    void aRootWithoutTotalUsesItsMinAndSaysSo() throws Exception {
        ElasticQuotaSpec root = ElasticQuotaSpec.read(object("r", "\"" + P + "tree-id\": \"t\", \"" + P + "is-root\": \"true\"", "", FULL, FULL));
        QuotaForest.Tree t = QuotaForest.of(List.of(root)).trees().get("t");
        assertEquals(amounts(60000, 240 * GI), t.total());
        assertTrue(t.totalNote().contains("has no annotation quota.scheduling.koordinator.sh/total-resource"), t.totalNote());
    }

    @Test
    void anUnreadableTotalIsNamed() {
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> ElasticQuotaSpec.read(object("r",
                "\"" + P + "is-root\": \"true\"", "\"" + P + "total-resource\": \"{cpu: 1\"", "", "")));
        assertTrue(e.getMessage().startsWith("ElasticQuota batch/r: annotation quota.scheduling.koordinator.sh/total-resource is not a JSON"
                + " ResourceList"), e.getMessage());
        InvalidInputException negative = assertThrows(InvalidInputException.class, () -> ElasticQuotaSpec.read(object("r",
                "", "\"" + P + "total-resource\": \"{\\\"cpu\\\": \\\"-1\\\"}\"", "", "")));
        assertEquals("ElasticQuota batch/r: annotation quota.scheduling.koordinator.sh/total-resource.cpu: negative quantity \"-1\"",
                negative.getMessage());
    }

    @Test
    void yarnUnitsAndPaths() {
        ResourceAmounts max = amounts(1, 1);
        assertEquals(amounts(3000, 5L << 20), YarnLeaf.amounts(new YarnLeaf.Amount(3, 5), max));
        assertEquals(new YarnLeaf.Amount(2, 1), YarnLeaf.amount(amounts(2999, (2L << 20) - 1), max), "rounded down towards YARN");
        assertEquals("cpu", YarnLeaf.cpuName(ResourceAmounts.of("cpu", 1L, "memory", 1L)));
        assertEquals("kubernetes.io/batch-cpu", YarnLeaf.cpuName(ResourceAmounts.of("cpu", 1L, "kubernetes.io/batch-cpu", 1L)),
                "a tree over Batch counts YARN in Batch");
        assertNull(YarnLeaf.memoryName(ResourceAmounts.of("cpu", 1L)));
        for (String ok : List.of("root.a", "root.team-a", "root.org.team_a")) {
            assertTrue(YarnLeaf.validPath(ok), ok);
        }
        for (String bad : List.of("root", "team-a", "root.", "root..a", "root.a b", "root.a,root.b", "root.a=1", "default.a")) {
            assertFalse(YarnLeaf.validPath(bad), bad);
        }
    }

    private static List<String> problems(JsonNode object) throws Exception {
        ElasticQuotaSpec next = ElasticQuotaSpec.read(object);
        return QuotaValidation.problems(next, null, object, tree(), () -> false);
    }

    @Test
    void theWebhookKeepsTreesAndYarnLeavesWhole() throws Exception {
        String member = "\"" + P + "tree-id\": \"batch\", \"" + P + "parent\": \"batch-root\"";
        record Case(String name, JsonNode object, List<String> problems) {
        }
        List<Case> cases = List.of(
                new Case("a fine YARN leaf", object("team-d", member, "\"colocation.io/yarn-queue\": \"root.team-d\"", "", FULL), List.of()),
                new Case("children's mins are not summed against a tree root's", object("team-e", member, "", FULL, FULL), List.of()),
                new Case("a root without tree-id, under a parent", object("r", "\"" + P + "is-root\": \"true\", \"" + P + "parent\": \"batch-root\"",
                        "", "", FULL), List.of("label quota.scheduling.koordinator.sh/is-root: a tree root needs a quota.scheduling.koordinator.sh/tree-id label",
                                "label quota.scheduling.koordinator.sh/is-root: a tree root sits under koordinator-root-quota (no"
                                        + " quota.scheduling.koordinator.sh/parent label), not under batch-root")),
                new Case("another tree than its parent's", object("x", "\"" + P + "tree-id\": \"other\", \"" + P + "parent\": \"batch-root\"", "", "",
                        FULL), List.of("label quota.scheduling.koordinator.sh/tree-id other: its parent batch-root is in batch (a quota is in its"
                                + " parent's tree)")),
                new Case("a tree member under the root", object("x", "\"" + P + "tree-id\": \"batch\"", "", "", FULL),
                        List.of("label quota.scheduling.koordinator.sh/tree-id batch: a quota of a tree sits under its tree's root (label"
                                + " quota.scheduling.koordinator.sh/is-root: \"true\" on the root)")),
                new Case("a total on a member", object("x", member, "\"" + P + "total-resource\": \"{}\"", "", FULL),
                        List.of("annotation quota.scheduling.koordinator.sh/total-resource: only a tree root (label"
                                + " quota.scheduling.koordinator.sh/is-root: \"true\") has a total")),
                new Case("a YARN leaf that is also a parent, a Kubernetes quota, outside a tree, without memory", object("x",
                        "\"" + P + "is-parent\": \"true\"", "\"colocation.io/yarn-queue\": \"root.x y\", \"" + P + "namespaces\": \"[\\\"x\\\"]\"", "",
                        "\"kubernetes.io/batch-cpu\": \"1\""), List.of(
                                "annotation colocation.io/yarn-queue root.x y: not a queue path under root (root.team-a: dot-separated names"
                                        + " without spaces, ':', ',', '=' or brackets)",
                                "annotation colocation.io/yarn-queue root.x y: a YARN leaf queue is a leaf of the tree (no label"
                                        + " quota.scheduling.koordinator.sh/is-parent)",
                                "annotation colocation.io/yarn-queue root.x y: a quota is a YARN leaf or a Kubernetes quota, not both (it has"
                                        + " annotation quota.scheduling.koordinator.sh/namespaces)",
                                "annotation colocation.io/yarn-queue root.x y: a YARN leaf belongs to a tree over Batch (label"
                                        + " quota.scheduling.koordinator.sh/tree-id, under a tree root)",
                                "annotation colocation.io/yarn-queue root.x y: spec.max names no memory resource (kubernetes.io/batch-cpu or"
                                        + " cpu; kubernetes.io/batch-memory or memory): YARN's absolute capacities give both")),
                new Case("a queue taken, above or below another leaf's", object("x", member, "\"colocation.io/yarn-queue\": \"root.org\"", "", FULL),
                        List.of("annotation colocation.io/yarn-queue root.org: ElasticQuota batch/team-b is queue root.org.team-b, below this one"
                                + " (YARN leaves are leaf queues)")),
                new Case("the same queue", object("x", member, "\"colocation.io/yarn-queue\": \"root.org.team-b\"", "", FULL),
                        List.of("annotation colocation.io/yarn-queue root.org.team-b: ElasticQuota batch/team-b is that queue already")));
        for (Case c : cases) {
            assertEquals(c.problems(), problems(c.object()), c.name());
        }
    }
}
