package io.colocation.quota;

import io.colocation.api.ResourceNames;
import io.colocation.api.yarn.YarnResourceUnits;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A YARN leaf queue as a quota of a tree over Batch ({@value ElasticQuotaSpec#ANNOTATION_YARN_QUEUE}): its demand in
 * the tree's units and the tree's amounts in YARN's. The quota's CPU resource is the first of {@link #CPU_NAMES} its
 * max names (vcores as milli-cores), its memory the first of {@link #MEMORY_NAMES} (MiB as bytes); towards YARN whole
 * vcores and MiB, rounded down, so a queue's limit never exceeds the runtime it came from.
 */
public final class YarnLeaf {
    public static final List<String> CPU_NAMES = List.of(ResourceNames.BATCH_CPU, ResourceNames.CPU);
    public static final List<String> MEMORY_NAMES = List.of(ResourceNames.BATCH_MEMORY, ResourceNames.MEMORY);
    // CapacityScheduler's queue names: no dots inside a name, nothing its configuration syntax gives a meaning.
    private static final Pattern PATH = Pattern.compile("root(\\.[^.\\s:,=\\[\\]]+)+");

    /** Vcores and MiB: what a queue holds, asks for or may hold. */
    public record Amount(long vcores, long memoryMB) {
        public static final Amount NONE = new Amount(0, 0);

        public Amount plus(Amount o) {
            return new Amount(vcores + o.vcores, memoryMB + o.memoryMB);
        }

        /** Each resource at least {@code o}'s. */
        public Amount atLeast(Amount o) {
            return new Amount(Math.max(vcores, o.vcores), Math.max(memoryMB, o.memoryMB));
        }

        /** This, or 1 MiB when all zero: the CapacityScheduler reads an all-zero absolute resource as no setting. */
        public Amount readable() {
            return vcores == 0 && memoryMB == 0 ? new Amount(0, 1) : this;
        }

        /** CapacityScheduler's absolute resource form: {@code [memory=10240,vcores=12]}. */
        public String absolute() {
            return YarnResourceUnits.absolute(memoryMB, vcores);
        }
    }

    /** What a YARN leaf's queue holds and still asks for (the default partition): its demand in the tree. */
    public record Demand(Amount allocated, Amount pending) {
        public static final Demand NONE = new Demand(Amount.NONE, Amount.NONE);

        /** Allocated plus pending. */
        public Amount request() {
            return allocated.plus(pending);
        }
    }

    private YarnLeaf() {
    }

    /** Whether {@code path} names a queue under {@code root}: {@code root.team-a}, {@code root.org.team-a}. */
    public static boolean validPath(String path) {
        return PATH.matcher(path).matches();
    }

    /** The CPU resource a quota with this max counts vcores in; null when it names none. */
    public static String cpuName(ResourceAmounts max) {
        return CPU_NAMES.stream().filter(max::has).findFirst().orElse(null);
    }

    /** The memory resource a quota with this max counts MiB in; null when it names none. */
    public static String memoryName(ResourceAmounts max) {
        return MEMORY_NAMES.stream().filter(max::has).findFirst().orElse(null);
    }

    /** A queue's amount in the units of a quota with this max (a resource it does not name is left out). */
    public static ResourceAmounts amounts(Amount a, ResourceAmounts max) {
        ResourceAmounts out = ResourceAmounts.NONE;
        String cpu = cpuName(max);
        String memory = memoryName(max);
        if (cpu != null) {
            out = out.with(cpu, YarnResourceUnits.milliOfVcores(a.vcores()));
        }
        if (memory != null) {
            out = out.with(memory, YarnResourceUnits.bytesOfMb(a.memoryMB()));
        }
        return out;
    }

    /** The YARN amount of a quota's amounts. */
    public static Amount amount(ResourceAmounts a, ResourceAmounts max) {
        String cpu = cpuName(max);
        String memory = memoryName(max);
        return new Amount(cpu == null ? 0 : YarnResourceUnits.vcoresOfMilli(a.get(cpu)),
                memory == null ? 0 : YarnResourceUnits.mbOfBytes(a.get(memory)));
    }

    /**
     * The leaf's usage in the tree: what its queue has allocated is used; allocated and pending are requested (the
     * queue's applications ask for the pending part). YARN has no non-preemptible containers.
     */
    public static QuotaUsage usage(ResourceAmounts max, Demand demand) {
        ResourceAmounts used = amounts(demand.allocated(), max);
        return new QuotaUsage(amounts(demand.request(), max), used, ResourceAmounts.NONE, ResourceAmounts.NONE);
    }
}
