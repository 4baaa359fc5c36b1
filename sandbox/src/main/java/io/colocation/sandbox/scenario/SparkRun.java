package io.colocation.sandbox.scenario;

import io.colocation.localclusters.spark.SparkSubmit;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What the scenario's two Spark watches share: a spark-submit running the word count, its executors counted as they
 * come and go (one that leaves before the answer is written was taken from the job: Spark's executors stay until the
 * driver is done), its end, and its answer with Spark's own account of lost tasks.
 */
final class SparkRun {
    private final SparkSubmit.Submission submission;
    private final Path work;
    private final long startNanos = System.nanoTime();
    private Set<String> running = Set.of();
    private int peakExecutors;
    private int executorsLost;
    private Integer exitStatus;
    private long seconds;

    SparkRun(SparkSubmit.Submission submission, Path work) {
        this.submission = submission;
        this.work = work;
    }

    SparkSubmit.Submission submission() {
        return submission;
    }

    /** The executors running now; those gone since the last call while the job had no answer yet count as lost. */
    void executorsNow(Set<String> now) {
        if (SparkSubmit.result(work).isEmpty()) {
            Set<String> gone = new HashSet<>(running);
            gone.removeAll(now);
            executorsLost += gone.size();
        }
        running = now;
        peakExecutors = Math.max(peakExecutors, now.size());
    }

    /** Notes spark-submit's end once it has ended. */
    void checkEnded() {
        if (exitStatus == null && !submission.process().isAlive()) {
            exitStatus = submission.process().exitValue();
            seconds = (System.nanoTime() - startNanos) / 1_000_000_000L;
        }
    }

    /** Ends spark-submit if it still runs. */
    void stop() {
        if (submission.process().isAlive()) {
            submission.process().destroyForcibly();
        }
    }

    boolean complete() {
        return exitStatus != null;
    }

    int running() {
        return running.size();
    }

    int peakExecutors() {
        return peakExecutors;
    }

    int executorsLost() {
        return executorsLost;
    }

    /** spark-submit ended with 0, every count right, and no task failure counted against the job. */
    boolean answeredRight() {
        Map<String, String> r = SparkSubmit.result(work).orElse(Map.of());
        return Integer.valueOf(0).equals(exitStatus) && "true".equals(r.get("correct")) && "0".equals(r.get("failedTasksCounted"));
    }

    /** "SUCCEEDED in N s: counts right" or what failed, by {@code succeeded}. */
    String outcome(boolean succeeded) {
        Map<String, String> r = SparkSubmit.result(work).orElse(Map.of());
        return (succeeded ? "SUCCEEDED" : "FAILED (spark-submit exit " + exitStatus + submission.failureHint() + ")") + " in " + seconds
                + " s: " + (r.isEmpty() ? "no answer" : "true".equals(r.get("correct")) ? "counts right" : "counts WRONG");
    }

    /** Spark's own account of lost tasks. */
    String sparkAccount() {
        Map<String, String> r = SparkSubmit.result(work).orElse(Map.of());
        return "Spark lost " + r.getOrDefault("failedTasksNotCounted", "?") + " tasks, " + r.getOrDefault("failedTasksCounted", "?")
                + " counted as failures";
    }
}
