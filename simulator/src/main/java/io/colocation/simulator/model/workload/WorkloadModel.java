package io.colocation.simulator.model.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The sizes and durations of the simulated work, drawn from a seeded generator (same seed, same work). The
 * distributions, stated in the simulation's report:
 * <ul>
 * <li><b>online pods</b>: {@value #ONLINE_PODS_PER_NODE} per node sharing the node's online demand (shares drawn
 * uniformly, then normalised); each requests {@value #ONLINE_REQUEST_FACTOR} × its mean CPU use, and memory
 * {@value #ONLINE_MEMORY_REQUEST_FACTOR} × what it holds; together they hold 20–30 % of the node's memory;</li>
 * <li><b>Kubernetes batch jobs</b>, executor-like: one pod of 2 or 4 cores (40 / 60 %), or, one job in ten, a gang of 4
 * pods of 2 cores; {@value #MEMORY_PER_CORE_GI} GiB per core; each uses 70–100 % of its CPU and 70–90 % of its memory;
 * unthrottled run time lognormal with median 60 min and σ 0.8, kept within 10 min–6 h;</li>
 * <li><b>YARN applications</b>, MapReduce-like: an ApplicationMaster (1 vcore, 2 GiB) and 4–24 tasks of 1 or 2 vcores
 * (one size per application), {@value #MEMORY_PER_CORE_GI} GiB per vcore, using 70–100 % of their vcores; run time
 * lognormal with median 20 min and σ 0.8, within 2 min–3 h.</li>
 * </ul>
 * A task's work is its run time × the CPU it uses: throttled, it takes longer.
 */
public final class WorkloadModel {
    public static final int ONLINE_PODS_PER_NODE = 4;
    public static final double ONLINE_REQUEST_FACTOR = 2.5;
    public static final double ONLINE_MEMORY_REQUEST_FACTOR = 1.2;
    static final long MEMORY_PER_CORE_GI = 3;
    private static final long GI = 1L << 30;

    /** One online pod of a node: its share of the node's online demand, its CPU request (milli) and memory. */
    public record OnlinePodShape(double share, long cpuRequestMilli, long memoryUse, long memoryRequest) {
    }

    /** One batch task: CPU (milli-cores or vcores × 1000), memory, its use of both, its work in core-seconds. */
    public record TaskShape(long cpuMilli, long memoryBytes, double cpuUse, long memoryUse, double workCoreSeconds) {
    }

    /** A Kubernetes batch job: one pod, or a gang of pods that start together. */
    public record KubernetesJob(List<TaskShape> pods, boolean gang) {
    }

    /**
     * A YARN application's tasks (its ApplicationMaster is YARN's own). It may make {@value #MAX_ATTEMPTS} attempts, as
     * MapReduce's {@code mapreduce.am.max-attempts}; a master the scheduler preempted does not count (the RM's rule).
     */
    public record YarnApplication(List<TaskShape> tasks) {
        public static final int MAX_ATTEMPTS = 2;
    }

    private final SplittableRandom random;

    public WorkloadModel(long seed) {
        this.random = new SplittableRandom(seed * 31 + 7);
    }

    /**
     * The online pods of a node whose online demand averages {@code meanCores}, on a node of {@code memory} bytes; together
     * they hold {@code memoryShare} of it (NaN: 20–30 %).
     */
    public static List<OnlinePodShape> onlinePods(SplittableRandom r, double meanCores, long memory, double memoryShare) {
        double[] w = new double[ONLINE_PODS_PER_NODE];
        double sum = 0;
        for (int i = 0; i < w.length; i++) {
            w[i] = 0.5 + r.nextDouble();
            sum += w[i];
        }
        double drawn = 0.20 + 0.10 * r.nextDouble(); // drawn either way: the same seed gives the same pods
        double held = Double.isNaN(memoryShare) ? drawn : memoryShare;
        List<OnlinePodShape> out = new ArrayList<>();
        for (double wi : w) {
            double share = wi / sum;
            long request = Math.max(100, Math.round(meanCores * share * ONLINE_REQUEST_FACTOR * 1000));
            long memUse = Math.round(memory * held * share);
            out.add(new OnlinePodShape(share, request, memUse, Math.round(memUse * ONLINE_MEMORY_REQUEST_FACTOR)));
        }
        return out;
    }

    public synchronized KubernetesJob kubernetesJob() {
        if (random.nextDouble() < 0.1) {
            List<TaskShape> pods = new ArrayList<>();
            double minutes = duration(60, 10, 360);
            for (int i = 0; i < 4; i++) {
                pods.add(task(2000, minutes));
            }
            return new KubernetesJob(pods, true);
        }
        long cores = random.nextDouble() < 0.4 ? 2 : 4;
        return new KubernetesJob(List.of(task(cores * 1000, duration(60, 10, 360))), false);
    }

    public synchronized YarnApplication yarnApplication() {
        int n = 4 + random.nextInt(21);
        long vcores = random.nextBoolean() ? 1 : 2;
        List<TaskShape> tasks = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            tasks.add(task(vcores * 1000, duration(20, 2, 180)));
        }
        return new YarnApplication(tasks);
    }

    private TaskShape task(long cpuMilli, double minutes) {
        double use = 0.7 + 0.3 * random.nextDouble();
        long memory = cpuMilli / 1000 * MEMORY_PER_CORE_GI * GI;
        long memoryUse = Math.round(memory * (0.7 + 0.2 * random.nextDouble()));
        return new TaskShape(cpuMilli, memory, use, memoryUse, minutes * 60 * cpuMilli / 1000.0 * use);
    }

    /** Lognormal with this median (minutes) and σ 0.8, kept within [min, max]. */
    private double duration(double median, double min, double max) {
        double u = 1 - random.nextDouble();
        double v = random.nextDouble();
        double z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
        return Math.min(max, Math.max(min, median * Math.exp(0.8 * z)));
    }
}
