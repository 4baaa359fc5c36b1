package io.colocation.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What a sandbox run must show, one sentence per broken invariant. */
class InvariantsTest {
    private static Summary run(String sparkJob, boolean sparkSucceeded) {
        return run(sparkJob, sparkSucceeded, "none (--no-spark)", false);
    }

    private static final String QUOTAS = "team-a borrowed up to 1.0 batch-cores beyond its min of 2.0 while team-b was idle; team-b's 2"
            + " pods placed 12 s after they arrived; pods revoked: 1 of team-a, 0 of team-b";

    private static Summary run(String sparkJob, boolean sparkSucceeded, String sparkKubernetesJob, boolean sparkKubernetesSucceeded) {
        return run(sparkJob, sparkSucceeded, sparkKubernetesJob, sparkKubernetesSucceeded, true);
    }

    private static Summary run(String sparkJob, boolean sparkSucceeded, String sparkKubernetesJob, boolean sparkKubernetesSucceeded,
            boolean lenderServed) {
        return new Summary("partitioned", 2, 7.0, 13.5, 7.0, 0.7, 3.1, 5.0, 76, 0, 328, 4, 0, 4, 0, 4, 4, "job_1_0001 SUCCEEDED", true,
                sparkJob, sparkSucceeded, sparkKubernetesJob, sparkKubernetesSucceeded, sparkKubernetesJob.startsWith("SUCCEEDED") ? 1 : 0,
                QUOTAS, lenderServed, "", "");
    }

    @Test
    void aGoodRunBreaksNothing() {
        assertEquals(List.of(), Invariants.check(run("application_1_0002 SUCCEEDED in 127 s", true)));
        assertEquals(List.of(), Invariants.check(run("none (--no-spark)", false)), "a run without Spark is not judged on it");
        assertEquals(List.of(), Invariants.check(run("none (--no-spark)", false, "SUCCEEDED in 95 s", true)));
    }

    @Test
    void aSparkApplicationThatDidNotSucceedIsNamed() {
        assertEquals(List.of("the Spark application on YARN did not succeed: application_1_0002 FAILED (spark-submit exit 1)"),
                Invariants.check(run("application_1_0002 FAILED (spark-submit exit 1)", false)));
        assertEquals(List.of("the Spark application on Kubernetes did not succeed: FAILED (spark-submit exit 1)",
                        "no Spark executor pod was evicted in the spike"),
                Invariants.check(run("application_1_0002 SUCCEEDED in 127 s", true, "FAILED (spark-submit exit 1)", false)));
    }

    @Test
    void aLenderNeverServedIsNamed() {
        assertEquals(List.of("the idle team's pods, once they came, were not all placed: it did not get its quota's min back (" + QUOTAS + ")"),
                Invariants.check(run("none (--no-spark)", false, "none (--no-spark)", false, false)));
    }
}
