package io.colocation.simulator.model.host;

import io.colocation.koordlet.cgroup.CgroupLayout;
import io.colocation.koordlet.cgroup.CgroupWriter;
import io.colocation.model.node.NodeAnnotations;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A simulated host's cgroups: the values the koordlet's QoS loop writes, kept for the {@link HostModel} to share the
 * CPU by, checked by the same rules as on a real host ({@link CgroupWriter#validate}). The kubelet's tiers exist from
 * the start (a cgroup v1 layout with the cgroupfs driver, like this project's test hosts); pods' own cgroups are not
 * modelled, so the BE tier has no descendants. {@code cpu.idle} and {@code memory.high} are absent, as on cgroup v1
 * before kernel 5.15.
 */
public final class SimulatedCgroups implements CgroupWriter {
    private static final CgroupLayout LAYOUT = new CgroupLayout(Path.of("/simulated/cgroup"), CgroupLayout.Version.V1,
            CgroupLayout.Driver.CGROUPFS);
    private static final int AUDIT = 8;

    private final Clock clock;
    private final Map<String, Map<Knob, String>> values = new HashMap<>();
    private final Deque<Write> audit = new ArrayDeque<>();
    private final AtomicLong writes = new AtomicLong();
    /** The BE cpuset last counted, and its size: the host model asks every step, the koordlet rewrites it rarely. */
    private String countedCpuset;
    private double countedCpusetCores;

    public SimulatedCgroups(Clock clock) {
        this.clock = clock;
        for (String tier : List.of("kubepods", LAYOUT.qosDir("Burstable"), LAYOUT.qosDir("BestEffort"))) {
            values.put(tier, new HashMap<>());
        }
    }

    @Override
    public CgroupLayout layout() {
        return LAYOUT;
    }

    /** The BE tier's directory ({@code kubepods/besteffort}). */
    public String beDir() {
        return LAYOUT.qosDir("BestEffort");
    }

    @Override
    public boolean supports(String dir, Knob knob) {
        return knob != Knob.CPU_IDLE && knob != Knob.MEMORY_HIGH;
    }

    @Override
    public synchronized boolean set(String dir, Knob knob, String value, String reason) {
        CgroupWriter.validate(knob, value);
        if (!supports(dir, knob)) {
            throw new IllegalArgumentException(knob + " does not exist on cgroup v1");
        }
        Map<Knob, String> knobs = values.computeIfAbsent(dir, d -> new HashMap<>());
        String old = knobs.get(knob);
        if (value.equals(old) || knob == Knob.CPUSET_CPUS && old != null
                && java.util.Objects.equals(NodeAnnotations.cpuList(old), NodeAnnotations.cpuList(value))) {
            return false;
        }
        knobs.put(knob, value);
        writes.incrementAndGet();
        audit.addLast(new Write(clock.instant(), dir, knob.name(), old == null ? "" : old, value, reason, null));
        while (audit.size() > AUDIT) {
            audit.removeFirst();
        }
        return true;
    }

    @Override
    public synchronized Optional<String> get(String dir, Knob knob) {
        Map<Knob, String> knobs = values.get(dir);
        return knobs == null ? Optional.empty() : Optional.ofNullable(knobs.get(knob));
    }

    @Override
    public synchronized boolean exists(String dir) {
        return values.containsKey(dir);
    }

    @Override
    public synchronized void create(String dir) {
        values.computeIfAbsent(dir, d -> new HashMap<>());
    }

    @Override
    public List<String> descendants(String dir, int depth) {
        return List.of();
    }

    @Override
    public synchronized void moveProcess(String dir, long pid, String reason) {
        writes.incrementAndGet();
    }

    @Override
    public synchronized boolean remove(String dir) {
        values.remove(dir);
        return true;
    }

    @Override
    public synchronized List<Write> audit() {
        return new ArrayList<>(audit);
    }

    /** The BE tier's CFS quota in cores; infinite when there is none. */
    public synchronized double beQuotaCores() {
        String q = values.get(beDir()).get(Knob.CPU_QUOTA);
        long micros = q == null ? -1 : Long.parseLong(q);
        return micros < 0 ? Double.POSITIVE_INFINITY : micros / 100_000.0;
    }

    /** The BE tier's cpuset size in CPUs; infinite when it was never written (all of the host's CPUs). */
    public synchronized double beCpusetCores() {
        String cpus = values.get(beDir()).get(Knob.CPUSET_CPUS);
        if (cpus != null && cpus.equals(countedCpuset)) {
            return countedCpusetCores;
        }
        List<Integer> list = cpus == null ? null : NodeAnnotations.cpuList(cpus);
        countedCpuset = cpus;
        countedCpusetCores = list == null ? Double.POSITIVE_INFINITY : list.size();
        return countedCpusetCores;
    }

    /** Values written so far (a changed value each). */
    public long writes() {
        return writes.get();
    }
}
