/**
 * {@code colocation simulate}: the command, its options and the run that wires the parts together. What the run
 * starts is real code ({@code real}), what stands in for hosts, kernels, kubelets and workloads is a model
 * ({@code model}), and what it reads back is measurement ({@code measure}).
 */
package io.colocation.simulator;
