package io.colocation.sandbox.scenario;

import io.colocation.localclusters.spark.SparkOnYarn;
import io.colocation.localclusters.spark.SparkSubmit;
import io.colocation.sandbox.parts.SandboxYarn;
import java.nio.file.Path;
import java.util.Map;

/**
 * The scenario's Spark application on YARN (spark-submit in cluster mode, the word count of {@code local-clusters/spark-job}),
 * watched through the ResourceManager every second: how many executors ran at once, how many were lost while the job
 * still needed them (a preemption), and its attempts. Spark's own account (tasks lost and counted or not against the
 * job) comes from the job's result line.
 */
final class SparkWatch {
    private final SparkRun run;
    private final SandboxYarn yarn;
    /** The application id once spark-submit printed it (its log is not read again after). */
    private String applicationId;
    private SandboxYarn.Attempts attempts = SandboxYarn.Attempts.NONE;

    private SparkWatch(SparkSubmit.Submission submission, SandboxYarn yarn, Path work) {
        this.run = new SparkRun(submission, work);
        this.yarn = yarn;
    }

    /**
     * Submits {@code executors} executors of 1 core / 512 MiB, one task of {@code taskMillis} each. Two attempts, as
     * docs/spark.md asks of a colocated cluster: when a grant falls below what the ApplicationMasters alone hold, the
     * driver's is preempted too (last), and YARN starts a new attempt without counting it as a failure; with one
     * attempt YARN gives up on any loss of the ApplicationMaster.
     */
    static SparkWatch submit(SandboxYarn yarn, Path work, int executors, long taskMillis) {
        SparkSubmit.Submission s = SparkOnYarn.submit(yarn.configDir(), work,
                SparkOnYarn.settings(work, executors, Map.of("spark.yarn.maxAppAttempts", "2")), executors, taskMillis);
        return new SparkWatch(s, yarn, work);
    }

    void poll() {
        if (run.complete()) {
            return;
        }
        if (applicationId == null) {
            applicationId = SparkOnYarn.applicationId(run.submission()).orElse(null);
        }
        if (applicationId != null) {
            run.executorsNow(yarn.runningExecutors(applicationId));
            attempts = yarn.attempts(applicationId);
        }
        run.checkEnded();
    }

    void stop() {
        run.stop();
    }

    boolean complete() {
        return run.complete();
    }

    /** The application finished, every count right, and no task failure counted against it. */
    boolean succeeded() {
        return run.answeredRight();
    }

    String id() {
        return applicationId != null ? applicationId : SparkOnYarn.applicationId(run.submission()).orElse("(no application id yet)");
    }

    /** While it runs: its executors; then: the outcome, Spark's account of what was lost, and the run time. */
    String state() {
        if (!run.complete()) {
            return run.running() + " executors running";
        }
        return String.format("%s %s; %d executors at most, %d lost while it ran; %s; %s", id(), run.outcome(succeeded()), run.peakExecutors(),
                run.executorsLost(), attempts.started() + (attempts.started() == 1 ? " attempt" : " attempts")
                        + ", the driver's ApplicationMaster preempted " + (attempts.amPreempted() == 1 ? "once" : attempts.amPreempted() + " times")
                        + (attempts.amPreempted() == attempts.earlierEndings().size() ? ""
                                : " (earlier attempts' ApplicationMasters ended " + String.join(", ", attempts.earlierEndings()) + ")"),
                run.sparkAccount());
    }
}
