/**
 * The fast engine of {@code colocation simulate}: the product's own decision code (the koordlet's collector, predictor,
 * report builder and QoS strategies; the broker's pass with its calculation, arbitration and writers; the k8s-scheduler's
 * framework and plugins) in one JVM on a virtual clock, over an in-memory cluster and a model of YARN's allocation.
 * Deterministic: the same seed and inputs give the same {@code summary.json}.
 */
package io.colocation.simulator.fast;
