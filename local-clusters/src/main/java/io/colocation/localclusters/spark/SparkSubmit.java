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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * spark-submit as its own JVM, the way the {@code spark-submit} script runs it (SparkSubmit on Spark's jars, Java 17's
 * {@code --add-opens}), running the word count {@value #JOB_CLASS} (the {@code local-clusters/spark-job} source): what
 * {@link SparkOnYarn} and {@link SparkOnKubernetes} share. The job writes one line of {@code key=value} pairs to
 * {@code work/result.txt}: whether every count is right and Spark's own account of lost tasks and executors.
 */
public final class SparkSubmit {
    public static final String JOB_CLASS = "io.colocation.sparkjob.ShuffleCount";
    static final String JOB_JAR = "colocation-spark-job.jar";

    private SparkSubmit() {
    }

    /** The directory {@code property} names, else the build's; it must hold the job's jar. */
    static Path classpathDirectory(String property, String buildProperty, String module) {
        String configured = System.getProperty(property);
        Path dir = Path.of(configured != null ? configured : BuildProperties.get(buildProperty));
        if (!Files.isRegularFile(dir.resolve(JOB_JAR))) {
            throw new IllegalStateException("Spark classpath " + dir + " has no " + JOB_JAR + ": build the " + module
                    + " module first (mvn package)");
        }
        return dir;
    }

    /**
     * Starts spark-submit with a heap of {@code heap} on {@code classpath} with {@code options} (--master and the like),
     * {@code settings} as {@code --conf}, the job's jar from {@code jobDir} and its arguments; its output goes to
     * {@code work/spark-submit.log}.
     */
    static Submission start(String heap, String classpath, Path jobDir, List<String> options, Map<String, String> settings, Map<String, String> env,
            Path work, int partitions, long taskMillis) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx" + heap);
        cmd.addAll(Arrays.asList(BuildProperties.get("jdk17.opens").trim().split("\\s+")));
        cmd.add("-cp");
        cmd.add(classpath);
        cmd.add("org.apache.spark.deploy.SparkSubmit");
        cmd.addAll(options);
        cmd.addAll(List.of("--class", JOB_CLASS));
        settings.forEach((k, v) -> cmd.addAll(List.of("--conf", k + "=" + v)));
        cmd.add(jobDir.resolve(JOB_JAR).toString());
        cmd.add(work.resolve("result.txt").toString());
        cmd.add(Integer.toString(partitions));
        cmd.add(Long.toString(taskMillis));
        Path log = work.resolve("spark-submit.log");
        try {
            Files.createDirectories(work);
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
            pb.environment().remove("SPARK_HOME");
            pb.environment().putAll(env);
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

        /** The first match of {@code pattern} in its log, once there is one. */
        public Optional<String> find(Pattern pattern) {
            try {
                if (!Files.exists(log)) {
                    return Optional.empty();
                }
                Matcher m = pattern.matcher(Files.readString(log, StandardCharsets.UTF_8));
                return m.find() ? Optional.of(m.group()) : Optional.empty();
            } catch (IOException e) {
                return Optional.empty();
            }
        }

        /** The last thing its log says went wrong (YARN's diagnostics or an exception), or "". */
        public String failureHint() {
            try {
                String hint = "";
                for (String line : Files.readAllLines(log)) {
                    String t = line.trim();
                    if ((t.startsWith("diagnostics:") && !t.endsWith("N/A")) || t.contains("Exception:")) {
                        hint = t;
                    }
                }
                return hint.isEmpty() ? "" : ": " + (hint.length() > 300 ? hint.substring(0, 300) + "…" : hint);
            } catch (IOException e) {
                return "";
            }
        }
    }
}
