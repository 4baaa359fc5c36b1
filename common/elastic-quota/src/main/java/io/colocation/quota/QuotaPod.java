package io.colocation.quota;

import java.util.Map;

/**
 * What a pod brings to its quota: its key, what resolves its quota (namespace, labels), its requests in quota units
 * (cpu in milli-cores, the rest integer values), and whether it holds them on a node (bound or assumed), which makes
 * them used as well as requested.
 */
public record QuotaPod(String key, String namespace, Map<String, String> labels, ResourceAmounts request, boolean assigned) {
    public QuotaPod {
        labels = labels == null ? Map.of() : Map.copyOf(labels);
    }

    public boolean nonPreemptible() {
        return QuotaDirectory.nonPreemptible(labels);
    }

    public QuotaPod assigned(boolean onNode) {
        return new QuotaPod(key, namespace, labels, request, onNode);
    }
}
