package io.colocation.simulator.model.host;

/**
 * How a simulated host's kernel shares CPU and memory for one step, as a pure function. CPU:
 * <ul>
 * <li>the BE tier (batch pods and YARN containers) gets what its cgroup limits allow, the CFS quota and the cpuset the
 * koordlet wrote: {@code be = min(demand, quota, cpuset, capacity - system)}, shared among its tasks in proportion to
 * their demand;</li>
 * <li>online pods get what is left: {@code online = min(demand, capacity - system - be)}.</li>
 * </ul>
 * This is pessimistic on purpose: a real kernel's CFS weights (a BE tier at {@code cpu.shares} 2 against online pods
 * with thousands) give online work the CPU first, so the BE tier's limits are what protects online work in the model
 * and a suppression that comes late shows up as online <em>short</em>: demand online pods did not get, in core-seconds,
 * until the koordlet's next round lowers the limits. Memory: every task keeps what it uses; when the host's memory is
 * exhausted the kernel's OOM killer ends BE tasks, the largest first ({@code oom_score_adj} 1000 for BestEffort),
 * until the rest fits.
 */
public final class HostModel {
    private HostModel() {
    }

    /** The CPU shares of one step, in cores. */
    public record CpuShares(double system, double online, double onlineShort, double be, double[] beTasks, double beThrottled) {
    }

    /**
     * @param capacity      the host's cores
     * @param system        what the system (kubelet, OS) wants
     * @param online        what online pods want
     * @param beDemand      what each BE task wants
     * @param beQuotaCores  the BE tier's CFS quota in cores; infinite when none
     * @param beCpusetCores the BE tier's cpuset size; infinite when unset
     */
    public static CpuShares shareCpu(double capacity, double system, double online, double[] beDemand, double beQuotaCores,
            double beCpusetCores) {
        double sys = Math.min(Math.max(system, 0), capacity);
        double demand = 0;
        for (double d : beDemand) {
            demand += Math.max(d, 0);
        }
        double be = Math.max(0, Math.min(Math.min(demand, capacity - sys), Math.min(beQuotaCores, beCpusetCores)));
        double[] tasks = new double[beDemand.length];
        if (demand > 0) {
            double f = be / demand;
            for (int i = 0; i < tasks.length; i++) {
                tasks[i] = Math.max(beDemand[i], 0) * f;
            }
        }
        double wanted = Math.max(online, 0);
        double got = Math.min(wanted, Math.max(0, capacity - sys - be));
        return new CpuShares(sys, got, wanted - got, be, tasks, demand - be);
    }

    /**
     * The BE tasks the kernel's OOM killer ends so that the host's memory fits: indexes into {@code beMemory}, largest
     * first; empty when everything fits.
     */
    public static int[] oomVictims(long capacity, long nonBe, long[] beMemory) {
        long total = nonBe;
        for (long m : beMemory) {
            total += m;
        }
        if (total <= capacity) {
            return new int[0];
        }
        Integer[] order = new Integer[beMemory.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (a, b) -> Long.compare(beMemory[b], beMemory[a]));
        int[] victims = new int[order.length];
        int n = 0;
        for (int i = 0; i < order.length && total > capacity; i++) {
            victims[n++] = order[i];
            total -= beMemory[order[i]];
        }
        return java.util.Arrays.copyOf(victims, n);
    }
}
