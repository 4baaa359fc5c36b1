package io.colocation.scheduler.explain;

import io.colocation.quota.QuotaRuntime;
import io.colocation.quota.QuotaTree;
import io.colocation.quota.QuotaUnits;
import io.colocation.quota.ResourceAmounts;
import io.colocation.scheduler.framework.CycleState;
import io.colocation.scheduler.framework.Plugin;
import io.colocation.scheduler.framework.Profile;
import io.colocation.scheduler.framework.Status;
import io.colocation.scheduler.plugins.elasticquota.ElasticQuota;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What explain shows of the quota tree when the profile enables ElasticQuota: every quota as the plugin computes it
 * before the pod is placed (pending pods in their quota's request, bound ones in its used too), and the pod's own
 * quota with the plugin's PreFilter verdict, even when an earlier pre-filter stopped the cycle.
 */
record QuotasExplained(ElasticQuota.View view, String podQuota, Status verdict) {

    /** Null when the profile does not enable ElasticQuota. */
    static QuotasExplained of(Profile profile, SchedulingInput.Result input, List<String> notes) {
        ElasticQuota plugin = null;
        for (Plugin p : profile.plugins()) {
            if (p instanceof ElasticQuota q) {
                plugin = q;
            }
        }
        if (plugin == null) {
            return null;
        }
        ElasticQuota.View view = plugin.view(input.snapshot().order().allocatableTotal());
        view.problems().forEach((q, why) -> notes.add("ElasticQuota " + q + " is left out of the tree: " + why));
        Status verdict = plugin.preFilter(new CycleState(input.snapshot()), input.pending());
        return new QuotasExplained(view, plugin.quotaOf(input.pending()), verdict);
    }

    Map<String, Object> podVerdict() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", podQuota);
        m.put("status", verdict.label());
        m.put("reasons", verdict.reasons());
        return m;
    }

    /** Every quota of the tree in tree order, resource lists as Kubernetes quantity strings (Koordinator's annotations). */
    List<Object> tree() {
        List<Object> out = new ArrayList<>();
        for (QuotaRuntime.Entry e : view.runtime().entries()) {
            out.add(e.explained(view.usage().get(e.spec().name()).used()));
        }
        return out;
    }

    void printText(PrintStream out) {
        out.println();
        out.println("Pod's quota " + podQuota + ": " + verdict.label() + (verdict.success() ? "" : " (" + String.join("; ",
                verdict.reasons()) + ")"));
        out.println("Quotas (min / runtime / used):");
        print(QuotaTree.ROOT, 1, out);
    }

    private void print(String name, int depth, PrintStream out) {
        QuotaRuntime.Entry e = view.runtime().get(name);
        out.println("  ".repeat(depth) + name + "  " + (name.equals(QuotaTree.ROOT) ? "total " + list(e.state().runtime())
                : list(e.spec().min()) + " / " + list(e.state().runtime()) + " / " + list(view.usage().get(name).used())));
        for (String c : e.children()) {
            print(c, depth + 1, out);
        }
    }

    private static String list(ResourceAmounts amounts) {
        return amounts.isEmpty() ? "{}" : QuotaUnits.write(amounts).toString();
    }
}
