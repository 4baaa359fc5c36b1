/**
 * Model input: load traces read from CSV and each node's online demand made from one, seeded.
 */
package io.colocation.simulator.model.trace;
