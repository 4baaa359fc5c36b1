package io.colocation.koordlet.qos.cpusuppress;

import java.util.List;

/**
 * One round of CPU suppress: the BE budget and the BE cgroup's cpuset and CFS quota after the round.
 *
 * @param beMilliCpu     the suppress budget before the policy's rules (minimum, step limits)
 * @param cpusetCpus     the BE cpuset after this round, in the order the CPUs were picked
 * @param cfsQuotaMicros the BE CFS quota after this round (-1: none)
 * @param cpusetWritten  whether this round writes the cpuset (false: it stays as it was)
 * @param quotaWritten   whether this round writes the quota
 */
public record CpuSuppressDecision(boolean enabled, String policy, long beMilliCpu, List<Integer> cpusetCpus,
        long cfsQuotaMicros, boolean cpusetWritten, boolean quotaWritten, List<String> explain) {
}
