package io.colocation.yarn.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.localclusters.spark.SparkOnYarn;
import io.colocation.localclusters.spark.SparkSubmit;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptMetrics;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real Spark 3.5 on reclaimed capacity: a word count with a shuffle submitted in cluster mode to a real
 * MiniYARNCluster whose CapacityScheduler runs the plugin, executors placed within the grants the test writes as the
 * broker would ({@link SparkOnYarnCluster}). When online load takes a node's room back (its grant shrinks below what
 * Spark holds there, nothing kept), the plugin preempts one executor gracefully: the RM records exit status PREEMPTED,
 * Spark counts none of the lost tasks as failures, the ApplicationMaster (the driver) is never chosen, and the job's
 * answer is right. Tagged {@code spark}: the Hadoop 3.5 pass leaves it out (Spark 3.5 brings its own Hadoop 3.3 client).
 */
@Tag("spark")
class SparkOnYarnTest {

    @Test
    void anExecutorPreemptedByAShrinkIsNotATaskFailureAndTheJobFinishesRight(@TempDir Path work) throws Exception {
        try (SparkOnYarnCluster cluster = SparkOnYarnCluster.start(work)) {
            // 3 executors of 1 core and 512 MiB and the driver in the AM
            SparkOnYarnCluster.Running spark = cluster.submit(work, 3, 24, 3_000);
            cluster.reclaimOneExecutor(spark);

            int exit = spark.submission().await(5, TimeUnit.MINUTES);
            assertEquals(0, exit, "spark-submit reports the application's success; log " + spark.submission().log());
            Map<String, String> result = SparkSubmit.result(work).orElseThrow(() -> new AssertionError("the driver wrote no result"));
            assertEquals("true", result.get("correct"), "the word count is right after the preemption: " + result);
            assertEquals("0", result.get("failedTasksCounted"), "PREEMPTED is no task failure to Spark: " + result);
            assertTrue(Integer.parseInt(result.get("failedTasksNotCounted")) >= 1, "the preempted executor's tasks ended lost, not"
                    + " failed: " + result);
            assertTrue(Integer.parseInt(result.get("executorsRemoved")) >= 1, "Spark saw its executor go: " + result);
            RMAppAttemptMetrics metrics = spark.rmApp().getCurrentAppAttempt().getRMAppAttemptMetrics();
            assertTrue(metrics.getNumNonAMContainersPreempted() >= 1, "the RM recorded an executor preempted (exit status PREEMPTED)");
            assertFalse(metrics.getIsPreempted(), "the ApplicationMaster (Spark's driver) was not preempted");
            assertEquals(1, spark.rmApp().getAppAttempts().size(), "one application attempt");
            System.out.printf("Spark on YARN: %s, %d executor(s) preempted%n", result, metrics.getNumNonAMContainersPreempted());
        }
    }
}
