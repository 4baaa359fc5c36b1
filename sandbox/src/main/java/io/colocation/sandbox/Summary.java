package io.colocation.sandbox;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Path;

/**
 * What the scenario showed, printed as a table and optionally written as JSON. CPU in cores.
 *
 * @param overcommitSamples node samples where the two grants together exceeded Batch (must be 0 under partitioned)
 * @param evictions         BE pods evicted (simulated nodes do not evict)
 * @param batchPodsConverted batch pods the ClusterColocationProfile webhook converted (all submitted, or the webhook failed)
 * @param hostCgroups       what the one node on this host's real cgroups did, or why there is none
 */
public record Summary(String policy, int nodes, double nodeUsageCoresAvg, double nodeUsageCoresPeak, double batchCoresAvg,
        double batchCoresAtSpike, double kubernetesUsedCoresPeak, double yarnUsedCoresPeak, double peakUtilisationPercent,
        long overcommitSamples, long samples, long preemptions, long evictions, int batchPodsCompleted, int batchPodsSubmitted,
        int batchPodsConverted, String mapReduceJob, boolean mapReduceSucceeded, String hostCgroups) {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public String table() {
        return String.join("\n",
                "Summary (" + nodes + " nodes, policy " + policy + ")",
                row("node usage (online, batch, system), avg / peak", String.format("%.1f / %.1f cores", nodeUsageCoresAvg, nodeUsageCoresPeak)),
                row("reclaimed Batch, average / in the spike", String.format("%.1f / %.1f cores", batchCoresAvg, batchCoresAtSpike)),
                row("used by Kubernetes batch pods, peak", String.format("%.1f cores", kubernetesUsedCoresPeak)),
                row("used by YARN containers, peak", String.format("%.1f cores", yarnUsedCoresPeak)),
                row("peak CPU utilisation of the nodes", String.format("%.0f %%", peakUtilisationPercent)),
                row("overcommit samples", overcommitSamples + " of " + samples + (policy.equals("partitioned") ? " (must be 0)" : "")),
                row("YARN containers preempted", Long.toString(preemptions)),
                row("BE pods evicted", evictions + " (simulated nodes do not evict; the koordlet evicts on real hosts)"),
                row("batch pods completed", batchPodsCompleted + " of " + batchPodsSubmitted),
                row("converted by the ClusterColocationProfile", batchPodsConverted + " of " + batchPodsSubmitted
                        + " (submitted as ordinary pods)"),
                row("MapReduce job", mapReduceJob),
                row("this host's cgroups", hostCgroups));
    }

    /** The same summary with what the node on this host's cgroups did. */
    public Summary withHostCgroups(String text) {
        return new Summary(policy, nodes, nodeUsageCoresAvg, nodeUsageCoresPeak, batchCoresAvg, batchCoresAtSpike,
                kubernetesUsedCoresPeak, yarnUsedCoresPeak, peakUtilisationPercent, overcommitSamples, samples, preemptions, evictions,
                batchPodsCompleted, batchPodsSubmitted, batchPodsConverted, mapReduceJob, mapReduceSucceeded, text);
    }

    private static String row(String what, String value) {
        return String.format("  %-46s %s", what, value);
    }

    public void write(Path file) throws IOException {
        JSON.writeValue(file.toFile(), this);
    }
}
