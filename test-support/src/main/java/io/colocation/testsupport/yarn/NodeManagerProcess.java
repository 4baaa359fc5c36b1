package io.colocation.testsupport.yarn;

import io.colocation.localclusters.BuildProperties;
import io.colocation.localclusters.LoopbackPorts;
import io.colocation.localclusters.yarn.MapReduceClasspath;
import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real NodeManager in its own JVM, the way an init system runs one: Hadoop's unshaded jars (the
 * MapReduce container classpath of this Hadoop version) plus the jars of the aux services under test,
 * a {@code yarn-site.xml} made from a running cluster's configuration, a fixed address (outside the ephemeral
 * port range, so it is still free when the NodeManager binds it and again when it restarts) and
 * work-preserving recovery ({@code yarn.nodemanager.recovery.enabled}, supervised). {@link #stop()}
 * sends SIGTERM and {@link #start()} starts it again on the same recovery directory, so containers
 * outlive the restart. MiniYARNCluster's own NodeManagers cannot do this: they bind ephemeral ports,
 * which recovery refuses, and the shaded minicluster lacks the LevelDB state store's native library.
 */
public final class NodeManagerProcess implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(NodeManagerProcess.class);
    private static final String MAIN = "org.apache.hadoop.yarn.server.nodemanager.NodeManager";

    private final Path work;
    private final Path log;
    private final List<String> command;
    private final int port;
    private Process process;

    private NodeManagerProcess(Path work, List<String> command, int port) {
        this.work = work;
        this.log = work.resolve("nodemanager.log");
        this.command = command;
        this.port = port;
    }

    /**
     * Prepares (does not start) a NodeManager of the cluster whose configuration is {@code clusterConf},
     * working under {@code work}, with {@code extraClasspath} (aux service jars or class folders) and
     * {@code properties} over the cluster's configuration.
     */
    public static NodeManagerProcess create(Configuration clusterConf, Path work, List<Path> extraClasspath,
            Map<String, String> properties) {
        int port = LoopbackPorts.pick();
        Configuration conf = new Configuration(clusterConf);
        // The host's name, as MiniYARNCluster's NodeManagers use: it becomes the node id ApplicationMasters dial.
        String host = org.apache.hadoop.yarn.server.MiniYARNCluster.getHostname();
        conf.set("yarn.nodemanager.address", host + ":" + port);
        conf.set("yarn.nodemanager.localizer.address", host + ":" + LoopbackPorts.pick());
        conf.set("yarn.nodemanager.webapp.address", host + ":0");
        conf.set("yarn.nodemanager.local-dirs", work.resolve("local").toString());
        conf.set("yarn.nodemanager.log-dirs", work.resolve("logs").toString());
        conf.set("yarn.nodemanager.remote-app-log-dir", work.resolve("remote-logs").toString());
        conf.setBoolean("yarn.nodemanager.recovery.enabled", true);
        conf.set("yarn.nodemanager.recovery.dir", work.resolve("recovery").toString());
        conf.setBoolean("yarn.nodemanager.recovery.supervised", true);
        properties.forEach(conf::set);
        Path confDir = work.resolve("conf");
        try {
            Files.createDirectories(confDir);
            try (OutputStream out = Files.newOutputStream(confDir.resolve("yarn-site.xml"))) {
                conf.writeXml(out);
            }
            Files.write(confDir.resolve("log4j.properties"), String.join("\n",
                    "log4j.rootLogger=INFO,console",
                    "log4j.appender.console=org.apache.log4j.ConsoleAppender",
                    "log4j.appender.console.layout=org.apache.log4j.PatternLayout",
                    "log4j.appender.console.layout.ConversionPattern=%d{ISO8601} %p %c{2}: %m%n", "").getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the NodeManager's configuration under " + work, e);
        }
        List<String> classpath = new ArrayList<>();
        classpath.add(confDir.toString());
        classpath.add(MapReduceClasspath.directory() + "/*");
        extraClasspath.forEach(p -> classpath.add(p.toString()));
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        // Hadoop 3.3/3.4 predate Java 17: the NodeManager gets the packages opened that the test JVMs get.
        command.addAll(List.of(BuildProperties.get("jdk17.opens").trim().split("\\s+")));
        command.add("-Dhadoop.log.dir=" + work.resolve("logs"));
        command.add("-Dyarn.log.dir=" + work.resolve("logs"));
        command.add("-cp");
        command.add(String.join(File.pathSeparator, classpath));
        command.add(MAIN);
        return new NodeManagerProcess(work, command, port);
    }

    /** Starts the NodeManager (again, after {@link #stop()}); its output is appended to {@link #log()}. */
    public synchronized void start() throws IOException {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("the NodeManager is already running (pid " + process.pid() + ")");
        }
        ProcessBuilder builder = new ProcessBuilder(command).directory(work.toFile())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        process = builder.start();
        LOG.info("NodeManager started (pid {}) on port {}, log {}", process.pid(), port, log);
    }

    /** SIGTERM, as {@code yarn --daemon stop nodemanager} sends; waits for the JVM to exit. */
    public synchronized void stop() throws InterruptedException {
        if (process == null || !process.isAlive()) {
            return;
        }
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new IllegalStateException("the NodeManager did not stop within 60 s of SIGTERM; see " + log);
        }
        LOG.info("NodeManager stopped (exit {})", process.exitValue());
    }

    /** The port of {@code yarn.nodemanager.address}, part of the NodeManager's node id. */
    public int port() {
        return port;
    }

    public Path log() {
        return log;
    }

    /** The last lines of the log, for failure messages. */
    public String logTail(int lines) {
        try {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            return all.subList(Math.max(0, all.size() - lines), all.size()).stream().collect(Collectors.joining("\n"));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /**
     * Stops the NodeManager and ends what it left running: a supervised NodeManager keeps its containers
     * when it stops, so every process whose command line names this NodeManager's directory is killed.
     */
    @Override
    public void close() {
        try {
            stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        String dir = work.toAbsolutePath().toString();
        ProcessHandle.allProcesses()
                .filter(p -> p.info().commandLine().map(c -> c.contains(dir)).orElse(false))
                .forEach(p -> {
                    LOG.info("ending process {} left by the NodeManager: {}", p.pid(), p.info().commandLine().orElse(""));
                    p.destroyForcibly();
                });
    }
}
