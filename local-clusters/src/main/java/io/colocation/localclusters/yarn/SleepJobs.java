package io.colocation.localclusters.yarn;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.SleepJob;
import org.apache.hadoop.mapreduce.TypeConverter;
import org.apache.hadoop.yarn.api.records.ApplicationId;

/** MapReduce's SleepJob: real map tasks in container JVMs that live as long as a test needs them. */
public final class SleepJobs {
    private SleepJobs() {
    }

    /** Submits {@code maps} map tasks that each sleep {@code mapMillis}, and no reducer; returns at once. */
    public static Job submit(Configuration clusterConf, int maps, long mapMillis, Path workDir)
            throws IOException, InterruptedException {
        Configuration conf = new Configuration(clusterConf);
        MapReduceClasspath.configureJob(conf);
        conf.set("yarn.app.mapreduce.am.staging-dir", workDir.resolve("staging").toAbsolutePath().toString());
        SleepJob sleep = new SleepJob();
        sleep.setConf(conf);
        Job job = sleep.createJob(maps, 0, mapMillis, 1, 0, 0);
        job.setJarByClass(SleepJob.class);
        try {
            job.submit();
        } catch (ClassNotFoundException e) {
            throw new IOException(e);
        }
        return job;
    }

    /** The YARN application that runs {@code job}. */
    public static ApplicationId applicationOf(Job job) {
        return TypeConverter.toYarn(job.getJobID()).getAppId();
    }
}
