package io.colocation.sandbox.scenario;

import org.apache.hadoop.mapreduce.Job;

/**
 * A submitted MapReduce job, asked through its ApplicationMaster while it runs; the outcome is kept once known,
 * because afterwards the client would ask a JobHistoryServer, which the sandbox does not run.
 */
final class MapReduceWatch {
    private final Job job;
    private Boolean succeeded;
    private String state = "submitted";

    MapReduceWatch(Job job) {
        this.job = job;
    }

    String id() {
        return job.getJobID().toString();
    }

    /** Asks the job once, unless its outcome is known. */
    void poll() {
        if (succeeded != null) {
            return;
        }
        try {
            if (job.isComplete()) {
                succeeded = job.isSuccessful();
                state = succeeded ? "succeeded" : "failed";
            } else {
                state = String.format("map %.0f %%", job.mapProgress() * 100);
            }
        } catch (Exception e) {
            state = "state unknown (" + e.getClass().getSimpleName() + ")";
        }
    }

    boolean complete() {
        return succeeded != null;
    }

    boolean succeeded() {
        return Boolean.TRUE.equals(succeeded);
    }

    String state() {
        return state;
    }
}
