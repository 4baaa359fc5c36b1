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
    /**
     * How long the scheduler may be behind an update its RMNode already took before the update is sent again: only
     * as insurance, since another event in a queue that is behind only makes it longer.
     */
    static final long REDISPATCH_BEHIND_AFTER_MS = 30_000;

    /** Why a granted node's schedulable capacity is not its grant a while after the update was sent. */
    enum Lag {
        /** The scheduler enforced this grant and lost it: the NodeManager re-registered, or the RM failed over. */
        LOST,
        /** The RMNode took the update; the scheduler's event queue has not reached it yet. */
        SCHEDULER_BEHIND,
        /** The RMNode has not taken it either: the RM's dispatcher is behind, or a later update overtook it. */
        NOT_APPLIED;

        static Lag of(boolean grantSeenEnforced, Resource rmNodeTotal, YarnGrant grant) {
            if (grantSeenEnforced) {
                return LOST;
            }
            return rmNodeTotal != null && matches(rmNodeTotal, grant) ? SCHEDULER_BEHIND : NOT_APPLIED;
        }

        long redispatchAfterMillis() {
            return this == SCHEDULER_BEHIND ? REDISPATCH_BEHIND_AFTER_MS : REDISPATCH_AFTER_MS;
        }
    }

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
        /** The scheduler showed this grant's figures once: a later difference means they were lost, not late. */
        boolean grantSeenEnforced;
        /**
         * The capacity last sent: the RM's queues apply updates in order, so a grant whose figures the RMNode shows
         * is still sent when a different update went out before it (that one would otherwise land last).
         */
        Resource lastSent;
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
        if (node.grant == null || node.grant.memoryMB() != grant.memoryMB() || node.grant.vcores() != grant.vcores()) {
            node.grantSeenEnforced = false;
        }
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
                node.grantSeenEnforced = true;
                if (!node.enforced) {
                    node.enforced = true;
                    applied.add(new Applied(node.grant, Math.max(0, nowMillis - node.receivedAtMillis)));
                }
                continue;
            }
            node.enforced = false;
            RMNode rmNode = rmContext.getRMNodes().get(schedulerNode.getNodeID());
            Lag lag = Lag.of(node.grantSeenEnforced, rmNode == null ? null : rmNode.getTotalCapability(), node.grant);
            if (nowMillis - node.dispatchedAtMillis < lag.redispatchAfterMillis()) {
                continue;
            }
            if (lag == Lag.LOST) {
                LOG.info("node {} has capacity {} instead of its grant (epoch {} version {}): it re-registered or the "
                                + "ResourceManager failed over; applying the grant again", e.getKey(),
                        schedulerNode.getTotalResource(), node.grant.epoch(), node.grant.version());
                node.grantSeenEnforced = false;
            } else {
                LOG.debug("grant epoch {} version {} not yet in the scheduler's capacity {} of {} after {} ms ({}): sending it again",
                        node.grant.epoch(), node.grant.version(), schedulerNode.getTotalResource(), e.getKey(),
                        nowMillis - node.receivedAtMillis, lag);
            }
            dispatch(e.getKey(), node, nowMillis);
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
        SchedulerNode schedulerNode = scheduler.getSchedulerNode(rmNode.getNodeID());
        if (matches(current, node.grant) && schedulerNode != null && matches(schedulerNode.getTotalResource(), node.grant)
                && (node.lastSent == null || matches(node.lastSent, node.grant))) {
            return; // a new version with the same figures and no other update on its way: reconcile acknowledges it
        }
        Resource target = Resource.newInstance(current);
        target.setMemorySize(node.grant.memoryMB());
        target.setVirtualCores(node.grant.vcores());
        LOG.info("applying grant epoch {} version {} to {}: {} -> <memory:{}, vCores:{}>", node.grant.epoch(),
                node.grant.version(), nodeId, current, node.grant.memoryMB(), node.grant.vcores());
        node.lastSent = target;
        rmContext.getDispatcher().getEventHandler().handle(
                new RMNodeResourceUpdateEvent(rmNode.getNodeID(), ResourceOption.newInstance(target, -1)));
    }

    private static boolean matches(Resource total, YarnGrant grant) {
        return total.getMemorySize() == grant.memoryMB() && total.getVirtualCores() == grant.vcores();
    }
}
