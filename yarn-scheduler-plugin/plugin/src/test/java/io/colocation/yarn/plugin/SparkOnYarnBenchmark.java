package io.colocation.yarn.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.colocation.localclusters.spark.SparkOnYarn;
import io.colocation.localclusters.spark.SparkSubmit;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a reclaim costs a Spark job (not in the suite; {@code dev/bench-spark-on-yarn.sh}): {@link SparkOnYarnTest}'s
 * word count (24 tasks of 3 s on 3 executors), end to end from spark-submit to its exit, on one cluster three times:
 * grants left alone, one executor preempted by a shrink as in the test, grants left alone again (the two runs without
 * a reclaim bracket the one with it, so a cold first start does not pass for the reclaim's cost).
 */
@Tag("spark")
class SparkOnYarnBenchmark {

    @Test
    void jobTimeWithAndWithoutAReclaim(@TempDir Path work) throws Exception {
        try (SparkOnYarnCluster cluster = SparkOnYarnCluster.start(work)) {
            Run first = run(cluster, work.resolve("without-1"), false);
            Run reclaimed = run(cluster, work.resolve("with"), true);
            cluster.grantEveryNode();
            Run last = run(cluster, work.resolve("without-2"), false);
            double without = (first.seconds() + last.seconds()) / 2;
            String report = String.format(Locale.ROOT, "Spark on YARN, word count of 24 tasks x 3 s on 3 executors, spark-submit to exit:%n"
                            + "  without a reclaim %.1f s and %.1f s; with one executor preempted %.1f s (%s executor(s) removed, %s task(s)"
                            + " lost and not counted as failures); ratio %.2f%n", first.seconds(), last.seconds(), reclaimed.seconds(),
                    reclaimed.result().get("executorsRemoved"), reclaimed.result().get("failedTasksNotCounted"),
                    reclaimed.seconds() / without);
            // a file of its own: the cluster's threads log into the same output
            Files.writeString(Path.of("target", "spark-on-yarn-benchmark.txt"), report);
        }
    }

    private record Run(double seconds, Map<String, String> result) {
    }

    private static Run run(SparkOnYarnCluster cluster, Path work, boolean reclaim) throws Exception {
        Files.createDirectories(work);
        long started = System.nanoTime();
        SparkOnYarnCluster.Running spark = cluster.submit(work, 3, 24, 3_000);
        if (reclaim) {
            cluster.reclaimOneExecutor(spark);
        }
        assertEquals(0, spark.submission().await(5, TimeUnit.MINUTES), "spark-submit's exit status; log " + spark.submission().log());
        double seconds = (System.nanoTime() - started) / 1e9;
        Map<String, String> result = SparkSubmit.result(work).orElseThrow(() -> new AssertionError("the driver wrote no result"));
        assertEquals("true", result.get("correct"), "the word count: " + result);
        return new Run(seconds, result);
    }
}
