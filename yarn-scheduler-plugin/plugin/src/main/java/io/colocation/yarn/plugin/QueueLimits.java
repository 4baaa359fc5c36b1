package io.colocation.yarn.plugin;

import io.colocation.api.yarn.YarnQueueLimits;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.MutableConfigurationProvider;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CSQueue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.conf.YarnConfigurationStore;
import org.apache.hadoop.yarn.webapp.dao.QueueConfigInfo;
import org.apache.hadoop.yarn.webapp.dao.SchedConfUpdateInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the broker's {@link YarnQueueLimits} the CapacityScheduler's own configuration: each queue's
 * {@code capacity} and {@code maximum-capacity} in absolute resources, through the scheduler's mutable
 * configuration the way YARN's REST mutation API does it (log the mutation, refresh the queues, confirm it, or
 * roll it back when YARN refuses), so {@code yarn queue -status}, the RM UI and the scheduler hold them. A newly
 * active RM's plugin applies the document again, whatever store the configuration lives in. Only the two settings of
 * the queues the document names are ever written; a queue whose settings already match is left alone.
 */
final class QueueLimits {
    private static final Logger LOG = LoggerFactory.getLogger(QueueLimits.class);
    static final String PREFIX = "yarn.scheduler.capacity.";
    static final long RETRY_MILLIS = 60_000;

    /** What YARN holds of the documents: the last it took, and why the newest is not (all) in force. */
    static final class Status {
        private final long epoch;
        private final long version;
        private final String problem;

        Status(long epoch, long version, String problem) {
            this.epoch = epoch;
            this.version = version;
            this.problem = problem;
        }

        long epoch() {
            return epoch;
        }

        long version() {
            return version;
        }

        String problem() {
            return problem;
        }
    }

    private final RMContext rmContext;
    private final ResourceScheduler scheduler;
    private volatile YarnQueueLimits offered;
    private YarnQueueLimits tried;
    private long triedAtMillis;
    private volatile Status status = new Status(0, 0, null);
    private volatile YarnQueueLimits inForce;

    QueueLimits(RMContext rmContext, ResourceScheduler scheduler) {
        this.rmContext = rmContext;
        this.scheduler = scheduler;
    }

    /** The broker's newest document (ZooKeeper's event thread); applied by the next {@link #apply}. */
    void offer(YarnQueueLimits limits) {
        offered = limits;
    }

    Status status() {
        return status;
    }

    /** The document YARN holds (its queues that YARN has), null when none. */
    YarnQueueLimits inForce() {
        return inForce;
    }

    /**
     * Applies the newest document unless it was tried already (one that is not all in force is tried again after
     * {@link #RETRY_MILLIS}: a queue an admin adds, a store back); a document older than {@code fencingEpoch} (a
     * deposed broker's) is refused. Runs on the scheduling monitor's thread.
     */
    void apply(long fencingEpoch, long nowMillis) {
        YarnQueueLimits limits = offered;
        if (limits == null || (limits.equals(tried) && (status.problem() == null || nowMillis - triedAtMillis < RETRY_MILLIS))) {
            return;
        }
        tried = limits;
        triedAtMillis = nowMillis;
        Status was = status;
        if (limits.epoch() < fencingEpoch) {
            LOG.warn("ignoring queue limits of broker epoch {} (version {}): the current epoch is {}, a deposed broker "
                    + "leader wrote them", limits.epoch(), limits.version(), fencingEpoch);
            return;
        }
        if (!(scheduler instanceof CapacityScheduler)) {
            refused(was, limits, "the YARN leaves of a tree need the CapacityScheduler; this ResourceManager runs "
                    + scheduler.getClass().getSimpleName());
            return;
        }
        CapacityScheduler cs = (CapacityScheduler) scheduler;
        if (!cs.isConfigurationMutable()) {
            refused(was, limits, "the CapacityScheduler's configuration is not mutable: set "
                    + "yarn.scheduler.configuration.store.class to zk (shared by the ResourceManagers), fs, leveldb "
                    + "or memory");
            return;
        }
        Map<String, CSQueue> queues = queuesByPath(cs);
        Configuration conf = cs.getConfiguration();
        String mixed = percentSiblings(limits, queues.keySet(), conf);
        if (mixed != null) {
            refused(was, limits, mixed);
            return;
        }
        List<String> missing = new ArrayList<>();
        ArrayList<QueueConfigInfo> updates = new ArrayList<>();
        StringBuilder changes = new StringBuilder();
        for (Map.Entry<String, YarnQueueLimits.Limit> e : limits.queues().entrySet()) {
            String queue = e.getKey();
            if (!queues.containsKey(queue)) {
                missing.add(queue);
                continue;
            }
            Map<String, String> params = new HashMap<>();
            put(params, conf, queue, "capacity", e.getValue().capacity());
            put(params, conf, queue, "maximum-capacity", e.getValue().maximumCapacity());
            if (!params.isEmpty()) {
                updates.add(new QueueConfigInfo(queue, params));
                changes.append(changes.length() == 0 ? "" : ", ").append(queue).append(' ').append(new TreeMap<>(params));
            }
        }
        String problem = missing.isEmpty() ? null : "no CapacityScheduler queue " + String.join(", ", missing)
                + ": its limit is not applied";
        if (updates.isEmpty()) {
            took(limits, problem, "nothing to change");
            return;
        }
        long started = System.nanoTime();
        try {
            mutate(cs.getMutableConfProvider(), updates);
        } catch (Exception e) {
            refused(was, limits, "YARN refused the limits: " + e.getMessage());
            return;
        }
        took(limits, problem, "in " + (System.nanoTime() - started) / 1_000_000 + " ms: " + changes);
    }

    private void took(YarnQueueLimits limits, String problem, String what) {
        status = new Status(limits.epoch(), limits.version(), problem);
        inForce = limits;
        LOG.info("queue limits of broker epoch {} version {} in force, {}", limits.epoch(), limits.version(), what);
        if (problem != null) {
            LOG.error("queue limits of broker epoch {} version {}: {}", limits.epoch(), limits.version(), problem);
        }
    }

    /** The last document in force stays reported; the problem says why the newest is not. */
    private void refused(Status was, YarnQueueLimits limits, String problem) {
        status = new Status(was.epoch(), was.version(), problem);
        LOG.error("queue limits of broker epoch {} version {} not applied: {}", limits.epoch(), limits.version(), problem);
    }

    /**
     * The CapacityScheduler keeps the children of a parent in one capacity mode (Hadoop 3.3 to 3.5: "children queue used
     * mixed of weight mode, percentage and absolute mode"); the queues beside the document's that have a capacity in
     * percent or weight are named, for the whole document would be refused.
     */
    private static String percentSiblings(YarnQueueLimits limits, java.util.Set<String> queues, Configuration conf) {
        java.util.Set<String> parents = new java.util.TreeSet<>();
        for (String q : limits.queues().keySet()) {
            parents.add(q.substring(0, q.lastIndexOf('.')));
        }
        List<String> mixed = new ArrayList<>();
        for (String q : queues) {
            int dot = q.lastIndexOf('.');
            if (limits.queues().containsKey(q) || !parents.contains(q.substring(0, dot))) {
                continue;
            }
            String capacity = conf.get(PREFIX + q + ".capacity");
            if (capacity != null && !capacity.trim().startsWith("[") && !zero(capacity)) {
                mixed.add(q + " (capacity " + capacity.trim() + ")");
            }
        }
        return mixed.isEmpty() ? null : "YARN keeps the queues under one parent in one capacity mode, and "
                + String.join(", ", mixed) + " beside the tree's queues are in percent or weight: make them YARN leaves of "
                + "the tree or give them absolute capacities ([memory=...,vcores=...])";
    }

    private static boolean zero(String percent) {
        try {
            return Float.parseFloat(percent.trim()) == 0f;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static void put(Map<String, String> params, Configuration conf, String queue, String key, String value) {
        String current = conf.get(PREFIX + queue + "." + key);
        if (current == null || !current.replaceAll("\\s", "").equals(value)) {
            params.put(key, value);
        }
    }

    /** YARN's own mutation path: the change is logged in the store, applied by a queue refresh, then confirmed. */
    private void mutate(MutableConfigurationProvider provider, ArrayList<QueueConfigInfo> updates) throws Exception {
        SchedConfUpdateInfo update = new SchedConfUpdateInfo();
        update.setUpdateQueueInfo(updates);
        YarnConfigurationStore.LogMutation mutation = provider.logAndApplyMutation(UserGroupInformation.getCurrentUser(), update);
        try {
            rmContext.getRMAdminService().refreshQueues();
        } catch (Exception e) {
            provider.confirmPendingMutation(mutation, false);
            throw e;
        }
        provider.confirmPendingMutation(mutation, true);
    }

    /** Every queue under root by full path (walked, as Hadoop 3.3 and 3.4 look queues up by name differently). */
    static Map<String, CSQueue> queuesByPath(CapacityScheduler cs) {
        Map<String, CSQueue> out = new TreeMap<>();
        walk(cs.getRootQueue(), out);
        return out;
    }

    private static void walk(CSQueue queue, Map<String, CSQueue> out) {
        List<CSQueue> children = queue.getChildQueues();
        if (children == null) {
            return;
        }
        for (CSQueue child : children) {
            out.put(child.getQueuePath(), child);
            walk(child, out);
        }
    }
}
