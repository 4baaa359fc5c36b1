package io.colocation.testsupport.yarn;

import io.colocation.localclusters.yarn.MapReduceClasspath;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.examples.QuasiMonteCarlo;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BooleanWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.SequenceFileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;

/**
 * The Hadoop examples' pi estimator (QuasiMonteCarlo's mapper and reducer, run in real container JVMs)
 * driven through the Job API: {@code QuasiMonteCarlo.estimatePi} calls System.exit on failure, which
 * would kill the test JVM, and tests need the failed status too.
 */
public final class PiJob {
    private final Job job;
    private final Path outDir;
    private final long totalSamples;

    private PiJob(Job job, Path outDir, long totalSamples) {
        this.job = job;
        this.outDir = outDir;
        this.totalSamples = totalSamples;
    }

    /** Submits the job to the cluster described by {@code clusterConf}; returns at once. */
    public static PiJob submit(Configuration clusterConf, int maps, long samplesPerMap, java.nio.file.Path workDir)
            throws IOException, InterruptedException {
        Configuration conf = new Configuration(clusterConf);
        MapReduceClasspath.configureJob(conf);
        conf.set("yarn.app.mapreduce.am.staging-dir", workDir.resolve("staging").toAbsolutePath().toString());
        Job job = Job.getInstance(conf, "pi-" + maps + "x" + samplesPerMap);
        job.setJarByClass(QuasiMonteCarlo.class);
        job.setInputFormatClass(SequenceFileInputFormat.class);
        job.setOutputKeyClass(BooleanWritable.class);
        job.setOutputValueClass(LongWritable.class);
        job.setOutputFormatClass(SequenceFileOutputFormat.class);
        job.setMapperClass(QuasiMonteCarlo.QmcMapper.class);
        job.setReducerClass(QuasiMonteCarlo.QmcReducer.class);
        job.setNumReduceTasks(1);
        job.setSpeculativeExecution(false);

        Path base = new Path(workDir.toAbsolutePath().toUri());
        Path inDir = new Path(base, "in");
        Path outDir = new Path(base, "out");
        FileInputFormat.setInputPaths(job, inDir);
        FileOutputFormat.setOutputPath(job, outDir);
        FileSystem fs = FileSystem.get(base.toUri(), conf);
        fs.delete(base, true);
        for (int i = 0; i < maps; i++) {
            try (SequenceFile.Writer writer = SequenceFile.createWriter(conf,
                    SequenceFile.Writer.file(new Path(inDir, "part" + i)),
                    SequenceFile.Writer.keyClass(LongWritable.class),
                    SequenceFile.Writer.valueClass(LongWritable.class),
                    SequenceFile.Writer.compression(SequenceFile.CompressionType.NONE))) {
                writer.append(new LongWritable(i * samplesPerMap), new LongWritable(samplesPerMap));
            }
        }
        try {
            job.submit();
        } catch (ClassNotFoundException e) {
            throw new IOException(e);
        }
        return new PiJob(job, outDir, maps * samplesPerMap);
    }

    /** Submits and waits. */
    public static Result run(Configuration clusterConf, int maps, long samplesPerMap, java.nio.file.Path workDir,
            Duration timeout) throws IOException, InterruptedException, TimeoutException {
        return submit(clusterConf, maps, samplesPerMap, workDir).await(timeout);
    }

    public Job job() {
        return job;
    }

    /** Waits for the job to end; its final state, diagnostics, and the estimate if it succeeded. */
    public Result await(Duration timeout) throws IOException, InterruptedException, TimeoutException {
        JobResult ended = JobResult.await(job, timeout);
        BigDecimal estimate = ended.succeeded() ? readEstimate() : null;
        return new Result(ended, estimate);
    }

    private BigDecimal readEstimate() throws IOException {
        Configuration conf = job.getConfiguration();
        Path reduceOut = new Path(outDir, "reduce-out");
        LongWritable inside = new LongWritable();
        LongWritable outside = new LongWritable();
        try (SequenceFile.Reader reader = new SequenceFile.Reader(conf, SequenceFile.Reader.file(reduceOut))) {
            reader.next(inside, outside);
        }
        return BigDecimal.valueOf(4).multiply(BigDecimal.valueOf(inside.get()))
                .divide(BigDecimal.valueOf(totalSamples), MathContext.DECIMAL64);
    }

    /** How the job ended, and the estimate ({@code null} unless it succeeded). */
    public record Result(JobResult job, BigDecimal piEstimate) {
        public boolean succeeded() {
            return job.succeeded();
        }
    }
}
