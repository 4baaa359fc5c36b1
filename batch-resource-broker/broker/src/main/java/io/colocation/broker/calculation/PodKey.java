package io.colocation.broker.calculation;

/** A pod's namespace and name, the key that matches a pod with its NodeMetric entry. */
public record PodKey(String namespace, String name) {
}
