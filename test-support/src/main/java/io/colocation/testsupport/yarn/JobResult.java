package io.colocation.testsupport.yarn;

import io.colocation.localclusters.yarn.MiniYarn;
import io.colocation.localclusters.yarn.SleepJobs;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.JobStatus;

/** How a MapReduce job ended: its final state, diagnostics, and the failed/killed task counters. */
public record JobResult(String jobId, JobStatus.State state, String failureInfo, long failedMaps, long killedMaps) {

    public boolean succeeded() {
        return state == JobStatus.State.SUCCEEDED;
    }

    /**
     * Waits for {@code job} to end (killing it on timeout), then for its containers on {@code yarn} to be done: its
     * ApplicationMaster still writes into the staging directory after it reports the end.
     */
    public static JobResult await(MiniYarn yarn, Job job, Duration timeout)
            throws IOException, InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!job.isComplete()) {
            if (System.nanoTime() > deadline) {
                job.killJob();
                throw new TimeoutException("job " + job.getJobID() + " did not finish within " + timeout.toSeconds()
                        + " s (state " + job.getJobState() + ")");
            }
            Thread.sleep(250);
        }
        // read while the ApplicationMaster still answers (it waits a few seconds for clients before it exits)
        var counters = job.getCounters();
        JobResult result = new JobResult(job.getJobID().toString(), job.getJobState(), job.getStatus().getFailureInfo(),
                counters == null ? 0 : counters.findCounter(JobCounter.NUM_FAILED_MAPS).getValue(),
                counters == null ? 0 : counters.findCounter(JobCounter.NUM_KILLED_MAPS).getValue());
        yarn.awaitContainersDone(SleepJobs.applicationOf(job), Duration.ofSeconds(60));
        return result;
    }
}
