package io.colocation.sandbox;

import io.colocation.api.InvalidInputException;
import io.colocation.localclusters.process.PartFailedException;
import io.colocation.sandbox.scenario.Narrator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code colocation sandbox}: exit 0 when the scenario ran and its invariants held, 1 when it ran but an invariant
 * failed or a part did not start, 2 for bad options. Ctrl-C stops every part (shutdown hook).
 */
public final class SandboxCommand {
    /** Held: java.util.logging keeps loggers weakly, and a collected logger forgets its level. */
    private static final List<java.util.logging.Logger> QUIET = List.of(java.util.logging.Logger.getLogger(""),
            java.util.logging.Logger.getLogger("org.apache.hadoop.shaded.com.sun.jersey"),
            java.util.logging.Logger.getLogger("org.apache.hadoop.shaded.com.google.inject"));

    private SandboxCommand() {
    }

    public static void main(String[] args) {
        System.exit(run(List.of(args)));
    }

    static int run(List<String> args) {
        if (args.contains("--help") || args.contains("-h")) {
            System.out.print(SandboxOptions.USAGE);
            return 0;
        }
        SandboxOptions options;
        try {
            options = SandboxOptions.parse(args);
        } catch (InvalidInputException e) {
            System.err.println("colocation sandbox: " + e.getMessage());
            System.err.print(SandboxOptions.USAGE);
            return 2;
        }
        Path home = Path.of(System.getProperty("colocation.home", System.getenv().getOrDefault("COLOCATION_HOME", ".")));
        if (!Files.isExecutable(home.resolve("bin/colocation"))) {
            System.err.println("colocation sandbox: no bin/colocation under " + home.toAbsolutePath() + " (run it from the distribution)");
            return 2;
        }
        // Jersey and Guice inside YARN log through java.util.logging to the console: only errors there.
        java.util.logging.LogManager.getLogManager().reset();
        for (java.util.logging.Logger l : QUIET) {
            l.setLevel(java.util.logging.Level.SEVERE);
        }
        Narrator narrator = new Narrator(System.out);
        Path work;
        try {
            work = Files.createTempDirectory("colocation-sandbox-");
            // Before anything logs: the in-process parts' log goes next to the others.
            System.setProperty("colocation.sandbox.logs", Files.createDirectories(work.resolve("logs")).toString());
        } catch (java.io.IOException e) {
            System.err.println("colocation sandbox: cannot create a work directory: " + e.getMessage());
            return 1;
        }
        Sandbox sandbox = new Sandbox(options, home, narrator, work);
        Thread hook = new Thread(() -> {
            narrator.stopping();
            sandbox.close();
        }, "sandbox-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            Summary s = sandbox.run();
            List<String> broken = Invariants.check(s);
            broken.forEach(b -> System.err.println("colocation sandbox: " + b));
            if (!broken.isEmpty()) {
                sandbox.keepWorkDirectory();
            }
            return broken.isEmpty() ? 0 : 1;
        } catch (PartFailedException e) {
            System.err.println("colocation sandbox: " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 130;
        } catch (Exception e) {
            System.err.println("colocation sandbox: " + e);
            return 1;
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
                narrator.stopping();
                sandbox.close();
            } catch (IllegalStateException shuttingDown) {
                // the hook is already stopping everything
            }
        }
    }
}
