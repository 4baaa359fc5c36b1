package io.colocation.model.config;

import io.colocation.model.labels.LabelSelector;
import java.util.List;

/**
 * The {@code colocation-config} of the slo-controller ConfigMap: the cluster strategy (defaults overlaid
 * by the user's fields) and the node-selector entries, each already overlaid on the cluster strategy.
 */
public record ColocationConfig(ColocationStrategy cluster, List<NodeConfig> nodeConfigs) {

    /** One {@code nodeConfigs[i]} entry. */
    public record NodeConfig(String name, LabelSelector selector, ColocationStrategy strategy) {
    }

    /** The configuration Koordinator uses when the ConfigMap or its key is missing. */
    public static ColocationConfig defaults() {
        return new ColocationConfig(ColocationStrategy.defaults(), List.of());
    }
}
