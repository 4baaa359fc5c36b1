package io.colocation.broker.arbitration;

/**
 * Settings of the arbitration.
 *
 * @param kubernetesWeight weight of Kubernetes' pending demand when the free headroom is split (> 0)
 * @param yarnWeight       weight of YARN's pending demand (> 0)
 * @param minimumShare     share of the free headroom each side gets whatever the demand (0 to 0.5), so
 *                         neither side starves while the other is busy
 */
public record ArbitrationSettings(GrantPolicy policy, double kubernetesWeight, double yarnWeight, double minimumShare) {

    public static ArbitrationSettings defaults() {
        return new ArbitrationSettings(GrantPolicy.PARTITIONED, 1.0, 1.0, 0.1);
    }

    public ArbitrationSettings {
        if (policy == null) {
            throw new IllegalArgumentException("policy must be partitioned or shared");
        }
        if (!(kubernetesWeight > 0) || !(yarnWeight > 0) || Double.isInfinite(kubernetesWeight) || Double.isInfinite(yarnWeight)) {
            throw new IllegalArgumentException("weights must be finite and > 0, got kubernetes=" + kubernetesWeight + ", yarn=" + yarnWeight);
        }
        if (!(minimumShare >= 0 && minimumShare <= 0.5)) {
            throw new IllegalArgumentException("minimumShare must be between 0 and 0.5, got " + minimumShare);
        }
    }
}
