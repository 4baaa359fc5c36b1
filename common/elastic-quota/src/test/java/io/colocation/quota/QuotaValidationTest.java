package io.colocation.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The validating webhook's rules for an ElasticQuota being written, each refusal naming its rule (Koordinator's quota_topology_check). */
class QuotaValidationTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** An ElasticQuota object: {@code labels} and {@code annotations} as JSON object bodies. */
    private static JsonNode object(String name, String ns, String labels, String annotations, String min, String max) throws Exception {
        return JSON.readTree("{\"metadata\": {\"name\": \"" + name + "\", \"namespace\": \"" + ns + "\", \"labels\": {" + labels
                + "}, \"annotations\": {" + annotations + "}}, \"spec\": {\"min\": {" + min + "}, \"max\": {" + max + "}}}");
    }

    private static List<ElasticQuotaSpec> existing() throws Exception {
        List<ElasticQuotaSpec> out = new ArrayList<>();
        out.add(ElasticQuotaSpec.read(object("org", "org", "\"quota.scheduling.koordinator.sh/is-parent\": \"true\"", "",
                "\"cpu\": \"10\"", "\"cpu\": \"20\"")));
        out.add(ElasticQuotaSpec.read(object("team-a", "a", "\"quota.scheduling.koordinator.sh/parent\": \"org\"", "",
                "\"cpu\": \"6\"", "\"cpu\": \"20\"")));
        out.add(ElasticQuotaSpec.read(object("leaf", "leaf", "", "", "\"cpu\": \"1\"", "\"cpu\": \"2\"")));
        return out;
    }

    private static List<String> problems(JsonNode object, boolean usedByPods) throws Exception {
        ElasticQuotaSpec next = ElasticQuotaSpec.read(object);
        List<ElasticQuotaSpec> existing = existing();
        ElasticQuotaSpec old = existing.stream().filter(q -> q.name().equals(next.name()) && q.namespace().equals(next.namespace()))
                .findFirst().orElse(null);
        return QuotaValidation.problems(next, old, object, existing, () -> usedByPods);
    }

    @Test
    void eachRuleRefusesWithItsName() throws Exception {
        String child = "\"quota.scheduling.koordinator.sh/parent\": \"org\"";
        record Case(String name, JsonNode object, boolean pods, List<String> problems) {
        }
        List<Case> cases = List.of(
                new Case("a fine child", object("team-b", "b", child, "", "\"cpu\": \"4\"", "\"cpu\": \"8\""), false, List.of()),
                new Case("a built-in", object(QuotaTree.ROOT, "koordinator-system", "", "", "", ""), false,
                        List.of("koordinator-root-quota is built in: the scheduler keeps it, it cannot be written")),
                new Case("min above max, min without max", object("x", "x", "", "", "\"cpu\": \"3\", \"memory\": \"1Gi\"", "\"cpu\": \"2\""), false,
                        List.of("spec.min.cpu is above spec.max.cpu (cpu:3 > cpu:2)",
                                "spec.min.memory: spec.max has no memory (min's resources must be max's)")),
                new Case("a weight that is not JSON", object("x", "x", "", "\"quota.scheduling.koordinator.sh/shared-weight\": \"{cpu: 1\"", "",
                        "\"cpu\": \"2\""), false, List.of("annotation quota.scheduling.koordinator.sh/shared-weight must be a JSON"
                                + " ResourceList of amounts not below 0: Unexpected character ('c' (code 99)): was expecting double-quote to start field name")),
                new Case("a name taken in another namespace", object("team-a", "elsewhere", "", "", "", "\"cpu\": \"2\""), false,
                        List.of("the name is taken: ElasticQuota a/team-a exists (quota names are one tree over all namespaces)")),
                new Case("a parent that does not exist", object("x", "x", "\"quota.scheduling.koordinator.sh/parent\": \"nobody\"", "", "",
                        "\"cpu\": \"2\""), false, List.of("label quota.scheduling.koordinator.sh/parent nobody: no such ElasticQuota")),
                new Case("a parent that is a leaf", object("x", "x", "\"quota.scheduling.koordinator.sh/parent\": \"leaf\"", "", "",
                        "\"cpu\": \"2\""), false, List.of("label quota.scheduling.koordinator.sh/parent leaf: that quota is not a parent"
                                + " (label quota.scheduling.koordinator.sh/is-parent: \"true\")")),
                new Case("a cycle", object("org", "org", "\"quota.scheduling.koordinator.sh/is-parent\": \"true\", "
                        + "\"quota.scheduling.koordinator.sh/parent\": \"team-a\"", "", "\"cpu\": \"10\"", "\"cpu\": \"20\""), false,
                        List.of("label quota.scheduling.koordinator.sh/parent team-a: that quota is not a parent (label"
                                + " quota.scheduling.koordinator.sh/is-parent: \"true\")",
                                "label quota.scheduling.koordinator.sh/parent team-a: a cycle (org would be its own ancestor)")),
                new Case("a resource the parent's max lacks", object("team-b", "b", child, "", "", "\"cpu\": \"2\", \"memory\": \"1Gi\""),
                        false, List.of("spec.max.memory: its parent org's max has no memory")),
                new Case("the children's mins above the parent's", object("team-b", "b", child, "", "\"cpu\": \"5\"", "\"cpu\": \"8\""), false,
                        List.of("the children of org ask min cpu:11 in all, above its min cpu:10")),
                new Case("... unless forced", object("team-b", "b", child + ", \"quota.scheduling.koordinator.sh/allow-force-update\": \"true\"",
                        "", "\"cpu\": \"5\"", "\"cpu\": \"8\""), false, List.of()),
                new Case("a parent's min below its children's", object("org", "org", "\"quota.scheduling.koordinator.sh/is-parent\": \"true\"",
                        "", "\"cpu\": \"5\"", "\"cpu\": \"20\""), false, List.of("the children of org ask min cpu:6 in all, above its min cpu:5")),
                new Case("a parent with children turned leaf", object("org", "org", "", "", "\"cpu\": \"10\"", "\"cpu\": \"20\""), false,
                        List.of("label quota.scheduling.koordinator.sh/is-parent cannot turn off: the quota has children (team-a)")),
                new Case("a leaf with pods turned parent", object("leaf", "leaf", "\"quota.scheduling.koordinator.sh/is-parent\": \"true\"", "",
                        "\"cpu\": \"1\"", "\"cpu\": \"2\""), true,
                        List.of("label quota.scheduling.koordinator.sh/is-parent cannot turn on: pods belong to the quota (a parent holds no pods)")),
                new Case("under the root the mins are free", object("big", "big", "", "", "\"cpu\": \"1000\"", "\"cpu\": \"1000\""), false, List.of()));
        for (Case c : cases) {
            assertEquals(c.problems, problems(c.object, c.pods), c.name);
        }
    }

    @Test
    void aQuotaWithChildrenOrBuiltInIsNotDeleted() throws Exception {
        List<ElasticQuotaSpec> existing = existing();
        assertEquals(List.of("the quota has children (team-a): delete or move them first"),
                QuotaValidation.deleteProblems(existing.get(0), existing));
        assertEquals(List.of(), QuotaValidation.deleteProblems(existing.get(1), existing));
    }
}
