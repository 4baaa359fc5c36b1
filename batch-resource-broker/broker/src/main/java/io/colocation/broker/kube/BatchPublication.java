package io.colocation.broker.kube;

import io.colocation.model.Resources;

/**
 * What the broker writes to one Kubernetes node.
 *
 * @param batch       the Kubernetes grant ({@code kubernetes.io/batch-cpu} milli-cores, {@code batch-memory}
 *                    bytes); null removes both (colocation disabled or the NodeMetric missing/stale, as Koordinator)
 * @param mid         {@code mid-cpu}/{@code mid-memory}; null removes both
 * @param origin      origin Batch, for {@code node.koordinator.sh/originExtendedAllocatable}
 * @param yarnUsed    YARN's allocation on the node, the {@code hadoop-yarn} entry of
 *                    {@code node.koordinator.sh/thirdPartyAllocations}
 */
public record BatchPublication(Resources batch, Resources mid, Resources origin, Resources yarnUsed) {
}
