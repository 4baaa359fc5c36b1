package io.colocation.sandbox.parts;

import io.colocation.helpers.concurrent.Daemons;
import io.colocation.koordlet.cgroup.CgroupFileWriter;
import io.colocation.koordlet.cgroup.CgroupLayout;
import io.colocation.koordlet.cgroup.CgroupWriter;
import io.colocation.koordlet.qos.agent.QoSOptions;
import io.colocation.localclusters.kube.KubeletNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This host's BE tier for the sandbox's first node, watched for the YARN containers its koordlet places under it. With
 * the real node it is the kubelet's own ({@link #ofKubelet}: the kubelet made it and removes it). Without it, it is made
 * here as a kubelet would ({@code kubepods/besteffort}, {@link #create}) and removed with everything below it at the end
 * (after YARN stopped, so the containers' processes are gone); only where the cgroups are writable and no live kubelet owns
 * {@code kubepods} (what a killed run left is removed first).
 */
public final class HostBestEffortTier implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HostBestEffortTier.class);
    private static final Duration REMOVE_WAIT = Duration.ofSeconds(20);

    private final CgroupWriter writer;
    private final String be;
    private final String yarnParent;
    private final Set<String> containersSeen = new ConcurrentSkipListSet<>();
    private final ScheduledExecutorService watcher;
    /** Whether the tier was made here (and so is removed here). */
    private final boolean owned;

    private HostBestEffortTier(CgroupWriter writer, boolean owned) {
        this.writer = writer;
        this.owned = owned;
        this.be = writer.layout().qosDir("BestEffort");
        this.yarnParent = QoSOptions.defaults().yarnParentUnder(be); // where the koordlet, as configured, puts them
        this.watcher = Executors.newSingleThreadScheduledExecutor(Daemons.named("sandbox-host-tier"));
        watcher.scheduleWithFixedDelay(() -> containersSeen.addAll(writer.descendants(yarnParent, 1)), 1, 1, TimeUnit.SECONDS);
    }

    /** The tier, or why this host's cgroups cannot be used. */
    public static Result create(Path cgroupRoot) {
        CgroupLayout layout;
        try {
            layout = CgroupLayout.detect(cgroupRoot, "auto", "cgroupfs");
        } catch (RuntimeException e) {
            return new Result(null, "no usable cgroup mount at " + cgroupRoot + " (" + e.getMessage() + ")");
        }
        Path hierarchy = layout.version() == CgroupLayout.Version.V2 ? cgroupRoot : cgroupRoot.resolve("cpu");
        if (!Files.isWritable(hierarchy)) {
            return new Result(null, "the cgroups at " + cgroupRoot + " are not writable (not root?)");
        }
        if (Files.exists(hierarchy.resolve("kubepods"))) {
            Optional<String> live = KubeletNode.liveKubelet();
            if (live.isPresent()) {
                return new Result(null, "a kubelet's kubepods cgroup is on this host and is not touched (" + live.get() + ")");
            }
            // what a killed run left (a real node's, or a tier made here): removed as the next real node's start would
            LOG.warn("removed what a run killed before its end left on this host: {}", String.join("; ", KubeletNode.removeTracesOfKilledRuns()));
        }
        CgroupWriter writer = new CgroupFileWriter(layout, Clock.systemUTC(), 16);
        try {
            writer.create("kubepods");
            writer.create(layout.qosDir("BestEffort"));
        } catch (IOException e) {
            writer.remove("kubepods");
            return new Result(null, "cannot make kubepods/besteffort: " + e.getMessage());
        }
        return new Result(new HostBestEffortTier(writer, true), null);
    }

    /** The real node's kubelet's BE tier, watched only. */
    public static HostBestEffortTier ofKubelet(Path cgroupRoot) {
        CgroupLayout layout = CgroupLayout.detect(cgroupRoot, "auto", "cgroupfs");
        return new HostBestEffortTier(new CgroupFileWriter(layout, Clock.systemUTC(), 16), false);
    }

    /** @param tier null when this host's cgroups are not used, with the reason in {@code why} */
    public record Result(HostBestEffortTier tier, String why) {
    }

    /** Where the koordlet puts YARN containers, and the cgroup version. */
    public String describe() {
        return yarnParent + " (cgroup " + writer.layout().version() + ")";
    }

    /** The YARN containers the koordlet has placed under the tier so far. */
    public int containersPlaced() {
        return containersSeen.size();
    }

    @Override
    public void close() throws InterruptedException {
        watcher.shutdownNow();
        if (!owned) {
            return;
        }
        long deadline = System.nanoTime() + REMOVE_WAIT.toNanos();
        Optional<String> left = removeAll();
        while (left.isPresent() && System.nanoTime() < deadline) {
            Thread.sleep(200); // a container's processes are still exiting
            left = removeAll();
        }
        if (left.isPresent()) {
            throw new IllegalStateException("cannot remove the cgroup " + left.get() + ": processes are still in it");
        }
    }

    /** Removes everything below kubepods and it, deepest first; the first cgroup that could not go. */
    private Optional<String> removeAll() {
        List<String> dirs = new ArrayList<>(List.of("kubepods"));
        dirs.addAll(writer.descendants("kubepods", 4));
        for (int i = dirs.size() - 1; i >= 0; i--) {
            if (!writer.remove(dirs.get(i))) {
                return Optional.of(dirs.get(i));
            }
        }
        return Optional.empty();
    }
}
