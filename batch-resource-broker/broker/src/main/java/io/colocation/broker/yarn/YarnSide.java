package io.colocation.broker.yarn;

import io.colocation.api.yarn.YarnApplications;
import io.colocation.api.yarn.YarnGrant;
import io.colocation.api.yarn.YarnQueueLimits;
import io.colocation.api.yarn.YarnQueues;
import java.io.Closeable;
import java.io.IOException;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One YARN cluster as the broker sees it: where its per-node allocation and pending demand come from and
 * where grants go. Two implementations share one contract (see {@code YarnSideContractTest}): the
 * scheduler plugin over ZooKeeper ({@link PluginYarnSide}) and, for a ResourceManager without the
 * plugin, the RM admin protocol ({@link RmAdminYarnSide}). Both persist grants in ZooKeeper under the
 * leader's epoch first, so a deposed leader cannot change YARN.
 */
public interface YarnSide extends Closeable {

    /** YARN's allocation on one NodeManager, or its pending demand (memory in MiB). */
    record Usage(int vcores, long memoryMB) {
        public static final Usage NONE = new Usage(0, 0);
    }

    String clusterId();

    /** Starts; {@code onApplied} runs whenever YARN confirms a new capacity (so the other side's grow need not wait). */
    void start(Runnable onApplied) throws IOException;

    /** After this replica took the lead: every persisted grant again under its epoch. */
    void resume() throws NotLeaderException, IOException;

    /** The NodeManager ids YARN reports (for the host-name mapping of NMs outside Kubernetes). */
    Collection<String> knownNodes();

    /** YARN's allocation on the node, empty when YARN does not report it. */
    Optional<Usage> used(String nodeId);

    /** Pending demand of the whole cluster. */
    Usage demand();

    /** What each running application holds and asks for, as last reported; empty when this side does not report them. */
    Optional<YarnApplications> applications();

    /**
     * The nodes whose YARN documents (report, acknowledgement, grant) changed since the last call, or null when this side
     * cannot tell (any node may have). Lets a pass that decides only changed nodes skip comparing every node's YARN
     * facts; what no document announces (a report growing stale) waits for the next full pass.
     */
    default Set<String> takeChangedNodes() {
        return null;
    }

    /** Whether YARN's view of the node is fresh; when not, the broker freezes its grant. */
    boolean reachable(String nodeId);

    /** Whether the cluster answers at all, with a line for the health check. */
    Health health();

    record Health(boolean healthy, String message) {
    }

    /** The grant last published for the node, as persisted. */
    Optional<YarnGrant> grant(String nodeId);

    /** The capacity YARN last confirmed applying for the node, empty if none. */
    Optional<Usage> applied(String nodeId);

    /**
     * The largest figures among the grants this replica published for the node after the one YARN last confirmed (each
     * resource on its own), empty when it confirmed the newest: YARN applies grants in order and may still enforce any
     * of them until it confirms a later one (see {@link UnconfirmedGrants}).
     */
    Optional<Usage> unconfirmed(String nodeId);

    /** The CapacityScheduler's queues as last reported (a tree's YARN leaves); empty when this side does not report them. */
    default Optional<YarnQueues> queues() {
        return Optional.empty();
    }

    /** The queue limits last published, as persisted; empty when none or this side cannot apply them. */
    default Optional<YarnQueueLimits> queueLimits() {
        return Optional.empty();
    }

    /**
     * Publishes a tree's CapacityScheduler queue limits and its revoke delay (-1: never; docs/quota.md); refused when this replica does not lead, and by a
     * side without the scheduler plugin, which has no way to apply them.
     */
    default YarnQueueLimits publishQueueLimits(Map<String, YarnQueueLimits.Limit> queues, long revokeAfterMillis) throws NotLeaderException, IOException {
        throw new IOException("YARN cluster " + clusterId() + " runs without the colocation scheduler plugin: the YARN leaves of a "
                + "tree over Batch need it (yarn.resourcemanager.scheduler.monitor.policies)");
    }

    /** Publishes a grant keeping {@code keep} from preemption (see {@link YarnGrant}); refused when this replica does not lead. */
    YarnGrant publish(String nodeId, int vcores, long memoryMB, Usage keep) throws NotLeaderException, IOException;
}
