package io.colocation.yarn.plugin;

import io.colocation.api.yarn.YarnGrant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceOption;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNodeResourceUpdateEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes each granted NodeManager's schedulable capacity equal its grant, the way {@code yarn rmadmin
 * -updateNodeResource} does (an {@link RMNodeResourceUpdateEvent}, no overcommit timeout: shrinking
 * below the allocation is resolved by {@link GracefulPreemption}), and keeps it so: a NodeManager that
 * re-registers, or a restarted or failed-over ResourceManager, reverts the node to its configured
 * totals, which {@link #reconcile} notices and corrects. Only memory and vcores change; other resource
 * types keep the NodeManager's values.
 */
final class NodeCapacity {
    private static final Logger LOG = LoggerFactory.getLogger(NodeCapacity.class);
    /** How long a dispatched update may take to show before it is sent again. */
    static final long REDISPATCH_AFTER_MS = 1_000;

    /** A grant the scheduler now enforces: acknowledge it. */
    static final class Applied {
        private final YarnGrant grant;
        private final long latencyMillis;

        Applied(YarnGrant grant, long latencyMillis) {
            this.grant = grant;
            this.latencyMillis = latencyMillis;
        }

        public YarnGrant grant() {
            return grant;
        }

        public long latencyMillis() {
            return latencyMillis;
        }
    }

    private static final class Node {
        YarnGrant grant;
        long receivedAtMillis;
        long dispatchedAtMillis = Long.MIN_VALUE / 2;
        boolean enforced;
        boolean everEnforced;
        /** The NodeManager's own capacity before the first grant, restored when the grant is withdrawn. */
        Resource registered;
    }

    private final RMContext rmContext;
    private final ResourceScheduler scheduler;
    private final Map<String, Node> nodes = new ConcurrentHashMap<>();

    NodeCapacity(RMContext rmContext, ResourceScheduler scheduler) {
        this.rmContext = rmContext;
        this.scheduler = scheduler;
    }

    /** Starts enforcing {@code grant} (already accepted by the {@link GrantBook}). */
    synchronized void apply(YarnGrant grant, long nowMillis) {
        Node node = nodes.computeIfAbsent(grant.nodeId(), id -> new Node());
        node.grant = grant;
        node.receivedAtMillis = nowMillis;
        node.enforced = false;
        dispatch(grant.nodeId(), node, nowMillis);
    }

    /** The broker withdrew the node's grant: give the NodeManager back its own capacity. */
    synchronized void release(String nodeId) {
        Node node = nodes.remove(nodeId);
        if (node == null || node.registered == null) {
            return;
        }
        RMNode rmNode = rmContext.getRMNodes().get(NodeId.fromString(nodeId));
        if (rmNode != null) {
            LOG.info("grant for {} withdrawn: restoring its NodeManager capacity {}", nodeId, node.registered);
            rmContext.getDispatcher().getEventHandler().handle(
                    new RMNodeResourceUpdateEvent(rmNode.getNodeID(), ResourceOption.newInstance(node.registered, -1)));
        }
    }

    /**
     * Checks every granted node against the scheduler: returns the grants that became enforced since
     * the last call, and re-sends the update for nodes whose capacity is not (or no longer) the grant.
     */
    synchronized List<Applied> reconcile(long nowMillis) {
        List<Applied> applied = new ArrayList<>();
        for (Map.Entry<String, Node> e : nodes.entrySet()) {
            Node node = e.getValue();
            SchedulerNode schedulerNode = scheduler.getSchedulerNode(NodeId.fromString(e.getKey()));
            if (schedulerNode == null) {
                node.enforced = false;
                continue;
            }
            if (matches(schedulerNode.getTotalResource(), node.grant)) {
                if (!node.enforced) {
                    node.enforced = true;
                    node.everEnforced = true;
                    applied.add(new Applied(node.grant, Math.max(0, nowMillis - node.receivedAtMillis)));
                }
            } else if (nowMillis - node.dispatchedAtMillis >= REDISPATCH_AFTER_MS) {
                if (node.everEnforced) {
                    LOG.info("node {} has capacity {} instead of its grant (epoch {} version {}): it re-registered or "
                                    + "the ResourceManager restarted; applying the grant again", e.getKey(),
                            schedulerNode.getTotalResource(), node.grant.epoch(), node.grant.version());
                }
                node.enforced = false;
                dispatch(e.getKey(), node, nowMillis);
            }
        }
        return applied;
    }

    /** The acknowledgement of {@code grant} did not reach ZooKeeper: the next reconcile sends it again. */
    synchronized void unacknowledge(YarnGrant grant) {
        Node node = nodes.get(grant.nodeId());
        if (node != null && grant.equals(node.grant)) {
            node.enforced = false;
        }
    }

    /** The grants the scheduler enforces now, by node. */
    synchronized Map<String, YarnGrant> enforcedGrants() {
        Map<String, YarnGrant> enforced = new HashMap<>();
        nodes.forEach((nodeId, node) -> {
            if (node.enforced) {
                enforced.put(nodeId, node.grant);
            }
        });
        return enforced;
    }

    private void dispatch(String nodeId, Node node, long nowMillis) {
        RMNode rmNode = rmContext.getRMNodes().get(NodeId.fromString(nodeId));
        if (rmNode == null) {
            return; // not registered (yet): reconcile applies the grant once it is
        }
        Resource current = rmNode.getTotalCapability();
        if (node.registered == null) {
            node.registered = Resource.newInstance(current);
        }
        node.dispatchedAtMillis = nowMillis;
        if (matches(current, node.grant)) {
            return; // a new version with the same figures: nothing to change, reconcile acknowledges it
        }
        Resource target = Resource.newInstance(current);
        target.setMemorySize(node.grant.memoryMB());
        target.setVirtualCores(node.grant.vcores());
        LOG.info("applying grant epoch {} version {} to {}: {} -> <memory:{}, vCores:{}>", node.grant.epoch(),
                node.grant.version(), nodeId, current, node.grant.memoryMB(), node.grant.vcores());
        rmContext.getDispatcher().getEventHandler().handle(
                new RMNodeResourceUpdateEvent(rmNode.getNodeID(), ResourceOption.newInstance(target, -1)));
    }

    private static boolean matches(Resource total, YarnGrant grant) {
        return total.getMemorySize() == grant.memoryMB() && total.getVirtualCores() == grant.vcores();
    }
}
