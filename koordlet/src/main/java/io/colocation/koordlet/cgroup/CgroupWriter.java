package io.colocation.koordlet.cgroup;

import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The one writer of cgroups (Koordinator's {@code resourceexecutor}): strategies say what (a knob, a value in one unit
 * for both cgroup versions) and why, never a kernel file name. {@link CgroupFileWriter} writes a real host's files; a
 * simulated host keeps the values for its model of the kernel. Every value is checked here ({@link #validate}) the
 * same way for both.
 */
public interface CgroupWriter {
    /** The smallest CFS quota the kernel takes. */
    long MIN_QUOTA_MICROS = 1000;

    /** What can be set, with its unit. */
    public enum Knob {
        /** a Linux CPU list, {@code 0-3,8} */
        CPUSET_CPUS(CgroupLayout.Interface.CPUSET_CPUS),
        /** CFS quota in µs per 100 ms period; -1 = none */
        CPU_QUOTA(CgroupLayout.Interface.CPU_QUOTA),
        /** v1 cpu.shares (2..262144), converted to cpu.weight on v2 as the kubelet does */
        CPU_SHARES(CgroupLayout.Interface.CPU_SHARES),
        /** 1: the group's tasks run as SCHED_IDLE (v2, and v1 from kernel 5.15); 0: normal */
        CPU_IDLE(CgroupLayout.Interface.CPU_IDLE),
        /** bytes; -1 = unlimited */
        MEMORY_LIMIT(CgroupLayout.Interface.MEMORY_LIMIT),
        /** bytes, v2 only; -1 = unlimited */
        MEMORY_HIGH(CgroupLayout.Interface.MEMORY_HIGH),
        /** v1 only, a bitmask: 1 anonymous, 2 file pages move with a process that joins the group (v2 never moves them) */
        MEMORY_MOVE_CHARGE(CgroupLayout.Interface.MEMORY_MOVE_CHARGE);

        final CgroupLayout.Interface file;

        Knob(CgroupLayout.Interface file) {
            this.file = file;
        }
    }

    /** One write, for the audit list: old and new value as the kernel file shows them, or the error. */
    public record Write(Instant time, String dir, String file, String oldValue, String newValue, String reason, String error) {
    }

    CgroupLayout layout();

    /** Whether this host has the knob for the cgroup (cpu.idle needs v2 or kernel ≥ 5.15, memory.high v2). */
    boolean supports(String dir, Knob knob);

    /**
     * Sets the knob; returns true when the value changed. A value out of range is a bug of the caller
     * (IllegalArgumentException, see {@link #validate}); a kernel that refuses is logged, audited and returns false.
     */
    boolean set(String dir, Knob knob, String value, String reason);

    /** The knob's value in the writer's unit (cpu.max "max 100000" reads -1); empty when unreadable. */
    Optional<String> get(String dir, Knob knob);

    /** Whether the cgroup exists (in the CPU hierarchy on v1). */
    boolean exists(String dir);

    /** Makes the cgroup and any missing parent. */
    void create(String dir) throws IOException;

    /** The cgroups below {@code dir}, parents before children, down to {@code depth} levels. */
    List<String> descendants(String dir, int depth);

    /** Moves a process into the cgroup. */
    void moveProcess(String dir, long pid, String reason) throws IOException;

    /** Removes the cgroup where it is empty; returns false when a process is still in it. */
    boolean remove(String dir);

    /** The last writes, oldest first. */
    List<Write> audit();

    /** Throws IllegalArgumentException when {@code value} is not a valid value of the knob in the writer's unit. */
    static void validate(Knob knob, String value) {
        switch (knob) {
            case CPUSET_CPUS -> {
                if (!isCpuList(value)) {
                    throw new IllegalArgumentException("cpuset.cpus must be a CPU list such as 0-3,8, not '" + value + "'");
                }
            }
            case CPU_QUOTA -> {
                long q = Long.parseLong(value);
                if (q != -1 && q < MIN_QUOTA_MICROS) {
                    throw new IllegalArgumentException("CFS quota must be -1 or at least " + MIN_QUOTA_MICROS + " µs, not " + q);
                }
            }
            case CPU_SHARES -> {
                long shares = Long.parseLong(value);
                if (shares < 2 || shares > 262144) {
                    throw new IllegalArgumentException("cpu.shares must be 2..262144, not " + shares);
                }
            }
            case CPU_IDLE -> {
                if (!value.equals("0") && !value.equals("1")) {
                    throw new IllegalArgumentException("cpu.idle must be 0 or 1, not '" + value + "'");
                }
            }
            case MEMORY_MOVE_CHARGE -> {
                if (value.length() != 1 || value.charAt(0) < '0' || value.charAt(0) > '3') {
                    throw new IllegalArgumentException("memory.move_charge_at_immigrate must be 0 to 3, not '" + value + "'");
                }
            }
            default -> {
                long bytes = Long.parseLong(value);
                if (bytes != -1 && bytes < 0) {
                    throw new IllegalArgumentException(knob + " must be -1 or a byte count, not " + bytes);
                }
            }
        }
    }

    /**
     * Whether {@code value} is a Linux CPU list as the kernel file takes it, {@code (\d+(-\d+)?)(,\d+(-\d+)?)*}: read
     * by hand, as every QoS round writes the BE cpuset to each BE cgroup.
     */
    private static boolean isCpuList(String value) {
        int i = 0;
        while (true) {
            int end = digitsEnd(value, i);
            if (end == i) {
                return false;
            }
            i = end;
            if (i < value.length() && value.charAt(i) == '-') {
                end = digitsEnd(value, ++i);
                if (end == i) {
                    return false;
                }
                i = end;
            }
            if (i == value.length()) {
                return true;
            }
            if (value.charAt(i++) != ',') {
                return false;
            }
        }
    }

    /** Where the run of ASCII digits from {@code i} ends. */
    private static int digitsEnd(String value, int i) {
        while (i < value.length() && value.charAt(i) >= '0' && value.charAt(i) <= '9') {
            i++;
        }
        return i;
    }
}
