package io.colocation.koordlet.status;

import io.colocation.koordlet.Koordlet;
import io.colocation.koordlet.collect.HostSample;
import io.colocation.koordlet.collect.Usage;
import io.prometheus.client.Collector;
import io.prometheus.client.GaugeMetricFamily;
import io.prometheus.client.CounterMetricFamily;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Prometheus metrics of what the agent measured, built from the last sample at scrape time (so pods that left
 * leave the metrics with them, and a figure that could not be measured is absent, not 0).
 */
public final class KoordletMetrics extends Collector {
    private final Koordlet koordlet;

    public KoordletMetrics(Koordlet koordlet) {
        this.koordlet = koordlet;
    }

    @Override
    public List<MetricFamilySamples> collect() {
        List<MetricFamilySamples> out = new ArrayList<>();
        HostSample s = koordlet.cache().last();
        if (s != null) {
            single(out, "koordlet_node", "the whole host", s.node());
            single(out, "koordlet_system", "the host minus pods, host applications and YARN", s.system());
            single(out, "koordlet_yarn", "all YARN containers (host application hadoop-yarn)", s.yarn());
            GaugeMetricFamily containers = new GaugeMetricFamily("koordlet_yarn_containers", "YARN containers measured", List.of());
            containers.addMetric(List.of(), s.yarnContainers().size());
            out.add(containers);
            Map<String, String> names = koordlet.podNames();
            labelled(out, "koordlet_pod", "a pod", List.of("namespace", "pod"), s.pods(), uid -> podLabels(names, uid));
            Map<String, Usage> containerUsage = new java.util.HashMap<>();
            koordlet.containerUsage().forEach((uid, byName) -> byName.forEach((name, u) -> containerUsage.put(uid + "/" + name, u)));
            labelled(out, "koordlet_container", "a pod's container (sampled every collect.containerIntervalSeconds)",
                    List.of("namespace", "pod", "container"), containerUsage, id -> {
                        int slash = id.indexOf('/');
                        List<String> pod = podLabels(names, id.substring(0, slash));
                        return List.of(pod.get(0), pod.get(1), id.substring(slash + 1));
                    });
            labelled(out, "koordlet_host_application", "a host application", List.of("name"), s.hostApps(), List::of);
            labelled(out, "koordlet_yarn_container", "a YARN container", List.of("container_id"), s.yarnContainers(), List::of);
            GaugeMetricFamily psi = new GaugeMetricFamily("koordlet_pressure_avg10_percent",
                    "pressure stall information of the host, 10 s average", List.of("resource", "kind"));
            HostSample.Pressure p = s.pressure();
            pressure(psi, "cpu", "some", p.cpuSome());
            pressure(psi, "memory", "some", p.memorySome());
            pressure(psi, "memory", "full", p.memoryFull());
            pressure(psi, "io", "some", p.ioSome());
            pressure(psi, "io", "full", p.ioFull());
            out.add(psi);
        }
        GaugeMetricFamily duration = new GaugeMetricFamily("koordlet_collect_duration_seconds", "time the last sample took", List.of());
        duration.addMetric(List.of(), koordlet.lastCollectDurationNanos() / 1e9);
        out.add(duration);
        CounterMetricFamily reports = new CounterMetricFamily("koordlet_reports", "NodeMetric status writes by outcome", List.of("outcome"));
        koordlet.reportCounts().forEach((outcome, n) -> reports.addMetric(List.of(outcome), n));
        out.add(reports);
        GaugeMetricFamily problems = new GaugeMetricFamily("koordlet_input_problems",
                "inputs that cannot be read now (files, copilot, NodeMetric spec, NodeSLO, pods)", List.of());
        problems.addMetric(List.of(), koordlet.problems().size());
        out.add(problems);
        CounterMetricFamily refused = new CounterMetricFamily("koordlet_copilot_refused",
                "what the copilot said and this agent refused: peer (not the NodeManager), container-id, cgroup-dir, pid", List.of("reason"));
        koordlet.copilotRefusals().forEach((reason, n) -> refused.addMetric(List.of(reason), n));
        out.add(refused);
        koordlet.prediction().ifPresent(r -> {
            GaugeMetricFamily g = new GaugeMetricFamily("koordlet_prod_prediction", "prod reclaimable and peak prediction (cores, bytes)",
                    List.of("kind", "resource"));
            g.addMetric(List.of("reclaimable", "cpu"), r.reclaimable().cpuMilli() / 1000.0);
            g.addMetric(List.of("reclaimable", "memory"), r.reclaimable().memoryBytes());
            g.addMetric(List.of("peak", "cpu"), r.peak().cpuMilli() / 1000.0);
            g.addMetric(List.of("peak", "memory"), r.peak().memoryBytes());
            out.add(g);
        });
        return out;
    }

    private static List<String> podLabels(Map<String, String> names, String uid) {
        String key = names.getOrDefault(uid, "/" + uid);
        int slash = key.indexOf('/');
        return List.of(key.substring(0, slash), key.substring(slash + 1));
    }

    private static void single(List<MetricFamilySamples> out, String prefix, String what, Usage u) {
        if (u.hasCpu()) {
            GaugeMetricFamily g = new GaugeMetricFamily(prefix + "_cpu_usage_cores", "CPU used by " + what, List.of());
            g.addMetric(List.of(), u.cpuCores());
            out.add(g);
        }
        if (u.hasMemory()) {
            GaugeMetricFamily g = new GaugeMetricFamily(prefix + "_memory_usage_bytes", "memory used by " + what, List.of());
            g.addMetric(List.of(), u.memoryBytes());
            out.add(g);
        }
    }

    private static void labelled(List<MetricFamilySamples> out, String prefix, String what, List<String> labels,
            Map<String, Usage> usages, java.util.function.Function<String, List<String>> labelValues) {
        GaugeMetricFamily cpu = new GaugeMetricFamily(prefix + "_cpu_usage_cores", "CPU used by " + what, labels);
        GaugeMetricFamily mem = new GaugeMetricFamily(prefix + "_memory_usage_bytes", "memory used by " + what, labels);
        usages.forEach((id, u) -> {
            List<String> values = labelValues.apply(id);
            if (u.hasCpu()) {
                cpu.addMetric(values, u.cpuCores());
            }
            if (u.hasMemory()) {
                mem.addMetric(values, u.memoryBytes());
            }
        });
        out.add(cpu);
        out.add(mem);
    }

    private static void pressure(GaugeMetricFamily g, String resource, String kind, double value) {
        if (!Double.isNaN(value)) {
            g.addMetric(List.of(resource, kind), value);
        }
    }
}
