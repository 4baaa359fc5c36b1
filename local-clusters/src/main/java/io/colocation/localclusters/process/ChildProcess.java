package io.colocation.localclusters.process;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A part run as its own process, through the distribution's launcher ({@code bin/colocation <command> ...}) as a real
 * install runs it or as its own JVM, with its output in a log file. Closing stops it and every process it started.
 */
public final class ChildProcess implements AutoCloseable {
    private final String name;
    private final Path log;
    private final Process process;

    private ChildProcess(String name, Path log, Process process) {
        this.name = name;
        this.log = log;
        this.process = process;
    }

    /**
     * Starts {@code launcher args...} with {@code javaOptions} in COLOCATION_OPTS and waits until {@code ready} holds.
     */
    public static ChildProcess start(String name, Path launcher, List<String> args, List<String> javaOptions, Map<String, String> env,
            Path log, Duration timeout, BooleanSupplier ready) throws PartFailedException {
        List<String> command = new ArrayList<>();
        command.add(launcher.toString());
        command.addAll(args);
        Map<String, String> environment = new HashMap<>(env);
        environment.put("COLOCATION_OPTS", String.join(" ", javaOptions));
        return start(name, command, environment, log, timeout, ready);
    }

    /** Starts {@code command} (a part's own JVM, say) with {@code env} added and waits until {@code ready} holds. */
    public static ChildProcess start(String name, List<String> command, Map<String, String> env, Path log, Duration timeout,
            BooleanSupplier ready) throws PartFailedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().putAll(env);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new PartFailedException(name, "cannot run " + command.get(0) + ": " + e.getMessage(), log);
        }
        ChildProcess child = new ChildProcess(name, log, p);
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (!ready.getAsBoolean()) {
                if (!p.isAlive()) {
                    throw new PartFailedException(name, "exited with status " + p.exitValue(), log);
                }
                if (System.nanoTime() > deadline) {
                    throw new PartFailedException(name, "not ready after " + timeout.toSeconds() + " s", log);
                }
                Thread.sleep(250);
            }
        } catch (InterruptedException e) {
            child.close();
            Thread.currentThread().interrupt();
            throw new PartFailedException(name, "interrupted while starting", log);
        } catch (PartFailedException | RuntimeException e) {
            child.close();
            throw e;
        }
        return child;
    }

    public String name() {
        return name;
    }

    public Path log() {
        return log;
    }

    public long pid() {
        return process.pid();
    }

    public boolean alive() {
        return process.isAlive();
    }

    /** SIGTERM to the process and its descendants (the JVM's shutdown hooks run), SIGKILL to what is left after 10 s. */
    @Override
    public void close() {
        List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
        tree.add(process.toHandle());
        tree.forEach(ProcessHandle::destroy);
        for (ProcessHandle h : tree) {
            try {
                h.onExit().get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                h.destroyForcibly();
            }
        }
    }
}
