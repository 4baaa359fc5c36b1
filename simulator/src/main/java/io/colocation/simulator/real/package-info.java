/**
 * Real code as it runs in the simulation: the broker and the k8s-scheduler as processes of the distribution
 * ({@link io.colocation.simulator.real.ControlPlane}), the objects an admin applies, the informers the agents share,
 * and each host's koordlet code ({@link io.colocation.simulator.real.HostAgent}).
 */
package io.colocation.simulator.real;
