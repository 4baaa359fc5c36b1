package io.colocation.simulator.model.trace;

import java.util.SplittableRandom;

/**
 * Each simulated node's online CPU demand through the run, made from one trace and a seed (same seed, same curves):
 *
 * <pre>
 *   online_i(t) = mean × capacity × scale_i × trace(t + phase_i) / traceMean_i × (1 + noise_i(t))
 * </pre>
 *
 * where {@code scale_i} is lognormal (σ {@value #SCALE_SIGMA}) kept in [{@value #SCALE_MIN}, {@value #SCALE_MAX}] and
 * normalised to a cluster mean of 1, {@code phase_i} is uniform in ±{@value #PHASE_SECONDS} s, {@code traceMean_i} is the
 * trace's mean over the node's own window (so each node's online mean over the run is {@code mean × capacity × scale_i}
 * and the cluster's is {@code mean}), and {@code noise_i} is a first-order autoregressive series, one value a minute
 * (correlation {@value #NOISE_RHO} from one minute to the next, σ {@value #NOISE_SIGMA}), interpolated between minutes.
 * Demand is kept within [1 %, 100 %] of capacity.
 */
public final class NodeLoadCurves implements OnlineLoad {
    static final double SCALE_SIGMA = 0.35;
    static final double SCALE_MIN = 0.4;
    static final double SCALE_MAX = 1.8;
    static final double PHASE_SECONDS = 3600;
    static final double NOISE_RHO = 0.8;
    static final double NOISE_SIGMA = 0.12;

    private final LoadTrace trace;
    private final double meanFraction;
    private final double[] scale;
    private final double[] phase;
    private final double[] traceMean;
    private final float[][] noise;

    /**
     * @param meanFraction the cluster's online mean, a fraction of capacity (0.2 for 20 %)
     * @param seconds      how long the run lasts (simulated seconds)
     */
    public NodeLoadCurves(LoadTrace trace, int nodes, double seconds, double meanFraction, long seed) {
        this.trace = trace;
        this.meanFraction = meanFraction;
        this.scale = new double[nodes];
        this.phase = new double[nodes];
        this.traceMean = new double[nodes];
        this.noise = new float[nodes][];
        int minutes = (int) Math.ceil(seconds / 60) + 2;
        double sum = 0;
        for (int i = 0; i < nodes; i++) {
            SplittableRandom r = random(seed, i);
            scale[i] = Math.min(SCALE_MAX, Math.max(SCALE_MIN, Math.exp(SCALE_SIGMA * gaussian(r))));
            sum += scale[i];
            phase[i] = (r.nextDouble() * 2 - 1) * PHASE_SECONDS;
            traceMean[i] = trace.mean(phase[i], phase[i] + seconds);
            float[] n = new float[minutes];
            double e = NOISE_SIGMA * gaussian(r);
            for (int m = 0; m < minutes; m++) {
                n[m] = (float) e;
                e = NOISE_RHO * e + Math.sqrt(1 - NOISE_RHO * NOISE_RHO) * NOISE_SIGMA * gaussian(r);
            }
            noise[i] = n;
        }
        double mean = sum / nodes;
        for (int i = 0; i < nodes; i++) {
            scale[i] /= mean;
        }
    }

    /** A node's own generator: the same for a seed and node whatever the node count. */
    public static SplittableRandom random(long seed, int node) {
        return new SplittableRandom(seed * 1_000_003L + node * 7_919L + 17);
    }

    private static double gaussian(SplittableRandom r) {
        // Box-Muller: SplittableRandom has no nextGaussian before Java 17's RandomGenerator default; this is explicit
        double u = 1 - r.nextDouble();
        double v = r.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    }

    @Override
    public String traceName() {
        return trace.name();
    }

    @Override
    public String traceColumn() {
        return trace.column();
    }

    @Override
    public double onlineCores(int node, double seconds, double capacityCores) {
        double shape = trace.at(seconds + phase[node]) / traceMean[node];
        double demand = meanFraction * capacityCores * scale[node] * shape * (1 + noise(node, seconds));
        return Math.min(capacityCores, Math.max(0.01 * capacityCores, demand));
    }

    @Override
    public double meanOnlineCores(int node, double capacityCores) {
        return meanFraction * capacityCores * scale[node];
    }

    /** A cluster curve says nothing of memory: each node's online pods hold what they were given. */
    @Override
    public double memoryFactor(int node, double seconds) {
        return 1;
    }

    @Override
    public double meanMemoryShare(int node) {
        return Double.NaN;
    }

    private double noise(int node, double seconds) {
        float[] n = noise[node];
        double pos = Math.max(0, seconds / 60);
        int i = Math.min((int) pos, n.length - 2);
        double f = Math.min(1, pos - i);
        return n[i] + f * (n[i + 1] - n[i]);
    }

    public double scale(int node) {
        return scale[node];
    }

    public int nodes() {
        return scale.length;
    }
}
