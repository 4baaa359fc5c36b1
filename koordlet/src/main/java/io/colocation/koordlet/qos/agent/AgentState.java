package io.colocation.koordlet.qos.agent;

import io.colocation.koordlet.collect.CollectTargets;
import io.colocation.koordlet.collect.HostSample;
import io.colocation.model.slo.NodeSLO;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;
import java.util.Optional;

/** What the QoS strategies read from the running agent: its watches, its last sample, the copilot's containers. */
public interface AgentState {
    Optional<Node> node();

    List<Pod> pods();

    Optional<NodeSLO> nodeSlo();

    /** The last sample; null before the first. */
    HostSample lastSample();

    /** The running YARN containers; empty when the copilot is not configured or not answering. */
    Optional<List<CollectTargets.YarnTarget>> yarnContainers();

    /** The host application YARN is reported as ({@code hadoop-yarn}). */
    String yarnHostApplication();

    /** Whether the process descends from the verified NodeManager now: only such a process is moved into a YARN cgroup. */
    boolean ownedByNodeManager(int pid);
}
