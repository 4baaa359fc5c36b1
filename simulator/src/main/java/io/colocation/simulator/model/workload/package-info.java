/**
 * Model: the online pods and the batch work on both sides, drawn from a seeded generator (same seed, same work).
 */
package io.colocation.simulator.model.workload;
