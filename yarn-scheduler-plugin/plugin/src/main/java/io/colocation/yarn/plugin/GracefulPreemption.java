package io.colocation.yarn.plugin;

import io.colocation.api.yarn.VictimOrder;
import io.colocation.api.yarn.YarnGrant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.proto.YarnServiceProtos.SchedulerResourceTypes;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerState;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.ContainerPreemptEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEventType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes capacity back where YARN holds more than it may, the way the scheduler's own preemption does: on a node whose
 * grant, or what it keeps if more, fell below what YARN has allocated there, and in a queue of a tree over Batch held
 * above its maximum longer than the tree's revoke delay ({@link QueueRevocation}). The chosen containers (broker-api's
 * {@link VictimOrder}) are first marked for preemption (the ApplicationMaster sees them in its allocate response and may
 * checkpoint or give them back), and those still running after {@code wait-before-kill-ms}, while the node or queue is
 * still over, are killed through the scheduler with exit status PREEMPTED, which MapReduce and Spark do not count as a
 * task failure. New decisions are rate-limited cluster-wide; each one is logged with its reason.
 */
final class GracefulPreemption {
    private static final Logger LOG = LoggerFactory.getLogger(GracefulPreemption.class);

    /** A container told to go; once killed it stays here (still covering its share) until the scheduler drops it. */
    private static final class Mark {
        final RMContainer container;
        final long markedAtMillis;
        boolean killed;

        Mark(RMContainer container, long markedAtMillis) {
            this.container = container;
            this.markedAtMillis = markedAtMillis;
        }
    }

    private final RMContext rmContext;
    private final ResourceScheduler scheduler;
    private final PluginSettings settings;
    private final PluginMetrics metrics;
    /** Per node or queue, in the order they were marked (so the oldest is killed first). */
    private final Map<Object, Map<ContainerId, Mark>> marks = new HashMap<>();
    private final boolean schedulesVcores;
    private double tokens;
    private long lastRefillMillis = -1;

    GracefulPreemption(RMContext rmContext, ResourceScheduler scheduler, PluginSettings settings, PluginMetrics metrics) {
        this.rmContext = rmContext;
        this.scheduler = scheduler;
        this.settings = settings;
        this.metrics = metrics;
        this.tokens = settings.maxPreemptionsPerSecond();
        this.schedulesVcores = schedulesVcores(scheduler);
    }

    /** Whether the scheduler counts vcores (the CapacityScheduler's default calculator counts memory only). */
    static boolean schedulesVcores(ResourceScheduler scheduler) {
        return scheduler.getSchedulingResourceTypes().contains(SchedulerResourceTypes.CPU);
    }

    /** One pass over the nodes whose grant the scheduler enforces. */
    void run(long nowMillis, Map<String, YarnGrant> enforced) {
        refill(nowMillis);
        marks.keySet().removeIf(scope -> scope instanceof NodeId && !enforced.containsKey(scope.toString()));
        for (Map.Entry<String, YarnGrant> e : enforced.entrySet()) {
            NodeId nodeId = NodeId.fromString(e.getKey());
            SchedulerNode node = scheduler.getSchedulerNode(nodeId);
            if (node != null) {
                runNode(nowMillis, nodeId, node, e.getValue());
            }
        }
    }

    private void runNode(long nowMillis, NodeId nodeId, SchedulerNode node, YarnGrant grant) {
        Resource total = node.getTotalResource();
        Resource allocated = node.getAllocatedResource();
        // What the grant keeps is not preempted: the scheduler places nothing new (total = the grant) but what runs stays.
        long overMemory = allocated.getMemorySize() - Math.max(total.getMemorySize(), grant.keepMemoryMB());
        long overVcores = countedVcores(allocated.getVirtualCores())
                - countedVcores((int) Math.max(total.getVirtualCores(), grant.keepVcores()));
        if (overMemory <= 0 && overVcores <= 0 && !marks.containsKey(nodeId)) {
            return; // the common case: nothing to look at on this node
        }
        take(nowMillis, nodeId, "node " + nodeId, "allocated " + allocated + " exceeds the grant <memory:" + grant.memoryMB()
                + ", vCores:" + grant.vcores() + "> (epoch " + grant.epoch() + " version " + grant.version() + ")",
                node.getCopiedListOfRunningContainers(), overMemory, overVcores);
    }

    /** Whether containers of {@code scope} are marked or being killed. */
    boolean taking(Object scope) {
        return marks.containsKey(scope);
    }

    /** Forgets the marks of queues no longer in {@code queues} (their limits are gone: nothing is over). */
    void retainQueues(java.util.Set<String> queues) {
        marks.keySet().removeIf(scope -> scope instanceof String && !queues.contains(scope));
    }

    /**
     * Takes back what {@code scope} (a node's id or a queue's path) holds above its limit: {@code overMemory} and
     * {@code overVcores} (vcores as YARN holds them), from its {@code running} containers.
     */
    void take(long nowMillis, Object scope, String name, String why, List<RMContainer> running, long overMemory, long overVcores) {
        overVcores = countedVcores(overVcores);
        Map<ContainerId, Mark> scopeMarks = marks.computeIfAbsent(scope, n -> new LinkedHashMap<>());
        Set<ContainerId> runningIds = new HashSet<>();
        running.forEach(c -> runningIds.add(c.getContainerId()));
        scopeMarks.keySet().retainAll(runningIds);
        // Containers the RM already finished stay in the allocation until the NodeManager confirms;
        // they are going away and free their share without help.
        for (RMContainer c : running) {
            if (ended(c) && !scopeMarks.containsKey(c.getContainerId())) {
                overMemory -= memory(c);
                overVcores -= countedVcores(c);
            }
        }
        if (overMemory <= 0 && overVcores <= 0) {
            if (scopeMarks.values().removeIf(m -> !m.killed)) {
                LOG.info("{} is back within its limit: the containers marked for preemption there stay", name);
            }
        } else {
            long uncoveredMemory = overMemory - scopeMarks.values().stream().mapToLong(m -> memory(m.container)).sum();
            long uncoveredVcores = overVcores - scopeMarks.values().stream().mapToLong(m -> countedVcores(m.container)).sum();
            if (uncoveredMemory > 0 || uncoveredVcores > 0) {
                mark(nowMillis, name, why, running, Math.max(0, uncoveredMemory), (int) Math.max(0, uncoveredVcores), scopeMarks);
            }
            kill(nowMillis, name, overMemory, overVcores, scopeMarks);
        }
        if (scopeMarks.isEmpty()) {
            marks.remove(scope);
        }
    }

    /** Kills the marks whose wait is over, oldest first, while the scope is still over its limit. */
    private void kill(long nowMillis, String name, long overMemory, long overVcores, Map<ContainerId, Mark> nodeMarks) {
        // Killed containers still count in the allocation until the scheduler has processed the kill.
        for (Mark m : nodeMarks.values()) {
            if (m.killed) {
                overMemory -= memory(m.container);
                overVcores -= countedVcores(m.container);
            }
        }
        for (Mark m : nodeMarks.values()) {
            if (overMemory <= 0 && overVcores <= 0) {
                break;
            }
            if (m.killed || nowMillis - m.markedAtMillis < settings.waitBeforeKillMs()) {
                continue;
            }
            boolean helps = (overMemory > 0 && memory(m.container) > 0) || (overVcores > 0 && countedVcores(m.container) > 0);
            if (!helps) {
                continue;
            }
            LOG.info("killing preempted container {} of {}: still over its limit by <memory:{}, vCores:{}> "
                            + "{} ms after the ApplicationMaster was told", m.container.getContainerId(), name,
                    Math.max(0, overMemory), Math.max(0, overVcores), nowMillis - m.markedAtMillis);
            rmContext.getDispatcher().getEventHandler().handle(new ContainerPreemptEvent(
                    m.container.getApplicationAttemptId(), m.container, SchedulerEventType.MARK_CONTAINER_FOR_KILLABLE));
            m.killed = true;
            metrics.containerPreempted(m.container.getAllocatedNode().toString());
            overMemory -= memory(m.container);
            overVcores -= countedVcores(m.container);
        }
    }

    private void mark(long nowMillis, String name, String why, List<RMContainer> running, long needMemory, int needVcores,
            Map<ContainerId, Mark> nodeMarks) {
        Map<String, RMContainer> byId = new HashMap<>();
        List<VictimOrder.Candidate> candidates = new ArrayList<>();
        for (RMContainer c : running) {
            if (nodeMarks.containsKey(c.getContainerId()) || ended(c)) {
                continue;
            }
            byId.put(c.getContainerId().toString(), c);
            candidates.add(new VictimOrder.Candidate(c.getContainerId().toString(), c.isAMContainer(),
                    applicationPriority(c.getApplicationAttemptId().getApplicationId()),
                    requestPriority(c.getContainer().getPriority()), c.getCreationTime(), memory(c), (int) vcores(c)));
        }
        for (VictimOrder.Candidate victim : VictimOrder.choose(candidates, needMemory, needVcores)) {
            if (tokens < 1) {
                LOG.info("preemption in {} deferred: the cluster-wide limit of {} per second is reached", name,
                        settings.maxPreemptionsPerSecond());
                return;
            }
            tokens -= 1;
            RMContainer c = byId.get(victim.containerId());
            LOG.info("preempting {} ({}, <memory:{}, vCores:{}>, started {} ms ago) of {}: {} by <memory:{}, vCores:{}> not "
                            + "yet covered; ApplicationMaster told, kill in {} ms unless it ends first",
                    c.getContainerId(), victim.applicationMaster() ? "ApplicationMaster" : "task",
                    victim.memoryMB(), victim.vcores(), nowMillis - victim.startedAtMillis(), name, why, needMemory, needVcores,
                    settings.waitBeforeKillMs());
            rmContext.getDispatcher().getEventHandler().handle(new ContainerPreemptEvent(
                    c.getApplicationAttemptId(), c, SchedulerEventType.MARK_CONTAINER_FOR_PREEMPTION));
            nodeMarks.put(c.getContainerId(), new Mark(c, nowMillis));
        }
    }

    private static boolean ended(RMContainer c) {
        RMContainerState state = c.getState();
        return state == RMContainerState.COMPLETED || state == RMContainerState.KILLED || state == RMContainerState.RELEASED
                || state == RMContainerState.EXPIRED;
    }

    private int applicationPriority(ApplicationId app) {
        RMApp rmApp = rmContext.getRMApps().get(app);
        return rmApp == null ? 0 : requestPriority(rmApp.getApplicationPriority());
    }

    private static int requestPriority(Priority priority) {
        return priority == null ? 0 : priority.getPriority();
    }

    private static long memory(RMContainer c) {
        return c.getAllocatedResource().getMemorySize();
    }

    private static long vcores(RMContainer c) {
        return c.getAllocatedResource().getVirtualCores();
    }

    /** Vcores as the scheduler counts them: none when it ignores vcores (it would place containers right back). */
    private long countedVcores(long vcores) {
        return schedulesVcores ? vcores : 0;
    }

    private long countedVcores(RMContainer c) {
        return countedVcores(vcores(c));
    }

    private void refill(long nowMillis) {
        if (lastRefillMillis >= 0) {
            tokens = Math.min(Math.max(1, settings.maxPreemptionsPerSecond()),
                    tokens + (nowMillis - lastRefillMillis) / 1000.0 * settings.maxPreemptionsPerSecond());
        }
        lastRefillMillis = nowMillis;
    }
}
