package io.colocation.broker.calculation;

import io.colocation.model.Resources;

import java.util.List;

/**
 * A calculator's answer for one node: the values (null when Koordinator would reset the resources, that
 * is remove them from the node) and one explanation line per resource.
 */
public record ResourceResult(Resources value, boolean degraded, List<String> explain) {

    static ResourceResult reset(String message, boolean degraded) {
        return new ResourceResult(null, degraded, List.of(message));
    }

    public boolean isReset() {
        return value == null;
    }
}
