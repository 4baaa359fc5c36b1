package io.colocation.harness.koordlet;

import io.colocation.localclusters.process.ChildProcess;
import io.colocation.localclusters.process.PartFailedException;
import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * A simulated node's koordlet in a JVM of its own, as a host runs its agent: the distribution's {@code lib/} (the
 * agent and its libraries) plus this harness's jar, {@code conf/koordlet.yml} with the caller's
 * {@code -Dkoordlet.<path>=value} settings, the launcher's small-agent JVM options, its output in a log file.
 */
public final class KoordletProcess {
    /** Enough for a simulated node's agent; the launcher's KOORDLET_JVM_DEFAULTS in short. */
    private static final List<String> JVM = List.of("-Xms16m", "-Xmx64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    private KoordletProcess() {
    }

    /**
     * @param home     the distribution
     * @param settings {@code -Dkoordlet.<path>=value} settings beyond {@code conf/koordlet.yml}
     * @param enforceOnThisHost whether its QoS loop writes this host's BE tier ({@link ReplayingKoordlet})
     */
    public static ChildProcess start(Path home, String node, Path loadFile, List<String> settings, boolean enforceOnThisHost, Path log,
            Duration timeout, BooleanSupplier ready) throws PartFailedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(JVM);
        command.add("-Dlogback.configurationFile=" + home.resolve("conf/logback.xml"));
        command.addAll(settings);
        command.addAll(List.of("-cp", home.resolve("lib") + File.separator + "*" + File.pathSeparator + harnessJar(),
                ReplayingKoordlet.class.getName(), home.resolve("conf/koordlet.yml").toString(), loadFile.toString()));
        if (enforceOnThisHost) {
            command.add(ReplayingKoordlet.ENFORCE);
        }
        // two malloc arenas, as the launcher runs the agent
        return ChildProcess.start("koordlet " + node, command, Map.of("NODE_NAME", node, "MALLOC_ARENA_MAX", "2"), log, timeout, ready);
    }

    /** Where this harness's classes are: its jar in the distribution ({@code lib/sandbox/}). */
    private static Path harnessJar() {
        try {
            return Path.of(ReplayingKoordlet.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("the harness's own location: " + e.getMessage(), e);
        }
    }
}
