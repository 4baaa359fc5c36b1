package io.colocation.koordlet.qos.agent;

import io.colocation.koordlet.collect.CollectTargets;
import io.colocation.koordlet.collect.HostSample;
import io.colocation.model.slo.NodeSLO;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/** The agent's state as a test sets it; suppliers, so a test may change a part between rounds. */
public final class StubAgentState implements AgentState {
    private final Supplier<Node> node;
    private final Supplier<List<Pod>> pods;
    private final NodeSLO slo;
    private final Supplier<HostSample> sample;
    private final Supplier<Optional<List<CollectTargets.YarnTarget>>> yarn;

    public StubAgentState(Supplier<Node> node, Supplier<List<Pod>> pods, NodeSLO slo, Supplier<HostSample> sample,
            Supplier<Optional<List<CollectTargets.YarnTarget>>> yarn) {
        this.node = node;
        this.pods = pods;
        this.slo = slo;
        this.sample = sample;
        this.yarn = yarn;
    }

    @Override
    public Optional<Node> node() {
        return Optional.ofNullable(node.get());
    }

    @Override
    public List<Pod> pods() {
        return pods.get();
    }

    @Override
    public Optional<NodeSLO> nodeSlo() {
        return Optional.ofNullable(slo);
    }

    @Override
    public HostSample lastSample() {
        return sample.get();
    }

    @Override
    public Optional<List<CollectTargets.YarnTarget>> yarnContainers() {
        return yarn.get();
    }

    @Override
    public String yarnHostApplication() {
        return "hadoop-yarn";
    }

    /** Every process counts as the NodeManager's here: the tests using this stub place no real process. */
    @Override
    public boolean ownedByNodeManager(int pid) {
        return true;
    }
}
