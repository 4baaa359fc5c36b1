package io.colocation.localclusters.spark;

import io.colocation.localclusters.BuildProperties;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Real Spark (3.5, Maven Central's jars) submitted in cluster mode to a YARN cluster, as {@code spark-submit --master yarn
 * --deploy-mode cluster} does: SparkSubmit in its own JVM with the cluster's configuration directory on its classpath,
 * Spark's jars used in place by every container ({@code spark.yarn.jars=local:...}, nothing uploaded) and no Hadoop
 * classpath added (Spark brings its shaded Hadoop 3.3 client). The job is {@code io.colocation.sparkjob.ShuffleCount}
 * (the {@code local-clusters/spark-job} module): a word count with a shuffle that writes its answer and Spark's count
 * of lost tasks to a file.
 */
public final class SparkOnYarn {
    /** Where the distribution keeps Spark's jars; else the build's directory. */
    public static final String DIRECTORY_PROPERTY = "colocation.spark.classpath.dir";
    public static final String JOB_CLASS = "io.colocation.sparkjob.ShuffleCount";
    private static final String JOB_JAR = "colocation-spark-job.jar";
    private static final java.util.regex.Pattern APPLICATION_ID = java.util.regex.Pattern.compile("application_\\d+_\\d+");

    private SparkOnYarn() {
    }

    /** Spark's jars and the job's. */
    public static Path directory() {
        String configured = System.getProperty(DIRECTORY_PROPERTY);
        Path dir = Path.of(configured != null ? configured : BuildProperties.get("spark.classpath.dir"));
        if (!Files.isRegularFile(dir.resolve(JOB_JAR))) {
            throw new IllegalStateException("Spark classpath " + dir + " has no " + JOB_JAR
                    + ": build the local-clusters/spark-job module first (mvn package)");
        }
        return dir;
    }

    /** The settings a small Spark application needs on a colocated cluster; {@code extra} adds or overrides. */
    public static Map<String, String> settings(Path work, int executors, Map<String, String> extra) {
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("spark.yarn.jars", "local:" + directory() + "/*");
        conf.put("spark.yarn.populateHadoopClasspath", "false");
        conf.put("spark.yarn.stagingDir", work.resolve("staging").toUri().toString());
        conf.put("spark.yarn.maxAppAttempts", "1");
        conf.put("spark.executor.instances", Integer.toString(executors));
        conf.put("spark.executor.cores", "1");
        // Spark's least heap is 450 MiB; YARN containers of 896 MiB with Spark's 384 MiB overhead
        conf.put("spark.executor.memory", "512m");
        conf.put("spark.driver.memory", "512m");
        conf.put("spark.driver.cores", "1");
        conf.put("spark.ui.enabled", "false");
        conf.put("spark.yarn.submit.waitAppCompletion", "true");
        conf.putAll(extra);
        return conf;
    }

    /**
     * Starts spark-submit; its output goes to {@code work/spark-submit.log}. The job writes its result line to
     * {@code work/result.txt} (see {@link #result(Path)}).
     */
    public static Submission submit(Path hadoopConfDir, Path work, Map<String, String> settings, int partitions, long taskMillis) {
        Path dir = directory();
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx256m");
        cmd.addAll(Arrays.asList(BuildProperties.get("jdk17.opens").trim().split("\\s+")));
        cmd.add("-cp");
        cmd.add(hadoopConfDir + ":" + dir + "/*");
        cmd.add("org.apache.spark.deploy.SparkSubmit");
        cmd.addAll(List.of("--master", "yarn", "--deploy-mode", "cluster", "--class", JOB_CLASS));
        settings.forEach((k, v) -> cmd.addAll(List.of("--conf", k + "=" + v)));
        cmd.add(dir.resolve(JOB_JAR).toString());
        cmd.add(work.resolve("result.txt").toString());
        cmd.add(Integer.toString(partitions));
        cmd.add(Long.toString(taskMillis));
        Path log = work.resolve("spark-submit.log");
        try {
            Files.createDirectories(work);
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
            pb.environment().put("HADOOP_CONF_DIR", hadoopConfDir.toString());
            pb.environment().remove("SPARK_HOME");
            return new Submission(pb.start(), log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start spark-submit", e);
        }
    }

    /** The job's result line as key=value pairs, empty until the driver wrote it. */
    public static Optional<Map<String, String>> result(Path work) {
        Path file = work.resolve("result.txt");
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            Map<String, String> out = new LinkedHashMap<>();
            for (String pair : Files.readString(file, StandardCharsets.UTF_8).trim().split("\\s+")) {
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    out.put(pair.substring(0, eq), pair.substring(eq + 1));
                }
            }
            return Optional.of(out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** A running spark-submit. */
    public record Submission(Process process, Path log) {
        /** Waits for spark-submit to end; its exit status (0: the application succeeded). */
        public int await(long timeout, TimeUnit unit) throws InterruptedException {
            if (!process.waitFor(timeout, unit)) {
                process.destroyForcibly();
                throw new IllegalStateException("spark-submit did not end within " + unit.toSeconds(timeout) + " s; see " + log);
            }
            return process.exitValue();
        }

        /** The application id spark-submit printed, once it has. */
        public Optional<String> applicationId() {
            try {
                if (!Files.exists(log)) {
                    return Optional.empty();
                }
                java.util.regex.Matcher m = APPLICATION_ID.matcher(Files.readString(log, StandardCharsets.UTF_8));
                return m.find() ? Optional.of(m.group()) : Optional.empty();
            } catch (IOException e) {
                return Optional.empty();
            }
        }
    }
}
