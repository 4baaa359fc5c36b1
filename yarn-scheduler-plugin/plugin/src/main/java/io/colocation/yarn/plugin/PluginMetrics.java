package io.colocation.yarn.plugin;

import io.colocation.api.yarn.YarnGrant;
import io.colocation.api.yarn.YarnNodeReport;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsInfo;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.lib.Interns;
import org.apache.hadoop.metrics2.lib.MetricsRegistry;
import org.apache.hadoop.metrics2.lib.MutableCounterLong;
import org.apache.hadoop.metrics2.lib.MutableRate;

/**
 * Hadoop metrics2 source {@code ColocationYarnGrants} (in the ResourceManager's JMX as
 * {@code Hadoop:service=ResourceManager,name=ColocationYarnGrants} and in every metrics sink): one
 * cluster record with counters and the grant-apply latency, and one record per granted node (tag
 * {@code Node}) with its grant, allocation and preempted containers.
 */
final class PluginMetrics implements MetricsSource {
    static final String SOURCE = "ColocationYarnGrants";
    private static final MetricsInfo NODE_RECORD = Interns.info("ColocationYarnNode", "Batch grant and YARN use of one NodeManager");
    private static final MetricsInfo NODE_TAG = Interns.info("Node", "NodeManager id (host:port)");
    private static final MetricsInfo GRANT_VCORES = Interns.info("GrantVcores", "Vcores the broker grants YARN on the node");
    private static final MetricsInfo GRANT_MEMORY = Interns.info("GrantMemoryMB", "Memory (MiB) the broker grants YARN on the node");
    private static final MetricsInfo GRANT_EPOCH = Interns.info("GrantEpoch", "Broker leader epoch of the node's grant");
    private static final MetricsInfo ALLOCATED_VCORES = Interns.info("AllocatedVcores", "Vcores YARN has allocated on the node");
    private static final MetricsInfo ALLOCATED_MEMORY = Interns.info("AllocatedMemoryMB", "Memory (MiB) YARN has allocated on the node");
    private static final MetricsInfo PREEMPTED = Interns.info("PreemptedContainers", "Containers preempted on the node because its grant shrank");

    private final MetricsRegistry registry = new MetricsRegistry("ColocationYarnGrants").setContext("yarn");
    private final MutableCounterLong grantsApplied = registry.newCounter("GrantsApplied", "Grants the scheduler enforces (acknowledged)", 0L);
    private final MutableCounterLong grantsStale = registry.newCounter("GrantsIgnoredStaleEpoch", "Grants ignored because their broker epoch is older than the fencing epoch", 0L);
    private final MutableCounterLong documentsRejected = registry.newCounter("DocumentsRejected", "Malformed grant or epoch documents", 0L);
    private final MutableCounterLong containersPreempted = registry.newCounter("ContainersPreempted", "Containers killed as PREEMPTED because a grant shrank below the allocation", 0L);
    private final MutableRate applyLatency = registry.newRate("GrantApplyLatency", "Milliseconds from a grant's arrival to the scheduler enforcing it", false);

    private final Map<String, YarnGrant> grants = new ConcurrentHashMap<>();
    private final Map<String, YarnNodeReport> allocations = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> preempted = new ConcurrentHashMap<>();

    static PluginMetrics register() {
        PluginMetrics metrics = new PluginMetrics();
        DefaultMetricsSystem.instance().register(SOURCE, "Colocation batch grants applied by the YARN scheduler plugin", metrics);
        return metrics;
    }

    void unregister() {
        DefaultMetricsSystem.instance().unregisterSource(SOURCE);
    }

    void grantApplied(YarnGrant grant, long latencyMillis) {
        grants.put(grant.nodeId(), grant);
        grantsApplied.incr();
        applyLatency.add(latencyMillis);
    }

    void grantRemoved(String nodeId) {
        grants.remove(nodeId);
    }

    void staleGrant() {
        grantsStale.incr();
    }

    void documentRejected() {
        documentsRejected.incr();
    }

    void containerPreempted(String nodeId) {
        containersPreempted.incr();
        preempted.computeIfAbsent(nodeId, n -> new AtomicLong()).incrementAndGet();
    }

    void allocations(Map<String, YarnNodeReport> reports) {
        allocations.keySet().retainAll(reports.keySet());
        allocations.putAll(reports);
    }

    @Override
    public void getMetrics(MetricsCollector collector, boolean all) {
        registry.snapshot(collector.addRecord(registry.info()), all);
        for (Map.Entry<String, YarnGrant> e : grants.entrySet()) {
            YarnGrant grant = e.getValue();
            YarnNodeReport allocated = allocations.get(e.getKey());
            AtomicLong count = preempted.get(e.getKey());
            MetricsRecordBuilder record = collector.addRecord(NODE_RECORD).setContext("yarn").tag(NODE_TAG, e.getKey())
                    .addGauge(GRANT_VCORES, grant.vcores())
                    .addGauge(GRANT_MEMORY, grant.memoryMB())
                    .addGauge(GRANT_EPOCH, grant.epoch())
                    .addCounter(PREEMPTED, count == null ? 0L : count.get());
            if (allocated != null) {
                record.addGauge(ALLOCATED_VCORES, allocated.allocatedVcores())
                        .addGauge(ALLOCATED_MEMORY, allocated.allocatedMemoryMB());
            }
        }
    }
}
