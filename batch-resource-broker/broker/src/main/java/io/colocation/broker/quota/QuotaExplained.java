package io.colocation.broker.quota;

import io.colocation.api.InvalidInputException;
import io.colocation.model.document.KubeDocuments;
import io.colocation.quota.ElasticQuotaSpec;
import io.colocation.quota.QuotaAdmission;
import io.colocation.quota.QuotaDirectory;
import io.colocation.quota.QuotaForest;
import io.colocation.quota.QuotaRuntime;
import io.colocation.quota.QuotaUnits;
import io.colocation.quota.QuotaUsage;
import io.colocation.quota.QuotaValidation;
import io.colocation.quota.ResourceAmounts;
import io.colocation.quota.YarnLeaf;
import io.colocation.quota.YarnQueueLimit;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What {@code colocation quota explain} computes (docs/quota.md): for every tree over Batch (a tree-id with its
 * {@code is-root} quota) the runtime of each quota with the one engine, its Kubernetes leaves' demand from their pods
 * and its YARN leaves' from the ResourceManager's scheduler report (allocated plus pending), and the CapacityScheduler
 * settings its YARN leaves follow. A pure function of the documents given.
 */
public final class QuotaExplained {
    /** What each quota is in a tree over Batch. */
    enum Kind {
        TREE_ROOT("tree root"), PARENT("parent"), KUBERNETES("kubernetes"), YARN("yarn");

        final String label;

        Kind(String label) {
            this.label = label;
        }
    }

    /** One tree: its runtime, each quota's usage (its subtree's), and the YARN queues' limits. */
    record Tree(QuotaForest.Tree tree, QuotaRuntime runtime, Map<String, QuotaUsage> usage, List<YarnQueueLimit> limits,
            Map<String, YarnSchedulerReport.LeafQueue> reported) {
    }

    private final List<Tree> trees;
    private final List<String> notes;

    private QuotaExplained(List<Tree> trees, List<String> notes) {
        this.trees = List.copyOf(trees);
        this.notes = List.copyOf(notes);
    }

    /** @throws InvalidInputException naming the document: an ElasticQuota, Pod or scheduler report that cannot be read */
    public static QuotaExplained of(List<KubeDocuments.Sourced> docs) throws InvalidInputException {
        List<ElasticQuotaSpec> specs = new ArrayList<>();
        Map<String, com.fasterxml.jackson.databind.JsonNode> raw = new HashMap<>();
        List<Pod> pods = new ArrayList<>();
        YarnSchedulerReport report = null;
        List<String> notes = new ArrayList<>();
        for (KubeDocuments.Sourced d : docs) {
            String where = d.file() + (d.position().isEmpty() ? "" : " " + d.position());
            if (YarnSchedulerReport.is(d.object())) {
                if (report != null) {
                    throw new InvalidInputException(where + ": a second scheduler report; give the ResourceManager's report once");
                }
                report = YarnSchedulerReport.read(d.object(), where);
                continue;
            }
            switch (d.kind()) {
                case ElasticQuotaSpec.KIND -> {
                    ElasticQuotaSpec spec = ElasticQuotaSpec.read(d.object());
                    specs.add(spec);
                    raw.put(spec.name(), d.object());
                }
                case "Pod" -> pods.add(d.as(Pod.class));
                default -> notes.add(where + ": " + (d.kind().isEmpty() ? "an object without kind" : "a " + d.kind())
                        + " is not read (ElasticQuotas, Pods and the ResourceManager's scheduler report are)");
            }
        }
        QuotaForest forest = QuotaForest.of(specs);
        forest.problems().forEach((q, why) -> notes.add("ElasticQuota " + q + " is left out: " + why));
        if (forest.trees().isEmpty()) {
            throw new InvalidInputException("no tree over Batch in the input: a tree is an ElasticQuota with labels "
                    + ElasticQuotaSpec.LABEL_IS_ROOT + ": \"true\" and " + ElasticQuotaSpec.LABEL_TREE_ID + ", and the quotas below it ("
                    + forest.defaultTree().size() + " quotas of the default tree given: colocation k8s-scheduler explain shows those)");
        }
        for (ElasticQuotaSpec q : specs) {
            for (String problem : QuotaValidation.problems(q, q, raw.get(q.name()), specs, () -> false)) {
                notes.add("ElasticQuota " + q.namespace() + "/" + q.name() + " would be refused by the webhook: " + problem);
            }
        }
        TreeDemand demand = TreeDemand.of(specs, pods);
        if (!demand.refused().isEmpty()) {
            Map.Entry<String, String> first = demand.refused().entrySet().iterator().next();
            throw new InvalidInputException(first.getValue());
        }
        demand.yarnLeafPods().forEach(p -> notes.add("Pod " + p + " resolves to a YARN leaf: it counts in no quota (a YARN leaf's demand is its queue's)"));
        List<Tree> trees = new ArrayList<>();
        for (QuotaForest.Tree t : forest.trees().values()) {
            trees.add(tree(t, demand, report, notes));
        }
        return new QuotaExplained(trees, notes);
    }

    private static Tree tree(QuotaForest.Tree t, TreeDemand demand, YarnSchedulerReport report, List<String> notes) {
        if (t.totalNote() != null) {
            notes.add(t.totalNote());
        }
        Map<String, YarnSchedulerReport.LeafQueue> reported = new LinkedHashMap<>();
        for (ElasticQuotaSpec q : t.members()) {
            if (q.yarnQueue() == null) {
                continue;
            }
            YarnSchedulerReport.LeafQueue leaf = report == null ? null : report.leaves().get(q.yarnQueue());
            if (leaf == null) {
                notes.add("YARN leaf " + q.name() + ": " + (report == null ? "no scheduler report given"
                        : "queue " + q.yarnQueue() + " is no leaf queue of the scheduler report") + ", so its demand counts 0");
            } else {
                reported.put(q.name(), leaf);
            }
        }
        java.util.function.Function<String, QuotaUsage> ownUsage = demand.ownUsage(t, queue -> {
            YarnSchedulerReport.LeafQueue leaf = report == null ? null : report.leaves().get(queue);
            return leaf == null ? null : new YarnLeaf.Demand(leaf.allocated(), leaf.pending());
        });
        QuotaRuntime runtime = t.runtime(ownUsage, true);
        runtime.problems().forEach((q, why) -> notes.add("ElasticQuota " + q + " is left out of tree " + t.treeId() + ": " + why));
        Map<String, QuotaUsage> usage = new HashMap<>();
        for (QuotaRuntime.Entry e : runtime.entries()) {
            usage.put(e.spec().name(), runtime.usage(e.spec().name(), ownUsage));
        }
        for (QuotaRuntime.Entry e : runtime.entries()) {
            if (QuotaDirectory.builtin(e.spec().name()) || !e.children().isEmpty()) {
                continue;
            }
            ResourceAmounts used = usage.get(e.spec().name()).used();
            for (String k : e.state().runtime().names()) {
                if (used.get(k) > e.state().runtime().get(k)) {
                    notes.add("ElasticQuota " + e.spec().namespace() + "/" + e.spec().name() + " uses more than its runtime: "
                            + QuotaAdmission.print(used.masked(Set.of(k))) + " > " + QuotaAdmission.print(e.state().runtime().masked(Set.of(k))));
                }
            }
        }
        return new Tree(t, runtime, usage, YarnQueueLimit.of(runtime), reported);
    }

    private static Kind kind(QuotaRuntime.Entry e) {
        return e.spec().isRoot() ? Kind.TREE_ROOT : e.spec().yarnQueue() != null ? Kind.YARN : e.spec().isParent() || !e.children().isEmpty()
                ? Kind.PARENT : Kind.KUBERNETES;
    }

    /** The result as JSON: {@code trees} (each with its quotas, YARN queues and CapacityScheduler settings) and {@code notes}. */
    public Map<String, Object> json() {
        List<Object> out = new ArrayList<>();
        for (Tree t : trees) {
            Map<String, Object> tree = new LinkedHashMap<>();
            tree.put("treeId", t.tree().treeId());
            tree.put("root", t.tree().root().name());
            tree.put("total", QuotaUnits.write(t.tree().total()));
            List<Object> quotas = new ArrayList<>();
            for (QuotaRuntime.Entry e : members(t)) {
                Map<String, Object> q = new LinkedHashMap<>();
                q.put("kind", kind(e).label);
                q.putAll(e.explained(t.usage().get(e.spec().name()).used()));
                quotas.add(q);
            }
            tree.put("quotas", quotas);
            List<Object> queues = new ArrayList<>();
            Map<String, String> settings = new LinkedHashMap<>();
            for (YarnQueueLimit l : t.limits()) {
                Map<String, Object> q = new LinkedHashMap<>();
                q.put("queue", l.queue());
                q.put("quota", l.quota());
                q.put("capacity", l.capacity().absolute());
                q.put("maximumCapacity", l.maximumCapacity().absolute());
                YarnSchedulerReport.LeafQueue leaf = l.quota() == null ? null : t.reported().get(l.quota());
                if (leaf != null) {
                    q.put("allocated", leaf.allocated().absolute());
                    q.put("pending", leaf.pending().absolute());
                    q.put("effectiveMaximumNow", leaf.effectiveMaximum() == null ? null : leaf.effectiveMaximum().absolute());
                }
                queues.add(q);
                settings.putAll(l.properties());
            }
            tree.put("yarnQueues", queues);
            tree.put("capacitySchedulerSettings", settings);
            out.add(tree);
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("trees", out);
        json.put("notes", notes);
        return json;
    }

    /** The tree's quotas in tree order, without Koordinator's root and built-ins (they hold nothing in a tree over Batch). */
    private static List<QuotaRuntime.Entry> members(Tree t) {
        return t.runtime().entries().stream().filter(e -> !QuotaDirectory.builtin(e.spec().name())).toList();
    }

    public void text(PrintStream out) {
        for (Tree t : trees) {
            out.println("Tree " + t.tree().treeId() + " (root " + t.tree().root().name() + "), total " + QuotaAdmission.print(t.tree().total()));
            out.println("  quota (kind): min / request / runtime / used");
            for (QuotaRuntime.Entry e : members(t)) {
                int depth = 0;
                for (String p = e.spec().parent(); !QuotaDirectory.builtin(p) && t.runtime().get(p) != null; p = t.runtime().get(p).spec().parent()) {
                    depth++;
                }
                Kind kind = kind(e);
                out.println("  " + "  ".repeat(depth) + e.spec().name() + " (" + kind.label + (kind == Kind.YARN ? " " + e.spec().yarnQueue() : "")
                        + "): " + list(e.spec().min()) + " / " + list(e.state().request()) + " / " + list(e.state().runtime()) + " / "
                        + list(t.usage().get(e.spec().name()).used()));
            }
            if (!t.limits().isEmpty()) {
                out.println("  CapacityScheduler settings (capacity-scheduler.xml or yarn schedulerconf):");
                for (YarnQueueLimit l : t.limits()) {
                    l.properties().forEach((k, v) -> out.println("    " + k + "=" + v));
                }
            }
        }
        notes.forEach(n -> out.println("note: " + n));
    }

    private static String list(ResourceAmounts amounts) {
        return amounts.isEmpty() ? "{}" : QuotaAdmission.print(amounts);
    }
}
