package io.colocation.sandbox;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Path;

/**
 * What the scenario showed, printed as a table and optionally written as JSON. CPU in cores.
 *
 * @param overcommitSamples node samples where the two grants together exceeded Batch (must be 0 under partitioned)
 * @param evictions         batch pods evicted (deleted before they succeeded; only the first node's koordlet enforces)
 * @param batchPodsFailed    batch pods whose container failed (must be 0)
 * @param batchPodsConverted batch pods the ClusterColocationProfile webhook converted (all submitted, or the webhook failed)
 * @param sparkJob          the Spark application on YARN: outcome, executors, what was lost, run time; or why there was none
 * @param sparkSucceeded    it finished with every count right and no task failure counted against it
 * @param sparkKubernetesJob the Spark application on Kubernetes (executor pods on the real node): outcome, executors,
 *                          what was evicted or lost, run time; or why there was none
 * @param sparkKubernetesSucceeded it finished with every count right and no task failure counted against it
 * @param sparkExecutorsEvicted executor pods of it the real node's koordlet evicted
 * @param quotas            what the two teams' ElasticQuotas did: what one borrowed, what was revoked, when the other was served
 * @param lenderServed      the lending team's pods were all placed once they came (or it sent none)
 * @param realNode          what the real node (a kubelet on this host) ran, or why every node was simulated
 * @param hostCgroups       what the first node's koordlet did on this host's cgroups, or why nothing
 */
public record Summary(String policy, int nodes, double nodeUsageCoresAvg, double nodeUsageCoresPeak, double batchCoresAvg,
        double batchCoresAtSpike, double kubernetesUsedCoresPeak, double yarnUsedCoresPeak, double peakUtilisationPercent,
        long overcommitSamples, long samples, long preemptions, long evictions, int batchPodsCompleted, int batchPodsFailed,
        int batchPodsSubmitted, int batchPodsConverted, String mapReduceJob, boolean mapReduceSucceeded, String sparkJob,
        boolean sparkSucceeded, String sparkKubernetesJob, boolean sparkKubernetesSucceeded, int sparkExecutorsEvicted, String quotas,
        boolean lenderServed, String realNode, String hostCgroups) {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public String table() {
        return String.join("\n",
                "Summary (" + nodes + (nodes == 1 ? " node" : " nodes") + ", policy " + policy + ")",
                row("node usage (online, batch, system), avg / peak", String.format("%.1f / %.1f cores", nodeUsageCoresAvg, nodeUsageCoresPeak)),
                row("reclaimed Batch, average / in the spike", String.format("%.1f / %.1f cores", batchCoresAvg, batchCoresAtSpike)),
                row("used by Kubernetes batch pods, peak", String.format("%.1f cores", kubernetesUsedCoresPeak)),
                row("used by YARN containers, peak", String.format("%.1f cores", yarnUsedCoresPeak)),
                row("peak CPU utilisation of the nodes", String.format("%.0f %%", peakUtilisationPercent)),
                row("overcommit samples", overcommitSamples + " of " + samples + (policy.equals("partitioned") ? " (must be 0)" : "")),
                row("YARN containers preempted", Long.toString(preemptions)),
                row("batch pods evicted", evictions + " (by the first node's koordlet, the only one that enforces, or revoked by a quota)"),
                row("batch pods completed", batchPodsCompleted + " of " + batchPodsSubmitted
                        + (batchPodsFailed > 0 ? ", " + batchPodsFailed + " failed" : "")),
                row("converted by the ClusterColocationProfile", batchPodsConverted + " of " + batchPodsSubmitted
                        + " (submitted as ordinary pods)"),
                row("MapReduce job", mapReduceJob),
                row("Spark on YARN", sparkJob),
                row("Spark on Kubernetes", sparkKubernetesJob),
                row("ElasticQuotas", quotas),
                row("real node", realNode),
                row("this host's cgroups", hostCgroups));
    }

    /** The same summary with what the real node ran (or why there was none) and what was done on this host's cgroups. */
    public Summary withHost(String realNodeText, String hostCgroupsText) {
        return new Summary(policy, nodes, nodeUsageCoresAvg, nodeUsageCoresPeak, batchCoresAvg, batchCoresAtSpike,
                kubernetesUsedCoresPeak, yarnUsedCoresPeak, peakUtilisationPercent, overcommitSamples, samples, preemptions, evictions,
                batchPodsCompleted, batchPodsFailed, batchPodsSubmitted, batchPodsConverted, mapReduceJob, mapReduceSucceeded, sparkJob,
                sparkSucceeded, sparkKubernetesJob, sparkKubernetesSucceeded, sparkExecutorsEvicted, quotas, lenderServed, realNodeText,
                hostCgroupsText);
    }

    private static String row(String what, String value) {
        return String.format("  %-46s %s", what, value);
    }

    public void write(Path file) throws IOException {
        JSON.writeValue(file.toFile(), this);
    }
}
