package io.colocation.simulator.real.yarn;

import io.colocation.koordlet.yarn.YarnContainers;
import io.colocation.simulator.measure.YarnCounters;
import io.colocation.simulator.model.host.BatchTask;
import io.colocation.simulator.model.host.SimulatedCopilot;
import io.colocation.simulator.model.host.SimulatedHost;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.api.protocolrecords.NodeHeartbeatRequest;
import org.apache.hadoop.yarn.server.api.protocolrecords.NodeHeartbeatResponse;
import org.apache.hadoop.yarn.server.api.protocolrecords.RegisterNodeManagerRequest;
import org.apache.hadoop.yarn.server.api.protocolrecords.RegisterNodeManagerResponse;
import org.apache.hadoop.yarn.server.api.records.MasterKey;
import org.apache.hadoop.yarn.server.api.records.NodeAction;
import org.apache.hadoop.yarn.server.api.records.NodeHealthStatus;
import org.apache.hadoop.yarn.server.api.records.NodeStatus;
import org.apache.hadoop.yarn.server.resourcemanager.ResourceTrackerService;
import org.apache.hadoop.yarn.util.Records;

/**
 * The NodeManager of one simulated host, talking to the real ResourceManager as Hadoop's Scheduler Load Simulator's
 * NMSimulator does: it registers with the ResourceTrackerService and heartbeats its containers' states (in process,
 * no RPC). Containers the ApplicationMasters launch become {@link BatchTask}s on the host; what the host ends (work done,
 * the kernel's OOM killer) and what the koordlet kills through this NodeManager's copilot ({@link #containers()}) are
 * reported COMPLETE with their exit status; containers the RM tells it to clean up (preempted) leave the host.
 */
final class NodeManagerSimulator {
    /** The exit status of a process killed by SIGKILL (the copilot's kill, the kernel's OOM killer). */
    static final int KILLED_EXIT_STATUS = 137;

    private record Launched(ContainerId id, BatchTask task) {
    }

    private final NodeId nodeId;
    private final SimulatedHost host;
    private final ResourceTrackerService tracker;
    private final Map<String, Launched> running = new ConcurrentHashMap<>();
    private final List<ContainerStatus> completed = new ArrayList<>();
    private final Resource total;
    private final YarnCounters counters;
    private MasterKey nmTokenKey;
    private MasterKey containerTokenKey;
    private int responseId;

    NodeManagerSimulator(NodeId nodeId, SimulatedHost host, ResourceTrackerService tracker, Resource total, YarnCounters counters) {
        this.nodeId = nodeId;
        this.counters = counters;
        this.host = host;
        this.tracker = tracker;
        this.total = total;
    }

    NodeId nodeId() {
        return nodeId;
    }

    SimulatedHost host() {
        return host;
    }

    synchronized void register() throws Exception {
        RegisterNodeManagerRequest req = Records.newRecord(RegisterNodeManagerRequest.class);
        req.setNodeId(nodeId);
        req.setResource(total);
        req.setHttpPort(8042);
        req.setNMVersion("3.4.2");
        req.setContainerStatuses(new ArrayList<>());
        RegisterNodeManagerResponse r = tracker.registerNodeManager(req);
        if (r.getNodeAction() != NodeAction.NORMAL) {
            throw new IllegalStateException("the ResourceManager refused NodeManager " + nodeId + ": " + r.getDiagnosticsMessage());
        }
        nmTokenKey = r.getNMTokenMasterKey();
        containerTokenKey = r.getContainerTokenMasterKey();
        responseId = 0;
    }

    /** An ApplicationMaster launched a container here. */
    synchronized void launch(Container container, BatchTask task) {
        running.put(container.getId().toString(), new Launched(container.getId(), task));
        host.start(task);
    }

    /** The host ended a container's task (its work is done, or the kernel killed it). */
    synchronized void ended(BatchTask task, SimulatedHost.Ending how) {
        Launched l = running.remove(task.id());
        if (l != null) {
            report(l.id(), how == SimulatedHost.Ending.COMPLETED ? ContainerExitStatus.SUCCESS : KILLED_EXIT_STATUS,
                    how == SimulatedHost.Ending.COMPLETED ? "" : "OOM killed by the host's kernel");
            if (how == SimulatedHost.Ending.OOM_KILLED) {
                counters.taskOomKilled();
            }
        }
    }

    /** The ApplicationMaster's own container ends (its application finished). */
    synchronized void finishApplicationMaster(ContainerId id) {
        Launched l = running.remove(id.toString());
        if (l != null) {
            host.stop(id.toString());
            report(id, ContainerExitStatus.SUCCESS, "");
        }
    }

    /** Called with this simulator's lock held: a container that leaves moves from running to completed at once. */
    private void report(ContainerId id, int exitStatus, String diagnostics) {
        completed.add(ContainerStatus.newInstance(id, ContainerState.COMPLETE, diagnostics, exitStatus));
    }

    /** The containers' states, taken at once: a container is running or completed in it, never missing. */
    private synchronized List<ContainerStatus> statuses() {
        List<ContainerStatus> statuses = new ArrayList<>();
        for (Launched l : running.values()) {
            statuses.add(ContainerStatus.newInstance(l.id(), ContainerState.RUNNING, "", ContainerExitStatus.INVALID));
        }
        statuses.addAll(completed);
        completed.clear();
        return statuses;
    }

    /** One heartbeat to the ResourceManager (from the heartbeat thread only). */
    void heartbeat() throws Exception {
        List<ContainerStatus> statuses = statuses();
        NodeStatus ns = Records.newRecord(NodeStatus.class);
        ns.setNodeId(nodeId);
        ns.setResponseId(responseId);
        ns.setContainersStatuses(statuses);
        ns.setKeepAliveApplications(new ArrayList<ApplicationId>());
        ns.setNodeHealthStatus(NodeHealthStatus.newInstance(true, "", System.currentTimeMillis()));
        NodeHeartbeatRequest req = Records.newRecord(NodeHeartbeatRequest.class);
        req.setNodeStatus(ns);
        req.setLastKnownNMTokenMasterKey(nmTokenKey);
        req.setLastKnownContainerTokenMasterKey(containerTokenKey);
        NodeHeartbeatResponse resp = tracker.nodeHeartbeat(req);
        if (resp.getNodeAction() == NodeAction.RESYNC || resp.getNodeAction() == NodeAction.SHUTDOWN) {
            register();
            return;
        }
        cleanUp(resp);
    }

    private synchronized void cleanUp(NodeHeartbeatResponse resp) {
        responseId = resp.getResponseId();
        if (resp.getNMTokenMasterKey() != null) {
            nmTokenKey = resp.getNMTokenMasterKey();
        }
        if (resp.getContainerTokenMasterKey() != null) {
            containerTokenKey = resp.getContainerTokenMasterKey();
        }
        for (ContainerId id : resp.getContainersToCleanup()) {
            Launched l = running.remove(id.toString());
            if (l != null) {
                host.stop(id.toString());
            }
        }
    }

    /** The koordlet's view of this NodeManager (its copilot): the running containers, and the kill of one. */
    YarnContainers containers() {
        return new SimulatedCopilot() {
            @Override
            protected java.util.Collection<BatchTask> running() {
                synchronized (NodeManagerSimulator.this) {
                    List<BatchTask> tasks = new ArrayList<>(running.size());
                    running.values().forEach(l -> tasks.add(l.task()));
                    return tasks;
                }
            }

            @Override
            public String describe() {
                return "the simulated NodeManager " + nodeId;
            }

            @Override
            public Optional<String> kill(String containerID, String reason) {
                synchronized (NodeManagerSimulator.this) {
                    return killContainer(containerID, reason);
                }
            }
        };
    }

    private Optional<String> killContainer(String containerID, String reason) {
        Launched l = running.remove(containerID);
        if (l == null) {
            return Optional.of("container " + containerID + " is not running on " + nodeId);
        }
        host.stop(containerID);
        report(l.id(), KILLED_EXIT_STATUS, "killed by the koordlet: " + reason);
        counters.taskKilled();
        return Optional.empty();
    }
}
