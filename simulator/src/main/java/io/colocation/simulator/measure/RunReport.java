package io.colocation.simulator.measure;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.colocation.simulator.SimulateOptions;
import io.colocation.simulator.Simulation;
import io.colocation.simulator.model.trace.OnlineLoad;
import io.colocation.simulator.real.ClusterObjects;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a run measured: the table on stdout, {@code summary.json}, the samples as CSV and the picture of cluster CPU over
 * the day ({@link UtilisationChart}), computed once from the sampler, the workload, YARN, the agents and the processes.
 */
public final class RunReport {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final ObjectNode summary;
    private final List<ClusterSampler.Sample> samples;
    private final String table;
    private final String title;

    private RunReport(ObjectNode summary, List<ClusterSampler.Sample> samples, String table, String title) {
        this.summary = summary;
        this.samples = samples;
        this.table = table;
        this.title = title;
    }

    /**
     * What an engine ran and measured beside the samples.
     *
     * @param engine     {@code real} or {@code fast}
     * @param delays     the delays the engine runs with (the fast engine's parameters; the real engine's are its parts')
     * @param yarn       null when the run has no YARN side
     * @param processes  CPU and memory of the processes (the real engine's); empty for the fast engine
     * @param requests   the API requests by kind ({@code VERB resource[/subresource]}): measured, or counted by the fast engine
     * @param simulation the engine's own counters, as the report's {@code simulation} section states them
     */
    public record EngineRun(String engine, Map<String, Object> delays, KubernetesTasks kubernetes, YarnCounters yarn,
            Map<String, Long> evictions, Durations publishLagsMillis, double schedulerAttemptP99Millis,
            List<ProcessMonitor.Figures> processes, ApiServerRequests.Counts requests, Map<String, Long> simulation, double wallSeconds,
            double dayWallSeconds) {
    }

    public static RunReport of(SimulateOptions o, OnlineLoad trace, ClusterSampler sampler, EngineRun run, ClusterObjects.SloConfig slo) {
        KubernetesTasks workload = run.kubernetes();
        YarnCounters yc = run.yarn();
        double wallSeconds = run.wallSeconds();
        double dayWallSeconds = run.dayWallSeconds();
        List<ClusterSampler.Sample> s = sampler.samples();
        ObjectNode root = JSON.createObjectNode();
        root.put("policy", o.policy().label());
        root.put("nodes", o.nodes());
        root.put("trace", trace.traceName());
        root.put("traceColumn", trace.traceColumn());
        root.put("seed", o.seed());
        root.put("engine", run.engine());
        root.put("simulatedHours", round(s.stream().mapToDouble(ClusterSampler.Sample::seconds).sum() / 3600.0, 2));
        root.put("speed", o.speed());
        if (trace instanceof io.colocation.simulator.model.trace.PerNodeTrace perNode) {
            root.putNull("onlineMeanTargetPercent"); // the file's load as measured
            root.put("traceNodes", perNode.fileNodes().size());
        } else {
            root.put("onlineMeanTargetPercent", o.onlineMeanPercent());
        }
        root.put("wallSeconds", round(wallSeconds, 1));
        root.put("dayWallSeconds", round(dayWallSeconds, 1));

        List<Double> total = new ArrayList<>();
        List<Double> online = new ArrayList<>();
        List<Double> memory = new ArrayList<>();
        List<Double> weights = new ArrayList<>();
        double origin = 0;
        double k8s = 0;
        double y = 0;
        double kAllocated = 0;
        double yAllocated = 0;
        double seconds = 0;
        for (ClusterSampler.Sample x : s) {
            total.add(100 * x.totalCores() / x.capacityCores());
            online.add(100 * (x.online() + x.system()) / x.capacityCores());
            memory.add(100 * x.memoryFraction());
            weights.add(x.seconds());
            // every mean is over time: a sample stands for the interval it measured
            origin += x.originCores() * x.seconds();
            k8s += x.kubernetes() * x.seconds();
            y += x.yarn() * x.seconds();
            kAllocated += x.kubernetesAllocatedCores() * x.seconds();
            yAllocated += x.yarnAllocatedCores() * x.seconds();
            seconds += x.seconds();
        }
        double n = Math.max(1e-9, seconds);
        ObjectNode cpu = root.putObject("cpu");
        cpu.put("meanPercent", round(mean(total, weights), 2));
        cpu.put("p50Percent", round(percentile(total, 50), 2));
        cpu.put("p95Percent", round(percentile(total, 95), 2));
        cpu.put("onlineMeanPercent", round(mean(online, weights), 2));
        cpu.put("onlineP50Percent", round(percentile(online, 50), 2));
        cpu.put("onlineP95Percent", round(percentile(online, 95), 2));
        ObjectNode mem = root.putObject("memory");
        mem.put("meanPercent", round(mean(memory, weights), 2));
        mem.put("p95Percent", round(percentile(memory, 95), 2));
        ObjectNode batch = root.putObject("batch");
        batch.put("reclaimedMeanCores", round(origin / n, 1));
        batch.put("kubernetesUsedMeanCores", round(k8s / n, 1));
        batch.put("yarnUsedMeanCores", round(y / n, 1));
        batch.put("kubernetesAllocatedMeanCores", round(kAllocated / n, 1));
        batch.put("yarnAllocatedMeanCores", round(yAllocated / n, 1));
        root.put("overcommitSamples", sampler.overcommitSamples());
        root.put("samples", sampler.nodeSamples());
        root.put("yarnShrinkPendingSamples", sampler.shrinkPendingSamples());
        root.put("yarnShrinkPendingLongestMillis", sampler.longestShrinkPendingMillis());
        root.put("beThrottledCoreSeconds", round(sampler.throttledCoreSeconds(), 0));
        root.put("onlineShortCoreSeconds", round(sampler.onlineShortCoreSeconds(), 1));
        root.put("onlineShortShareOfDemandPercent", round(100 * sampler.onlineShortCoreSeconds()
                / Math.max(1e-9, sampler.onlineWantedCoreSeconds()), 5));
        root.put("onlineShortLongestSeconds", round(sampler.longestShortMillis() / 1000.0, 1));
        root.put("onlineShortEpisodes", sampler.shortEpisodes());
        root.put("onlineShortAtBeFloorCoreSeconds", round(sampler.onlineShortAtFloorCoreSeconds(), 1));
        root.put("onlineShortLongestLateSeconds", round(sampler.longestLateMillis() / 1000.0, 1));

        ObjectNode tasks = root.putObject("tasks");
        ObjectNode kt = tasks.putObject("kubernetes");
        long kSubmitted = workload == null ? 0 : workload.submitted();
        kt.put("submitted", kSubmitted);
        kt.put("completed", workload == null ? 0 : workload.completed());
        kt.put("evicted", workload == null ? 0 : workload.evicted());
        kt.put("oomKilled", workload == null ? 0 : workload.oomKilled());
        Durations kq = workload == null ? new Durations() : workload.queueingMillis();
        kt.put("queueingP50Seconds", round(kq.percentile(50) / 1000.0, 1));
        kt.put("queueingP99Seconds", round(kq.percentile(99) / 1000.0, 1));
        ObjectNode yt = tasks.putObject("yarn");
        yt.put("submitted", yc == null ? 0 : yc.submitted());
        yt.put("completed", yc == null ? 0 : yc.completed());
        yt.put("preempted", yc == null ? 0 : yc.preempted());
        yt.put("killed", yc == null ? 0 : yc.killed());
        yt.put("oomKilled", yc == null ? 0 : yc.oomKilled());
        yt.put("failed", yc == null ? 0 : yc.failed());
        yt.put("applicationsSubmitted", yc == null ? 0 : yc.applicationsSubmitted());
        yt.put("applicationsFinished", yc == null ? 0 : yc.applicationsFinished());
        yt.put("applicationsFailed", yc == null ? 0 : yc.applicationsFailed());
        Durations yq = yc == null ? new Durations() : yc.queueingMillis();
        yt.put("queueingP50Seconds", round(yq.percentile(50) / 1000.0, 1));
        yt.put("queueingP99Seconds", round(yq.percentile(99) / 1000.0, 1));

        Map<String, Long> evictions = new TreeMap<>(run.evictions());
        ObjectNode ev = root.putObject("evictionsByRouteStrategyOutcome");
        evictions.forEach(ev::put);
        long tasksSubmitted = kSubmitted + (yc == null ? 0 : yc.submitted());
        long taken = (workload == null ? 0 : workload.evicted()) + (yc == null ? 0 : yc.preempted() + yc.killed());
        ObjectNode per = root.putObject("perThousandBatchTasks");
        per.put("kubernetesEvicted", perThousand(workload == null ? 0 : workload.evicted(), tasksSubmitted));
        per.put("yarnPreempted", perThousand(yc == null ? 0 : yc.preempted(), tasksSubmitted));
        per.put("yarnKilled", perThousand(yc == null ? 0 : yc.killed(), tasksSubmitted));
        per.put("oomKilled", perThousand((workload == null ? 0 : workload.oomKilled()) + (yc == null ? 0 : yc.oomKilled()),
                tasksSubmitted));
        per.put("evictionsAndPreemptions", perThousand(taken, tasksSubmitted));

        double kPending = 0;
        double yPending = 0;
        for (ClusterSampler.Sample x : s) {
            kPending += x.kubernetesPendingCores() * x.seconds();
            yPending += x.yarnPendingCores() * x.seconds();
        }
        ObjectNode sides = root.putObject("sides");
        sides.put("kubernetesShareOfUsedBatchPercent", round(100 * k8s / Math.max(1e-9, k8s + y), 1));
        sides.put("kubernetesShareOfDemandPercent", round(100 * kPending / Math.max(1e-9, kPending + yPending), 1));
        sides.put("kubernetesPendingMeanCores", round(kPending / n, 1));
        sides.put("yarnPendingMeanCores", round(yPending / n, 1));
        Durations lags = run.publishLagsMillis();
        root.put("publishLagP50Millis", lags.percentile(50));
        root.put("publishLagP99Millis", lags.percentile(99));
        root.put("publishLagMaxMillis", lags.max());
        root.put("schedulerAttemptP99Millis", round(run.schedulerAttemptP99Millis(), 1));
        controlPlane(root.putObject("controlPlane"), run.requests(), run.processes(), o.nodes(), o.hours(),
                run.simulation().get("zooKeeperWrites"));
        ArrayNode procs = root.putArray("processes");
        for (ProcessMonitor.Figures f : run.processes()) {
            ObjectNode p = procs.addObject();
            p.put("name", f.name());
            p.put("cpuCores", round(f.cpuCores(), 3));
            p.put("cpuSeconds", round(f.cpuSeconds(), 1));
            p.put("rssMeanMiB", f.rssMeanBytes() >> 20);
            p.put("rssMaxMiB", f.rssMaxBytes() >> 20);
        }
        ObjectNode sim = root.putObject("simulation");
        sim.put("engine", run.engine());
        sim.put("stepSeconds", Simulation.STEP_SECONDS);
        sim.put("sampleSeconds", Simulation.SAMPLE_SECONDS);
        run.simulation().forEach(sim::put);
        ObjectNode delays = sim.putObject("delays");
        run.delays().forEach((k, v) -> delays.set(k, JSON.valueToTree(v)));
        sim.put("kernelOomKills", sampler.oomKills());
        sim.put("colocationConfig", slo.colocation().replaceAll("\\s+", " "));
        sim.put("resourceThresholdConfig", slo.resourceThresholds().replaceAll("\\s+", " "));
        sim.put("sloConfigSource", slo.source());
        // the values in force: Koordinator's defaults under what the ConfigMap sets
        ObjectNode thresholds = root.putObject("thresholds");
        thresholds.put("cpuReclaimThresholdPercent", slo.colocationCluster().cpuReclaimThresholdPercent());
        thresholds.put("memoryReclaimThresholdPercent", slo.colocationCluster().memoryReclaimThresholdPercent());
        thresholds.set("cpuSuppressThresholdPercent", slo.thresholdsCluster().path("cpuSuppressThresholdPercent"));
        thresholds.set("memoryEvictThresholdPercent", slo.thresholdsCluster().path("memoryEvictThresholdPercent"));
        thresholds.set("cpuEvictTimeWindowSeconds", slo.thresholdsCluster().path("cpuEvictTimeWindowSeconds"));
        ArrayNode examples = sim.putArray("overcommitExamples");
        sampler.overcommitExamples().forEach(examples::add);
        return new RunReport(root, s, table(root), o.policy().label() + ", " + o.nodes() + " nodes, " + trace.traceName() + ", seed " + o.seed());
    }

    private static String table(ObjectNode r) {
        StringBuilder b = new StringBuilder();
        var cpu = r.path("cpu");
        var batch = r.path("batch");
        var kt = r.path("tasks").path("kubernetes");
        var yt = r.path("tasks").path("yarn");
        row(b, "policy / nodes / trace / seed / engine", r.path("policy").asText() + " / " + r.path("nodes").asInt() + " / "
                + r.path("trace").asText() + " / " + r.path("seed").asLong() + " / " + r.path("engine").asText());
        var t = r.path("thresholds");
        row(b, "thresholds: reclaim CPU / memory, suppress, evict", t.path("cpuReclaimThresholdPercent").asText("-") + " % / "
                + t.path("memoryReclaimThresholdPercent").asText("-") + " %, BE suppressed at " + t.path("cpuSuppressThresholdPercent").asText("-")
                + " %, BE memory eviction at " + t.path("memoryEvictThresholdPercent").asText("-") + " %, BE CPU eviction window "
                + t.path("cpuEvictTimeWindowSeconds").asText("-") + " s");
        row(b, "simulated hours (wall s of the day)", r.path("simulatedHours").asDouble() + " (" + r.path("dayWallSeconds").asDouble() + ")");
        row(b, "cluster CPU mean / p50 / p95", String.format(Locale.ROOT, "%.1f %% / %.1f %% / %.1f %%", cpu.path("meanPercent").asDouble(),
                cpu.path("p50Percent").asDouble(), cpu.path("p95Percent").asDouble()));
        row(b, "online CPU mean / p50 / p95", String.format(Locale.ROOT, "%.1f %% / %.1f %% / %.1f %%", cpu.path("onlineMeanPercent").asDouble(),
                cpu.path("onlineP50Percent").asDouble(), cpu.path("onlineP95Percent").asDouble()));
        row(b, "memory mean / p95", String.format(Locale.ROOT, "%.1f %% / %.1f %%", r.path("memory").path("meanPercent").asDouble(),
                r.path("memory").path("p95Percent").asDouble()));
        row(b, "Batch reclaimed (mean cores)", fmt(batch.path("reclaimedMeanCores").asDouble()));
        row(b, "Batch used: Kubernetes / YARN (mean cores)", fmt(batch.path("kubernetesUsedMeanCores").asDouble()) + " / "
                + fmt(batch.path("yarnUsedMeanCores").asDouble()));
        row(b, "Batch allocated: Kubernetes / YARN (mean cores)", fmt(batch.path("kubernetesAllocatedMeanCores").asDouble()) + " / "
                + fmt(batch.path("yarnAllocatedMeanCores").asDouble()));
        row(b, "overcommit samples (grants beyond Batch)", r.path("overcommitSamples").asLong() + " of " + r.path("samples").asLong());
        row(b, "  YARN shrink on its way to the RM (samples, longest)", r.path("yarnShrinkPendingSamples").asLong() + ", "
                + r.path("yarnShrinkPendingLongestMillis").asLong() + " ms wall");
        row(b, "BE throttled (core-seconds)", fmt(r.path("beThrottledCoreSeconds").asDouble()));
        row(b, "online short (core-s, share, longest)", fmt(r.path("onlineShortCoreSeconds").asDouble()) + ", "
                + r.path("onlineShortShareOfDemandPercent").asDouble() + " %, " + r.path("onlineShortLongestSeconds").asDouble() + " s");
        row(b, "  of it at the BE floor (core-s); longest late", fmt(r.path("onlineShortAtBeFloorCoreSeconds").asDouble()) + "; "
                + r.path("onlineShortLongestLateSeconds").asDouble() + " s (the suppression's lag; a step is "
                + r.path("simulation").path("stepSeconds").asInt() + " s)");
        row(b, "Kubernetes tasks: submitted / completed / evicted", kt.path("submitted").asLong() + " / " + kt.path("completed").asLong()
                + " / " + kt.path("evicted").asLong());
        row(b, "YARN tasks: submitted / completed / preempted / killed", yt.path("submitted").asLong() + " / " + yt.path("completed").asLong()
                + " / " + yt.path("preempted").asLong() + " / " + yt.path("killed").asLong());
        row(b, "Kubernetes share of used Batch / of demand", r.path("sides").path("kubernetesShareOfUsedBatchPercent").asDouble() + " % / "
                + r.path("sides").path("kubernetesShareOfDemandPercent").asDouble() + " %");
        row(b, "evictions + preemptions per 1,000 tasks", fmt(r.path("perThousandBatchTasks").path("evictionsAndPreemptions").asDouble()));
        r.path("evictionsByRouteStrategyOutcome").fields().forEachRemaining(e -> row(b, "  " + e.getKey(), e.getValue().asText()));
        row(b, "queueing p50 / p99: Kubernetes", kt.path("queueingP50Seconds").asDouble() + " s / " + kt.path("queueingP99Seconds").asDouble()
                + " s");
        row(b, "queueing p50 / p99: YARN", yt.path("queueingP50Seconds").asDouble() + " s / " + yt.path("queueingP99Seconds").asDouble() + " s");
        row(b, "publish lag p50 / p99 / max (ms; the fast engine's simulated)", r.path("publishLagP50Millis").asLong() + " / " + r.path("publishLagP99Millis").asLong()
                + " / " + r.path("publishLagMaxMillis").asLong());
        row(b, "scheduler attempt p99 (wall ms)", fmt(r.path("schedulerAttemptP99Millis").asDouble()));
        var cp = r.path("controlPlane");
        row(b, "API requests / writes per node and simulated hour", fmt(cp.path("apiRequestsPerNodeHour").asDouble()) + " / "
                + fmt(cp.path("apiWritesPerNodeHour").asDouble()));
        if (cp.has("kubeApiserverCoresEstimated")) {
            row(b, "kube-apiserver / etcd cores at the real engine's costs", String.format(Locale.ROOT, "%.2f / %.2f",
                    cp.path("kubeApiserverCoresEstimated").asDouble(), cp.path("etcdCoresEstimated").asDouble()));
        } else {
            row(b, "CPU ms per API request / per etcd write", String.format(Locale.ROOT, "%.2f / %.2f",
                    cp.path("kubeApiserverCpuMillisPerRequest").asDouble(), cp.path("etcdCpuMillisPerWrite").asDouble()));
        }
        for (var p : r.path("processes")) {
            row(b, "  " + p.path("name").asText(), String.format(Locale.ROOT, "CPU %.2f cores, RSS %d MiB (max %d)", p.path("cpuCores").asDouble(),
                    p.path("rssMeanMiB").asLong(), p.path("rssMaxMiB").asLong()));
        }
        return b.toString();
    }

    private static void row(StringBuilder b, String what, String value) {
        b.append(String.format(Locale.ROOT, "%-52s %s%n", what, value));
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, v >= 100 || v == Math.rint(v) ? "%.0f" : "%.1f", v);
    }

    public String table() {
        return table;
    }

    public ObjectNode summary() {
        return summary;
    }

    /** Writes {@code summary.json}, {@code report.txt}, {@code samples.csv} and {@code cpu.svg} into {@code dir}. */
    public void write(Path dir) throws IOException {
        Files.writeString(dir.resolve("summary.json"), JSON.writeValueAsString(summary) + "\n");
        Files.writeString(dir.resolve("report.txt"), table);
        StringBuilder csv = new StringBuilder("time,seconds,capacityCores,onlineCores,systemCores,kubernetesCores,yarnCores,throttledCores,"
                + "onlineShortCores,memoryPercent,batchCores,kubernetesGrantCores,yarnGrantCores,kubernetesAllocatedCores,"
                + "yarnAllocatedCores,overcommitNodes\n");
        for (ClusterSampler.Sample x : samples) {
            csv.append(String.format(Locale.ROOT, "%s,%.1f,%.0f,%.2f,%.2f,%.2f,%.2f,%.2f,%.3f,%.2f,%.1f,%.1f,%.1f,%.1f,%.1f,%d%n",
                    java.time.Instant.ofEpochMilli(x.timeMillis()), x.seconds(), x.capacityCores(), x.online(), x.system(), x.kubernetes(), x.yarn(),
                    x.throttled(), x.onlineShort(), 100 * x.memoryFraction(), x.originCores(), x.kubernetesGrantCores(), x.yarnGrantCores(),
                    x.kubernetesAllocatedCores(), x.yarnAllocatedCores(), x.overcommitNodes()));
        }
        Files.writeString(dir.resolve("samples.csv"), csv.toString());
        Files.writeString(dir.resolve("cpu.svg"), UtilisationChart.svg(samples, title));
    }

    /**
     * What the day asked of the API server and etcd: requests by kind (the 10 most frequent), per node and simulated
     * hour, and the CPU one request cost them (all their CPU counted against the requests; etcd's against the writes).
     */
    /**
     * What one write cost kube-apiserver and etcd in the real engine (200 nodes × 6 h, partitioned, 2026-11-28: 0.324 and
     * 0.077 cores over 450 wall seconds for 56,614 writes, reads and watches included): the fast engine, which has no API
     * server, states the cores its writes would take at these costs.
     */
    static final double KUBE_APISERVER_MILLIS_PER_WRITE = 2.58;
    static final double ETCD_MILLIS_PER_WRITE = 0.61;

    private static void controlPlane(ObjectNode cp, ApiServerRequests.Counts requests, List<ProcessMonitor.Figures> processes, int nodes,
            double hours, Long zooKeeperWrites) {
        double total = requests.totalRequests();
        double writes = requests.writes();
        cp.put("apiRequests", Math.round(total));
        cp.put("apiWrites", Math.round(writes));
        cp.put("apiRequestsPerNodeHour", round(total / nodes / hours, 1));
        cp.put("apiWritesPerNodeHour", round(writes / nodes / hours, 1));
        cp.put("apiRequestsPerSecond", round(total / (hours * 3600), 2));
        cp.put("apiWritesPerSecond", round(writes / (hours * 3600), 2));
        for (ProcessMonitor.Figures f : processes) {
            if (f.name().equals("kube-apiserver") && total > 0) {
                cp.put("kubeApiserverCpuMillisPerRequest", round(1000 * f.cpuSeconds() / total, 3));
            } else if (f.name().equals("etcd") && writes > 0) {
                cp.put("etcdCpuMillisPerWrite", round(1000 * f.cpuSeconds() / writes, 3));
            }
        }
        if (processes.isEmpty() && writes > 0) {
            double perSecond = writes / (hours * 3600);
            cp.put("kubeApiserverCoresEstimated", round(perSecond * KUBE_APISERVER_MILLIS_PER_WRITE / 1000, 3));
            cp.put("etcdCoresEstimated", round(perSecond * ETCD_MILLIS_PER_WRITE / 1000, 3));
            cp.put("estimatedFrom", "the real engine's cost per write: " + KUBE_APISERVER_MILLIS_PER_WRITE + " ms of kube-apiserver and "
                    + ETCD_MILLIS_PER_WRITE + " ms of etcd CPU (docs/simulator.md)");
        }
        if (zooKeeperWrites != null) {
            cp.put("zooKeeperWritesPerSecond", round(zooKeeperWrites / (hours * 3600), 2));
        }
        ObjectNode byKind = cp.putObject("apiRequestsByKind");
        requests.requests().entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(10)
                .forEach(e -> byKind.put(e.getKey(), Math.round(e.getValue())));
    }

    /** The mean of {@code v} weighted by {@code w} (each sample by the seconds it measured). */
    static double mean(List<Double> v, List<Double> w) {
        double sum = 0;
        double weight = 0;
        for (int i = 0; i < v.size(); i++) {
            sum += v.get(i) * w.get(i);
            weight += w.get(i);
        }
        return weight > 0 ? sum / weight : 0;
    }

    static double percentile(List<Double> v, double p) {
        if (v.isEmpty()) {
            return 0;
        }
        List<Double> sorted = new ArrayList<>(v);
        Collections.sort(sorted);
        int i = (int) Math.ceil(p / 100 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, i)));
    }

    private static double perThousand(long count, long tasks) {
        return tasks == 0 ? 0 : round(1000.0 * count / tasks, 2);
    }

    static double round(double v, int digits) {
        double f = Math.pow(10, digits);
        return Double.isFinite(v) ? Math.round(v * f) / f : 0;
    }
}
