package io.colocation.sandbox.scenario;

import io.colocation.localclusters.spark.SparkOnYarn;
import io.colocation.sandbox.parts.SandboxYarn;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The scenario's Spark application on YARN (spark-submit in cluster mode, the word count of {@code local-clusters/spark-job}),
 * watched through the ResourceManager every second: how many executors ran at once, and how many were lost while the
 * job still needed them (Spark's executors stay until the driver is done, so one that leaves before the answer is
 * written was taken: a preemption). Spark's own account (tasks lost and counted or not against the job) comes from
 * the job's result line.
 */
final class SparkWatch {
    private final SparkOnYarn.Submission submission;
    private final SandboxYarn yarn;
    private final Path work;
    private final long startNanos;
    /** The application id once spark-submit printed it (its log is not read again after). */
    private String applicationId;
    private Set<String> running = Set.of();
    private int peakExecutors;
    private int executorsLost;
    private SandboxYarn.Attempts attempts = new SandboxYarn.Attempts(0, 0);
    private Integer exitStatus;
    private long seconds;

    private SparkWatch(SparkOnYarn.Submission submission, SandboxYarn yarn, Path work) {
        this.submission = submission;
        this.yarn = yarn;
        this.work = work;
        this.startNanos = System.nanoTime();
    }

    /**
     * Submits {@code executors} executors of 1 core / 512 MiB, one task of {@code taskMillis} each. Two attempts, as
     * docs/spark.md asks of a colocated cluster: when a grant falls below what the ApplicationMasters alone hold, the
     * driver's is preempted too (last), and YARN starts a new attempt without counting it as a failure; with one
     * attempt YARN gives up on any loss of the ApplicationMaster.
     */
    static SparkWatch submit(SandboxYarn yarn, Path work, int executors, long taskMillis) {
        SparkOnYarn.Submission s = SparkOnYarn.submit(yarn.configDir(), work,
                SparkOnYarn.settings(work, executors, Map.of("spark.yarn.maxAppAttempts", "2")), executors, taskMillis);
        return new SparkWatch(s, yarn, work);
    }

    void poll() {
        if (exitStatus != null) {
            return;
        }
        if (applicationId == null) {
            applicationId = submission.applicationId().orElse(null);
        }
        if (applicationId != null) {
            Set<String> now = yarn.runningExecutors(applicationId);
            if (SparkOnYarn.result(work).isEmpty()) {
                Set<String> gone = new HashSet<>(running);
                gone.removeAll(now);
                executorsLost += gone.size();
            }
            running = now;
            peakExecutors = Math.max(peakExecutors, now.size());
            attempts = yarn.attempts(applicationId);
        }
        if (!submission.process().isAlive()) {
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

    /** The application finished, every count right, and no task failure counted against it. */
    boolean succeeded() {
        Map<String, String> r = SparkOnYarn.result(work).orElse(Map.of());
        return Integer.valueOf(0).equals(exitStatus) && "true".equals(r.get("correct")) && "0".equals(r.get("failedTasksCounted"));
    }

    String id() {
        return applicationId != null ? applicationId : submission.applicationId().orElse("(no application id yet)");
    }

    int executorsLost() {
        return executorsLost;
    }

    /** The last thing spark-submit's log says went wrong (YARN's diagnostics or an exception), or "". */
    private String failureHint() {
        try {
            String hint = "";
            for (String line : java.nio.file.Files.readAllLines(submission.log())) {
                String t = line.trim();
                if ((t.startsWith("diagnostics:") && !t.endsWith("N/A")) || t.contains("Exception:")) {
                    hint = t;
                }
            }
            return hint.isEmpty() ? "" : ": " + (hint.length() > 300 ? hint.substring(0, 300) + "…" : hint);
        } catch (java.io.IOException e) {
            return "";
        }
    }

    /** While it runs: its executors; then: the outcome, Spark's account of what was lost, and the run time. */
    String state() {
        if (exitStatus == null) {
            return running.size() + " executors running";
        }
        Map<String, String> r = SparkOnYarn.result(work).orElse(Map.of());
        String outcome = succeeded() ? "SUCCEEDED" : "FAILED (spark-submit exit " + exitStatus + failureHint() + ")";
        return String.format("%s %s in %d s: %s; %d executors at most, %d lost while it ran; %s; Spark lost %s tasks, %s counted as failures",
                id(), outcome, seconds, r.isEmpty() ? "no answer" : "true".equals(r.get("correct")) ? "counts right" : "counts WRONG",
                peakExecutors, executorsLost, attempts.started() + (attempts.started() == 1 ? " attempt" : " attempts") + ", the driver's ApplicationMaster preempted "
                        + (attempts.amPreempted() == 1 ? "once" : attempts.amPreempted() + " times"),
                r.getOrDefault("failedTasksNotCounted", "?"), r.getOrDefault("failedTasksCounted", "?"));
    }
}
