package io.colocation.localclusters.spark;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Real Spark (3.5, Maven Central's jars) submitted in cluster mode to a YARN cluster, as {@code spark-submit --master yarn
 * --deploy-mode cluster} does: SparkSubmit in its own JVM with the cluster's configuration directory on its classpath,
 * Spark's jars used in place by every container ({@code spark.yarn.jars=local:...}, nothing uploaded) and no Hadoop
 * classpath added (Spark brings its shaded Hadoop 3.3 client). The job is {@link SparkSubmit#JOB_CLASS}
 * (the {@code local-clusters/spark-job} module, see {@link SparkSubmit}).
 */
public final class SparkOnYarn {
    /** Where the distribution keeps Spark's jars; else the build's directory. */
    public static final String DIRECTORY_PROPERTY = "colocation.spark.classpath.dir";
    private static final java.util.regex.Pattern APPLICATION_ID = java.util.regex.Pattern.compile("application_\\d+_\\d+");

    private SparkOnYarn() {
    }

    /** Spark's jars and the job's. */
    public static Path directory() {
        return SparkSubmit.classpathDirectory(DIRECTORY_PROPERTY, "spark.classpath.dir", "local-clusters/spark-job");
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
     * {@code work/result.txt} (see {@link SparkSubmit#result(Path)}).
     */
    public static SparkSubmit.Submission submit(Path hadoopConfDir, Path work, Map<String, String> settings, int partitions, long taskMillis) {
        Path dir = directory();
        // spark-submit only submits and waits here: the driver runs in the ApplicationMaster
        return SparkSubmit.start("256m", hadoopConfDir + ":" + dir + "/*", dir, List.of("--master", "yarn", "--deploy-mode", "cluster"), settings,
                Map.of("HADOOP_CONF_DIR", hadoopConfDir.toString()), work, partitions, taskMillis);
    }

    /** The application id spark-submit printed, once it has. */
    public static java.util.Optional<String> applicationId(SparkSubmit.Submission submission) {
        return submission.find(APPLICATION_ID);
    }
}
