package io.colocation.broker.service.metrics;

import io.colocation.broker.service.Broker;

import io.colocation.broker.reconcile.PassStats;
import io.colocation.model.Resources;
import io.colocation.broker.ledger.Ledger;
import io.colocation.broker.ledger.NodeLedger;
import io.colocation.broker.reconcile.BrokerReconciler;
import io.colocation.broker.yarn.Leadership;
import io.prometheus.client.Collector;
import io.prometheus.client.CounterMetricFamily;
import io.prometheus.client.GaugeMetricFamily;
import java.util.ArrayList;
import java.util.List;

/**
 * The ledger in Prometheus form: per node and side, origin, grants, use, excess and overcommit (cpu in
 * milli-cores, memory in bytes), plus the broker's counters. Read at scrape time, so it never lags the ledger.
 */
public final class LedgerCollector extends Collector {
    private final Ledger ledger;
    private final PassStats stats;
    private final Leadership leadership;

    public LedgerCollector(Ledger ledger, PassStats stats, Leadership leadership) {
        this.ledger = ledger;
        this.stats = stats;
        this.leadership = leadership;
    }

    @Override
    public List<MetricFamilySamples> collect() {
        List<String> nodeLabels = List.of("node", "resource");
        List<String> sideLabels = List.of("node", "side", "resource");
        GaugeMetricFamily origin = new GaugeMetricFamily("colocation_node_origin", "Reclaimable Batch of the node (origin)", nodeLabels);
        GaugeMetricFamily grant = new GaugeMetricFamily("colocation_node_grant", "Batch granted to a side on the node", sideLabels);
        GaugeMetricFamily used = new GaugeMetricFamily("colocation_node_used", "Batch used by a side on the node", sideLabels);
        GaugeMetricFamily excess = new GaugeMetricFamily("colocation_node_excess", "Use beyond origin on the node, to be taken back", nodeLabels);
        GaugeMetricFamily overcommit = new GaugeMetricFamily("colocation_node_overcommit", "Grants beyond origin on the node (shared policy)", nodeLabels);
        for (NodeLedger n : ledger.all()) {
            add(origin, n.origin(), n.node());
            add(grant, n.kubernetesGrant(), n.node(), "kubernetes");
            add(grant, n.yarnGrant(), n.node(), "yarn");
            add(used, n.kubernetesUsed(), n.node(), "kubernetes");
            add(used, n.yarnUsed(), n.node(), "yarn");
            add(excess, n.excess(), n.node());
            add(overcommit, n.overcommit(), n.node());
        }
        PassStats s = stats;
        List<MetricFamilySamples> out = new ArrayList<>(List.of(origin, grant, used, excess, overcommit));
        out.add(new CounterMetricFamily("colocation_overcommit", "Node-passes whose grants together exceeded origin", s.overcommits.get()));
        out.add(new CounterMetricFamily("colocation_excess", "Node-passes whose use exceeded origin", s.excesses.get()));
        out.add(new CounterMetricFamily("colocation_passes", "Broker passes", s.passes.get()));
        CounterMetricFamily writes = new CounterMetricFamily("colocation_publications", "Grant writes", List.of("side"));
        writes.addMetric(List.of("kubernetes"), s.kubernetesWrites.get());
        writes.addMetric(List.of("yarn"), s.yarnWrites.get());
        out.add(writes);
        out.add(new CounterMetricFamily("colocation_publication_errors", "Failed grant writes", s.publishErrors.get()));
        out.add(new GaugeMetricFamily("colocation_last_pass_seconds", "Duration of the last pass", s.lastPassMillis / 1000.0));
        out.add(new GaugeMetricFamily("colocation_leader", "1 when this replica leads", leadership.fence().isPresent() ? 1 : 0));
        return out;
    }

    private static void add(GaugeMetricFamily family, Resources r, String... labels) {
        if (r == null) {
            return;
        }
        List<String> cpu = new ArrayList<>(List.of(labels));
        cpu.add("cpu_millicores");
        family.addMetric(cpu, r.cpuMilli());
        List<String> memory = new ArrayList<>(List.of(labels));
        memory.add("memory_bytes");
        family.addMetric(memory, r.memoryBytes());
    }
}
