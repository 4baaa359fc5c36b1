package io.colocation.broker.arbitration;

import java.time.Duration;

/**
 * Settings of the arbitration.
 *
 * @param kubernetesWeight Kubernetes' weight when origin is split (> 0)
 * @param yarnWeight       YARN's weight (> 0)
 * @param minimumShare     share of origin each side gets whatever the demand (0 to 0.5), so neither side starves while
 *                         the other is busy
 * @param takeBackAfter    how long a node's use may stay above its origin before the excess is taken back (YARN's
 *                         grant shrinks below its use and the RM preempts); meanwhile no side gets new room and the
 *                         koordlet holds the BE tier to what the host has left. 0: at once
 * @param takeBackCpu      whether CPU above origin is taken back that way too; false (the default): only memory is, as
 *                         CPU is compressible and the koordlet's suppress throttles the BE tier at once, its BECPUEvict
 *                         releasing YARN containers gracefully when the tier starves (a preempted task starts over)
 * @param kubernetesShrinkSettle how long (wall time) after a Kubernetes grant shrank YARN still counts on the old one: a
 *                         pod the k8s-scheduler placed on the old grant may be bound after the shrink was written, and
 *                         YARN must not grow into its room before the broker sees it
 */
public record ArbitrationSettings(GrantPolicy policy, double kubernetesWeight, double yarnWeight, double minimumShare,
        Duration takeBackAfter, boolean takeBackCpu, Duration kubernetesShrinkSettle) {
    /** The default wait before use above origin is taken back: Koordinator's usage aggregation window, 5 minutes. */
    public static final Duration DEFAULT_TAKE_BACK_AFTER = Duration.ofMinutes(5);
    /** Above the k8s-scheduler's bind latency (decision to binding written), p99 well under a second at 5,000 nodes. */
    public static final Duration DEFAULT_KUBERNETES_SHRINK_SETTLE = Duration.ofSeconds(2);

    public static ArbitrationSettings defaults() {
        return new ArbitrationSettings(GrantPolicy.PARTITIONED, 1.0, 1.0, 0.1, DEFAULT_TAKE_BACK_AFTER, false,
                DEFAULT_KUBERNETES_SHRINK_SETTLE);
    }

    /** Settings that take use above origin back at once, CPU and memory, and let YARN grow into a shrink at once. */
    public ArbitrationSettings(GrantPolicy policy, double kubernetesWeight, double yarnWeight, double minimumShare) {
        this(policy, kubernetesWeight, yarnWeight, minimumShare, Duration.ZERO, true, Duration.ZERO);
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
        if (takeBackAfter == null || takeBackAfter.isNegative()) {
            throw new IllegalArgumentException("takeBackAfter must be 0 or more, got " + takeBackAfter);
        }
        if (kubernetesShrinkSettle == null || kubernetesShrinkSettle.isNegative()) {
            throw new IllegalArgumentException("kubernetesShrinkSettle must be 0 or more, got " + kubernetesShrinkSettle);
        }
    }
}
