package io.colocation.simulator.measure;

import io.colocation.simulator.model.host.SimulatedHost;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.function.DoubleSupplier;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/** What {@link ClusterSampler} reads of a running cluster, whichever engine runs it. */
public interface SampledCluster {
    List<SimulatedHost> hosts();

    /** The Node as the cluster holds it now; null when unknown. */
    Node node(String name);

    /** The pods bound to the node. */
    List<Pod> podsOn(String name);

    /** YARN's figures of the node's NodeManager; {@link YarnNodeFigures#NONE} without YARN. */
    YarnNodeFigures yarn(String name);

    /** The vcores YARN's pending tasks ask for. */
    double yarnPendingVcores();

    /** The batch-cpu cores of the Kubernetes batch pods waiting to be scheduled. */
    double kubernetesPendingCores();

    /** The broker's ledger of the node, for an overcommit example (may block; asked off the sample). */
    String brokerView(String node);

    /** A cluster read through these functions (each engine's own view of its parts). */
    static SampledCluster of(List<SimulatedHost> hosts, Function<String, Node> nodes, Function<String, List<Pod>> pods,
            Function<String, YarnNodeFigures> yarn, DoubleSupplier yarnPendingVcores, DoubleSupplier kubernetesPendingCores,
            UnaryOperator<String> brokerView) {
        List<SimulatedHost> all = List.copyOf(hosts);
        return new SampledCluster() {
            @Override
            public List<SimulatedHost> hosts() {
                return all;
            }

            @Override
            public Node node(String name) {
                return nodes.apply(name);
            }

            @Override
            public List<Pod> podsOn(String name) {
                return pods.apply(name);
            }

            @Override
            public YarnNodeFigures yarn(String name) {
                return yarn.apply(name);
            }

            @Override
            public double yarnPendingVcores() {
                return yarnPendingVcores.getAsDouble();
            }

            @Override
            public double kubernetesPendingCores() {
                return kubernetesPendingCores.getAsDouble();
            }

            @Override
            public String brokerView(String node) {
                return brokerView.apply(node);
            }
        };
    }
}
