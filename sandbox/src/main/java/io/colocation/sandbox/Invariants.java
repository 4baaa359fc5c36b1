package io.colocation.sandbox;

import java.util.ArrayList;
import java.util.List;

/** What every sandbox run must show; each broken one is a sentence. */
public final class Invariants {
    private Invariants() {
    }

    public static List<String> check(Summary s) {
        List<String> broken = new ArrayList<>();
        if (s.policy().equals("partitioned") && s.overcommitSamples() > 0) {
            broken.add(s.overcommitSamples() + " overcommit samples under the partitioned policy (must be 0)");
        }
        if (s.batchCoresAvg() <= 0) {
            broken.add("no Batch was reclaimed");
        }
        if (s.batchPodsSubmitted() == 0 || s.kubernetesUsedCoresPeak() <= 0) {
            broken.add("Kubernetes batch pods did not use Batch");
        }
        if (s.batchPodsConverted() != s.batchPodsSubmitted()) {
            broken.add("the ClusterColocationProfile webhook converted " + s.batchPodsConverted() + " of " + s.batchPodsSubmitted()
                    + " ordinary batch-namespace pods");
        }
        if (!s.lenderServed()) {
            broken.add("the idle team's pods, once they came, were not all placed: it did not get its quota's min back (" + s.quotas() + ")");
        }
        if (s.batchPodsFailed() > 0) {
            broken.add(s.batchPodsFailed() + " batch pods failed");
        }
        if (!s.mapReduceJob().startsWith("none")) {
            if (!s.mapReduceSucceeded()) {
                broken.add("the MapReduce job did not succeed: " + s.mapReduceJob());
            }
            if (s.yarnUsedCoresPeak() <= 0) {
                broken.add("YARN did not use Batch");
            }
            if (s.preemptions() < 1) {
                broken.add("no YARN container was preempted in the spike");
            }
        }
        if (!s.sparkJob().startsWith("none") && !s.sparkSucceeded()) {
            broken.add("the Spark application on YARN did not succeed: " + s.sparkJob());
        }
        if (!s.sparkKubernetesJob().startsWith("none")) {
            if (!s.sparkKubernetesSucceeded()) {
                broken.add("the Spark application on Kubernetes did not succeed: " + s.sparkKubernetesJob());
            }
            if (s.sparkExecutorsEvicted() < 1) {
                broken.add("no Spark executor pod was evicted in the spike");
            }
        }
        return broken;
    }
}
