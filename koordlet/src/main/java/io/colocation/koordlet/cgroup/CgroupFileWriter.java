package io.colocation.koordlet.cgroup;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import io.colocation.model.node.NodeAnnotations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link CgroupWriter} of a real host: validates the value, turns it into the version's format
 * ({@code cpu.cfs_quota_us} or {@code cpu.max}, {@code cpu.shares} or {@code cpu.weight}, ...), reads the old value,
 * writes only a change, logs old → new with the reason, and keeps the last writes for the status endpoint.
 */
public final class CgroupFileWriter implements CgroupWriter {
    private static final Logger LOG = LoggerFactory.getLogger(CgroupFileWriter.class);
    static final long CFS_PERIOD_MICROS = 100_000;

    private final CgroupLayout layout;
    private final Clock clock;
    private final int auditSize;
    private final Deque<Write> audit = new ArrayDeque<>();

    public CgroupFileWriter(CgroupLayout layout, Clock clock, int auditSize) {
        this.layout = layout;
        this.clock = clock;
        this.auditSize = auditSize;
    }

    @Override
    public CgroupLayout layout() {
        return layout;
    }

    /** Whether this host has the knob for the cgroup (cpu.idle needs v2 or kernel ≥ 5.15, memory.high v2). */
    @Override
    public boolean supports(String dir, Knob knob) {
        Path file = layout.file(dir, knob.file);
        return file != null && Files.exists(file);
    }

    /**
     * Sets the knob; returns true when the file changed. A value out of range is a bug of the caller
     * (IllegalArgumentException); a kernel that refuses is logged, audited and returns false.
     */
    @Override
    public boolean set(String dir, Knob knob, String value, String reason) {
        String formatted = format(knob, value);
        Path file = layout.file(dir, knob.file);
        if (file == null) {
            throw new IllegalArgumentException(knob + " does not exist on cgroup " + layout.version());
        }
        String old = read(file).orElse("");
        if (same(knob, old, formatted)) {
            return false;
        }
        try {
            Files.writeString(file, formatted, StandardCharsets.US_ASCII);
            LOG.info("cgroup {}: {} -> {} ({})", file, old, formatted, reason);
            record(new Write(clock.instant(), dir, file.getFileName().toString(), old, formatted, reason, null));
            return true;
        } catch (IOException e) {
            LOG.warn("cgroup {}: cannot write {} ({}): {}", file, formatted, reason, e.getMessage());
            record(new Write(clock.instant(), dir, file.getFileName().toString(), old, formatted, reason, String.valueOf(e.getMessage())));
            return false;
        }
    }

    /** The knob's value in the writer's unit (cpu.max "max 100000" reads -1); empty when unreadable. */
    @Override
    public Optional<String> get(String dir, Knob knob) {
        Path file = layout.file(dir, knob.file);
        return file == null ? Optional.empty() : read(file).map(v -> parse(knob, v));
    }

    /** Whether the cgroup exists (in the CPU hierarchy on v1). */
    @Override
    public boolean exists(String dir) {
        Path file = layout.file(dir, CgroupLayout.Interface.CPUSET_CPUS);
        return file != null && Files.isDirectory(file.getParent());
    }

    /**
     * Makes the cgroup and any missing parent in every hierarchy, from the top down; on v1 each new cpuset gets its
     * parent's CPUs and memory nodes (the kernel starts it empty, and no process can join an empty cpuset).
     */
    @Override
    public void create(String dir) throws IOException {
        String at = "";
        for (String part : dir.split("/")) {
            if (part.isEmpty()) {
                continue;
            }
            at = at.isEmpty() ? part : at + "/" + part;
            for (Path p : layout.hierarchies(at)) {
                Files.createDirectories(p);
            }
            if (layout.version() == CgroupLayout.Version.V1) {
                Path cpus = layout.file(at, CgroupLayout.Interface.CPUSET_CPUS);
                Path mems = layout.file(at, CgroupLayout.Interface.CPUSET_MEMS);
                if (read(cpus).orElse("").isEmpty()) {
                    Files.writeString(cpus, read(cpus.getParent().getParent().resolve("cpuset.cpus")).orElse(""));
                }
                if (read(mems).orElse("").isEmpty()) {
                    Files.writeString(mems, read(mems.getParent().getParent().resolve("cpuset.mems")).orElse(""));
                }
            }
        }
    }

    /** The cgroups below {@code dir}, parents before children, down to {@code depth} levels (in the cpuset hierarchy). */
    @Override
    public List<String> descendants(String dir, int depth) {
        Path base = layout.file(dir, CgroupLayout.Interface.CPUSET_CPUS).getParent();
        List<String> out = new ArrayList<>();
        collect(base, dir, depth, out);
        return out;
    }

    private static void collect(Path at, String dir, int depth, List<String> out) {
        if (depth == 0) {
            return;
        }
        try (java.util.stream.Stream<Path> children = Files.list(at)) {
            for (Path child : children.filter(Files::isDirectory).sorted().toList()) {
                String name = dir + "/" + child.getFileName();
                out.add(name);
                collect(child, name, depth - 1, out);
            }
        } catch (IOException e) {
            // a pod that went away while listing: it needs no cpuset
        }
    }

    /** Moves a process into the cgroup, in every hierarchy. */
    @Override
    public void moveProcess(String dir, long pid, String reason) throws IOException {
        for (Path p : layout.hierarchies(dir)) {
            Files.writeString(p.resolve("cgroup.procs"), Long.toString(pid));
        }
        record(new Write(clock.instant(), dir, "cgroup.procs", "", Long.toString(pid), reason, null));
    }

    /** Removes the cgroup where it is empty; returns false when a process is still in it. */
    @Override
    public boolean remove(String dir) {
        boolean removed = true;
        for (Path p : layout.hierarchies(dir)) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException e) {
                removed = false;
            }
        }
        return removed;
    }

    @Override
    public synchronized List<Write> audit() {
        return new ArrayList<>(audit);
    }

    private synchronized void record(Write w) {
        audit.addLast(w);
        while (audit.size() > auditSize) {
            audit.removeFirst();
        }
    }

    /** The value in the version's file format, validated. */
    String format(Knob knob, String value) {
        CgroupWriter.validate(knob, value);
        boolean v2 = layout.version() == CgroupLayout.Version.V2;
        return switch (knob) {
            case CPU_QUOTA -> v2 ? (value.equals("-1") ? "max" : value) + " " + CFS_PERIOD_MICROS : value;
            case CPU_SHARES -> {
                long shares = Long.parseLong(value);
                yield Long.toString(v2 ? 1 + ((shares - 2) * 9999) / 262142 : shares);
            }
            case MEMORY_LIMIT, MEMORY_HIGH -> value.equals("-1") && v2 ? "max" : value;
            default -> value;
        };
    }

    /** A file's value in the writer's unit. */
    String parse(Knob knob, String raw) {
        String v = raw.trim();
        if (knob == Knob.CPU_QUOTA && layout.version() == CgroupLayout.Version.V2) {
            String quota = v.split("\\s+")[0];
            return quota.equals("max") ? "-1" : quota;
        }
        if ((knob == Knob.MEMORY_LIMIT || knob == Knob.MEMORY_HIGH) && v.equals("max")) {
            return "-1";
        }
        return v;
    }

    /** Equal as the kernel means it (v1 shows an unlimited memory limit as a huge number, cpu.max with its period). */
    private boolean same(Knob knob, String old, String formatted) {
        if (old.equals(formatted)) {
            return true;
        }
        if (knob == Knob.CPUSET_CPUS && !old.isEmpty()) {
            List<Integer> was = NodeAnnotations.cpuList(old);
            return was != null && was.equals(NodeAnnotations.cpuList(formatted));
        }
        return false;
    }

    private static Optional<String> read(Path file) {
        try {
            return Optional.of(Files.readString(file, StandardCharsets.US_ASCII).trim());
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
