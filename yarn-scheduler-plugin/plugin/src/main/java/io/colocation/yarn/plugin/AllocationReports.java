package io.colocation.yarn.plugin;

import io.colocation.api.yarn.YarnApplications;
import io.colocation.api.yarn.YarnDemand;
import io.colocation.api.yarn.YarnNodeReport;
import io.colocation.api.yarn.YarnQueues;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.NodeId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.nodelabels.RMNodeLabelsManager;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.AbstractYarnScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceUsage;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplication;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CSQueue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.apache.hadoop.yarn.util.resource.Resources;

/**
 * What the broker needs to know from YARN: each node's allocation, the cluster's pending demand
 * (outstanding resource requests, per node partition) and the CapacityScheduler's queues (each queue's use and
 * the limits in force, a tree's YARN leaves), and what people ask it: which applications hold
 * and want what (its Batch workloads view; no decision reads it). A document is pushed when it changes (a busy
 * node's report at most once per {@code report.min-interval-ms}, so ZooKeeper sees at most one write
 * per node per interval) and again every {@code report.refresh-ms}, so its timestamp tells the broker
 * the plugin is alive; a write that did not land is sent again by the next pass.
 */
final class AllocationReports {
    /** The figures of a node report that count as a change (the timestamp does not). */
    private static final class NodeFigures {
        private final int vcores;
        private final long memoryMB;
        private final int containers;

        NodeFigures(int vcores, long memoryMB, int containers) {
            this.vcores = vcores;
            this.memoryMB = memoryMB;
            this.containers = containers;
        }

        public int vcores() {
            return vcores;
        }

        public long memoryMB() {
            return memoryMB;
        }

        public int containers() {
            return containers;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) {
                return true;
            }
            if (!(o instanceof NodeFigures)) {
                return false;
            }
            NodeFigures other = (NodeFigures) o;
            return vcores == other.vcores
                    && memoryMB == other.memoryMB
                    && containers == other.containers;
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(vcores, memoryMB, containers);
        }

        @Override
        public String toString() {
            return "NodeFigures[vcores=" + vcores
                    + ", memoryMB=" + memoryMB
                    + ", containers=" + containers + "]";
        }
    }

    private static final class Sent<T> {
        private final T figures;
        private final long atMillis;

        Sent(T figures, long atMillis) {
            this.figures = figures;
            this.atMillis = atMillis;
        }

        public T figures() {
            return figures;
        }

        public long atMillis() {
            return atMillis;
        }
    }

    private final RMContext rmContext;
    private final AbstractYarnScheduler<?, ?> scheduler;
    private final GrantChannel channel;
    private final long refreshMillis;
    private final long minIntervalMillis;
    private final Map<String, Sent<NodeFigures>> sentNodes = new ConcurrentHashMap<>();
    private volatile Sent<Map<String, YarnDemand.Partition>> sentDemand;
    private volatile Sent<YarnApplications> sentApplications;
    private volatile Sent<YarnQueues> sentQueues;
    private final QueueLimits queueLimits;

    AllocationReports(RMContext rmContext, AbstractYarnScheduler<?, ?> scheduler, GrantChannel channel, QueueLimits queueLimits,
            long refreshMillis, long minIntervalMillis) {
        this.rmContext = rmContext;
        this.queueLimits = queueLimits;
        this.scheduler = scheduler;
        this.channel = channel;
        this.refreshMillis = refreshMillis;
        this.minIntervalMillis = minIntervalMillis;
    }

    /** Pushes what changed or is due for a refresh; returns each node's allocation for the metrics. */
    Map<String, YarnNodeReport> push(long nowMillis) {
        Map<String, YarnNodeReport> reports = new HashMap<>();
        for (NodeId nodeId : rmContext.getRMNodes().keySet()) {
            SchedulerNode node = scheduler.getSchedulerNode(nodeId);
            if (node == null) {
                continue;
            }
            Resource allocated = node.getAllocatedResource();
            String id = nodeId.toString();
            NodeFigures figures = new NodeFigures(allocated.getVirtualCores(), allocated.getMemorySize(),
                    node.getNumContainers());
            YarnNodeReport report = new YarnNodeReport(id, figures.vcores, figures.memoryMB, figures.containers, nowMillis);
            reports.put(id, report);
            Sent<NodeFigures> sent = sentNodes.get(id);
            long age = sent == null ? Long.MAX_VALUE : nowMillis - sent.atMillis;
            if (age >= refreshMillis || (age >= minIntervalMillis && !sent.figures.equals(figures))) {
                Sent<NodeFigures> now = new Sent<>(figures, nowMillis);
                sentNodes.put(id, now);
                channel.writeNodeReport(report, () -> sentNodes.remove(id, now));
            }
        }
        sentNodes.keySet().retainAll(reports.keySet());
        pushDemand(nowMillis);
        pushApplications(nowMillis);
        if (scheduler instanceof CapacityScheduler) {
            pushQueues(nowMillis);
        }
        return reports;
    }

    private void pushQueues(long nowMillis) {
        YarnQueues queues = queues((CapacityScheduler) scheduler, queueLimits.status());
        Sent<YarnQueues> sent = sentQueues;
        long age = sent == null ? Long.MAX_VALUE : nowMillis - sent.atMillis;
        if (age < minIntervalMillis || (age < refreshMillis && sent.figures.equals(queues))) {
            return;
        }
        Sent<YarnQueues> now = new Sent<>(queues, nowMillis);
        sentQueues = now;
        channel.writeQueues(queues.at(nowMillis), () -> {
            if (Objects.equals(sentQueues, now)) {
                sentQueues = null;
            }
        });
    }

    /** Every queue under root (the first {@link YarnQueues#LIMIT} by path): default partition's use and maximum. */
    static YarnQueues queues(CapacityScheduler cs, QueueLimits.Status limits) {
        Map<String, YarnQueues.Queue> out = new TreeMap<>();
        int omitted = 0;
        for (Map.Entry<String, CSQueue> e : QueueLimits.queuesByPath(cs).entrySet()) {
            if (out.size() == YarnQueues.LIMIT) {
                omitted++;
                continue;
            }
            CSQueue q = e.getValue();
            List<CSQueue> children = q.getChildQueues();
            ResourceUsage usage = q.getQueueResourceUsage();
            Resource used = usage.getUsed(RMNodeLabelsManager.NO_LABEL);
            Resource pending = usage.getPending(RMNodeLabelsManager.NO_LABEL);
            Resource configured = q.getQueueResourceQuotas().getConfiguredMaxResource(RMNodeLabelsManager.NO_LABEL);
            Resource effective = q.getQueueResourceQuotas().getEffectiveMaxResource(RMNodeLabelsManager.NO_LABEL);
            out.put(e.getKey(), new YarnQueues.Queue(children == null || children.isEmpty(),
                    Math.max(0, used.getVirtualCores()), Math.max(0, used.getMemorySize()),
                    Math.max(0, pending.getVirtualCores()), Math.max(0, pending.getMemorySize()),
                    Math.max(0, configured.getVirtualCores()), Math.max(0, configured.getMemorySize()),
                    Math.max(0, effective.getVirtualCores()), Math.max(0, effective.getMemorySize())));
        }
        return new YarnQueues(out, omitted, limits.epoch(), limits.version(), limits.problem(), 0);
    }

    private void pushApplications(long nowMillis) {
        YarnApplications applications = applications();
        Sent<YarnApplications> sent = sentApplications;
        long age = sent == null ? Long.MAX_VALUE : nowMillis - sent.atMillis;
        if (age < minIntervalMillis || (age < refreshMillis && sent.figures.equals(applications))) {
            return;
        }
        Sent<YarnApplications> now = new Sent<>(applications, nowMillis);
        sentApplications = now;
        YarnApplications stamped = new YarnApplications(applications.applications(), applications.omitted(), nowMillis);
        channel.writeApplications(stamped, () -> {
            if (Objects.equals(sentApplications, now)) {
                sentApplications = null;
            }
        });
    }

    /**
     * Every running application's current attempt: allocation, outstanding requests (every partition) and the
     * containers the RM preempted of it; the largest {@link YarnApplications#LIMIT} by allocated vcores, then memory.
     */
    YarnApplications applications() {
        Set<String> partitions = partitions();
        List<YarnApplications.Application> all = new ArrayList<>();
        for (Map.Entry<ApplicationId, ? extends SchedulerApplication<?>> e : scheduler.getSchedulerApplications().entrySet()) {
            SchedulerApplicationAttempt attempt = e.getValue().getCurrentAppAttempt();
            if (attempt == null) {
                continue;
            }
            RMApp app = rmContext.getRMApps().get(e.getKey());
            Resource used = attempt.getCurrentConsumption();
            Resource pending = Resource.newInstance(0, 0);
            for (String partition : partitions) {
                Resources.addTo(pending, attempt.getAppAttemptResourceUsage().getPending(partition));
            }
            int preempted = 0;
            if (app != null && app.getCurrentAppAttempt() != null) {
                preempted = app.getCurrentAppAttempt().getRMAppAttemptMetrics().getNumNonAMContainersPreempted();
            }
            all.add(new YarnApplications.Application(e.getKey().toString(), app == null ? "" : app.getName(),
                    app == null ? "" : app.getApplicationType(), e.getValue().getQueue() == null ? "" : e.getValue().getQueue().getQueueName(),
                    attempt.getLiveContainers().size(), Math.max(0, used.getVirtualCores()), Math.max(0, used.getMemorySize()),
                    Math.max(0, pending.getVirtualCores()), Math.max(0, pending.getMemorySize()), Math.max(0, preempted)));
        }
        all.sort(Comparator.comparingInt(YarnApplications.Application::vcores).thenComparingLong(YarnApplications.Application::memoryMB)
                .reversed().thenComparing(YarnApplications.Application::applicationId));
        int omitted = Math.max(0, all.size() - YarnApplications.LIMIT);
        return new YarnApplications(all.subList(0, all.size() - omitted), omitted, 0);
    }

    private void pushDemand(long nowMillis) {
        Map<String, YarnDemand.Partition> partitions = pendingByPartition();
        Sent<Map<String, YarnDemand.Partition>> sent = sentDemand;
        if (sent != null && sent.figures.equals(partitions) && nowMillis - sent.atMillis < refreshMillis) {
            return;
        }
        int vcores = partitions.values().stream().mapToInt(YarnDemand.Partition::pendingVcores).sum();
        long memory = partitions.values().stream().mapToLong(YarnDemand.Partition::pendingMemoryMB).sum();
        Sent<Map<String, YarnDemand.Partition>> now = new Sent<>(partitions, nowMillis);
        sentDemand = now;
        channel.writeDemand(new YarnDemand(vcores, memory, partitions, nowMillis), () -> {
            if (Objects.equals(sentDemand, now)) {
                sentDemand = null;
            }
        });
    }

    /**
     * Outstanding requests of every running application attempt, summed per node partition ("" = default).
     * The partitions are the cluster's (the label manager's names, the same in Hadoop 3.3 and 3.4, whereas
     * the attempt's own partition set changed its name between them).
     */
    Map<String, YarnDemand.Partition> pendingByPartition() {
        Map<String, long[]> sums = new TreeMap<>();
        Set<String> partitions = partitions();
        for (SchedulerApplication<?> app : scheduler.getSchedulerApplications().values()) {
            SchedulerApplicationAttempt attempt = app.getCurrentAppAttempt();
            if (attempt == null) {
                continue;
            }
            ResourceUsage usage = attempt.getAppAttemptResourceUsage();
            for (String partition : partitions) {
                Resource pending = usage.getPending(partition);
                if (pending.getMemorySize() > 0 || pending.getVirtualCores() > 0) {
                    long[] sum = sums.computeIfAbsent(partition, p -> new long[2]);
                    sum[0] += pending.getVirtualCores();
                    sum[1] += pending.getMemorySize();
                }
            }
        }
        Map<String, YarnDemand.Partition> pending = new TreeMap<>();
        sums.forEach((p, s) -> pending.put(p, new YarnDemand.Partition((int) s[0], s[1])));
        return pending;
    }

    /** The cluster's node partitions ("" = default). */
    private Set<String> partitions() {
        Set<String> partitions = new TreeSet<>();
        partitions.add(RMNodeLabelsManager.NO_LABEL);
        if (rmContext.getNodeLabelManager() != null) {
            partitions.addAll(rmContext.getNodeLabelManager().getClusterNodeLabelNames());
        }
        return partitions;
    }
}
