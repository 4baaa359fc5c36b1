/**
 * Model: what runs a Kubernetes pod on a simulated host (a batch pod becomes a task on its host model), for the
 * simulated kubelets of {@code local-harness}.
 */
package io.colocation.simulator.model.kube;
