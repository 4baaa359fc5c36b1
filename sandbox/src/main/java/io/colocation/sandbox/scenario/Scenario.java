package io.colocation.sandbox.scenario;

import io.colocation.api.KoordinatorKeys;
import io.colocation.localclusters.kube.KubeletNode;
import io.colocation.sandbox.Summary;
import io.colocation.sandbox.parts.ClusterSetup;
import io.colocation.sandbox.parts.SandboxYarn;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The story the sandbox tells, on a clock that starts with the koordlets: online pods are already there; once Batch
 * appears on every node, batch pods go to Kubernetes and a MapReduce job to YARN, the batch pods all of one team that
 * borrows what an idle second team lends, whose own pods come later and take its share back ({@link TeamQuotas}); the online spike (from
 * {@link LoadFiles#SPIKE_START} to {@link LoadFiles#SPIKE_END} of the scenario) shrinks Batch and YARN containers are
 * preempted; then the work finishes and the summary is drawn. Every second the broker's ledger is sampled. With Spark,
 * a Spark application goes to YARN beside the MapReduce job, and with a real node another runs on Kubernetes, its
 * executor pods on that node, its driver started before the clock so that they run through the spike; closing the
 * scenario stops their spark-submit if they still run.
 */
public final class Scenario implements AutoCloseable {
    /** The scheduler the batch pods name; the sandbox runs it. */
    public static final String K8S_SCHEDULER = "koord-scheduler";
    public static final int ONLINE_PODS_PER_NODE = 3;

    private final KubernetesClient client;
    private final BrokerView broker;
    private final SandboxYarn yarn;
    /** Whether a Spark application goes to YARN too. */
    private final boolean spark;
    private SparkWatch sparkJob;
    private SparkKubernetesWatch sparkKubernetesJob;
    /** The real node's kubelet, or null. */
    private final KubeletNode realKubelet;
    private final Path kubeconfig;
    private final Narrator narrator;
    private final List<String> nodes;
    /** The node a real kubelet runs, or null; its pods are the standard ones scaled by {@link #realScale}. */
    private final String realNode;
    private final double realScale;
    private final Duration duration;
    private final String policy;
    private final int nodeCores;
    private final Path work;

    private final Map<String, BrokerView.Ledger> lastSeen = new HashMap<>();
    private final LedgerSamples samples;
    private final BatchPods batchPods;
    private final TeamQuotas quotas;

    public Scenario(KubernetesClient client, BrokerView broker, SandboxYarn yarn, boolean spark, Narrator narrator, List<String> nodes,
            KubeletNode realNode, Path kubeconfig, double realScale, Duration duration, String policy, int nodeCores, Path work) {
        this.client = client;
        this.broker = broker;
        this.yarn = yarn;
        this.spark = spark;
        this.narrator = narrator;
        this.nodes = nodes;
        this.realKubelet = realNode;
        this.realNode = realNode == null ? null : realNode.name();
        this.kubeconfig = kubeconfig;
        this.realScale = realScale;
        this.duration = duration;
        this.policy = policy;
        this.nodeCores = nodeCores;
        this.work = work;
        this.samples = new LedgerSamples(nodeCores, this::scale);
        this.batchPods = new BatchPods(client, nodes, this.realNode, realScale);
        this.quotas = new TeamQuotas(client, narrator);
    }

    /** The online pods of a node, as the load curves name them (namespace/name). */
    public static List<String> onlinePods(String node) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < ONLINE_PODS_PER_NODE; i++) {
            names.add(ClusterSetup.ONLINE_NAMESPACE + "/web-" + node + "-" + i);
        }
        return names;
    }

    /** A node's size relative to the standard node: the real node's, or 1. */
    private double scale(String node) {
        return node.equals(realNode) ? realScale : 1.0;
    }

    /**
     * Step 1: the online pods (koord-prod, LS), bound to their nodes as the default scheduler would have. Each holds
     * 64 MiB and no CPU where it really runs (the real node); its load is the koordlet's curve.
     */
    public void createOnlinePods() {
        for (String node : nodes) {
            double s = scale(node);
            for (String key : onlinePods(node)) {
                String name = key.substring(key.indexOf('/') + 1);
                client.pods().inNamespace(ClusterSetup.ONLINE_NAMESPACE).resource(new PodBuilder().withNewMetadata().withName(name)
                        .addToLabels("app", "web").addToLabels(KoordinatorKeys.LABEL_QOS_CLASS, "LS").endMetadata().withNewSpec()
                        .withNodeName(node).withPriorityClassName("koord-prod").withTerminationGracePeriodSeconds(1L).addNewContainer()
                        .withName("web").withImage(KubeletNode.IMAGE).withImagePullPolicy("Never").withCommand("/burner", "0", "64")
                        .withNewResources().addToRequests(Map.of("cpu", PodSizes.milliCores(2000 * s), "memory", PodSizes.mebibytes(4096 * s)))
                        .addToLimits(Map.of("cpu", PodSizes.milliCores(4000 * s), "memory", PodSizes.mebibytes(6144 * s))).endResources().endContainer()
                        .endSpec().build()).create();
            }
        }
        narrator.say("1. online: " + nodes.size() * ONLINE_PODS_PER_NODE + " koord-prod pods (LS, 2 cores / 4 GiB requested each"
                + (realNode == null ? "" : String.format("; on the real node %s, sized to its cores: %s / %s", realNode,
                        PodSizes.milliCores(2000 * realScale), PodSizes.mebibytes(4096 * realScale)))
                + ") follow a compressed day: night, day, a spike at " + pct(LoadFiles.SPIKE_START) + "–" + pct(LoadFiles.SPIKE_END)
                + " of the scenario, evening");
    }

    /**
     * Step 1b, before the clock starts (with Spark and a real node): the Spark driver on Kubernetes, waited for until it
     * has asked for its executor pods. On a busy 2-core host its JVM takes 20–50 s to get there; submitted with the
     * other work once Batch appeared, it asked after the spike had taken the real node's grant, so its executors ran only
     * as the spike ended and there was sometimes nothing to evict. Asked for now, its pods wait for the first Batch and run
     * through the spike. Two executors, two waves of tasks of two fifths of the scenario each: whether they start in the
     * first seconds of Batch or 40 s later, a task runs when the koordlet evicts, 10–30 s into the spike.
     */
    public void submitSparkOnKubernetes(Duration deadline) throws InterruptedException {
        if (!spark || realKubelet == null) {
            return;
        }
        long taskMillis = Math.max(10_000, duration.toMillis() * 2 / 5);
        Quantity cpu = PodSizes.milliCores(1000 * realScale);
        sparkKubernetesJob = SparkKubernetesWatch.submit(client, realKubelet, kubeconfig, ClusterSetup.BATCH_NAMESPACE,
                work.resolve("spark-kubernetes"), 2, cpu.toString(), 4, taskMillis);
        long started = System.nanoTime();
        long until = started + deadline.toNanos();
        while (sparkKubernetesJob.executorPodsCreated() == 0 && !sparkKubernetesJob.complete() && System.nanoTime() < until) {
            Thread.sleep(1000);
            sparkKubernetesJob.poll();
        }
        long waited = Duration.ofNanos(System.nanoTime() - started).toSeconds();
        String asked = sparkKubernetesJob.executorPodsCreated() > 0 ? "asked for its executor pods after " + waited + " s; they wait for Batch"
                : sparkKubernetesJob.complete() ? "ended before it asked for executors (" + sparkKubernetesJob.state() + ")"
                : "had not asked for executors after " + waited + " s; the scenario goes on";
        narrator.say("   a Spark driver on Kubernetes (spark-submit --master k8s://… --deploy-mode client; 2 executor pods of " + cpu
                + ", 640Mi, spark-role=executor, that conf/" + ClusterSetup.SPARK_PROFILE + " turns into batch pods on " + realNode + "; 4 tasks of "
                + taskMillis / 1000 + " s) " + asked);
    }

    /** How the real node's own batch pod is sized, for the narration ("" without a real node). */
    private String realBatchPodSize() {
        return realNode == null ? "" : "; " + BatchPods.REAL_NODE_POD + " for " + realNode + ": " + PodSizes.milliCores(1000 * realScale) + " / "
                + PodSizes.mebibytes(1024 * realScale);
    }

    /** Steps 2 to 5; {@code clockStartNanos} is when the koordlets started (the load curves' zero). */
    public Summary play(long clockStartNanos) throws Exception {
        long end = clockStartNanos + duration.toNanos();
        long spikeStart = clockStartNanos + (long) (duration.toNanos() * LoadFiles.SPIKE_START);
        long spikeEnd = clockStartNanos + (long) (duration.toNanos() * LoadFiles.SPIKE_END);
        boolean batchSeen = false;
        long lenderAt = Long.MAX_VALUE;
        boolean spikeTold = false;
        boolean spikeEndTold = false;
        MapReduceWatch job = null;
        int podsSubmitted = 0;
        long preemptionsBefore = yarn == null ? 0 : yarn.containersPreempted();
        long lastProgress = 0;
        // Work preempted in the spike runs again after it; a Spark driver preempted there starts over in a new attempt.
        long hardEnd = end + Duration.ofSeconds(spark ? 180 : 120).toNanos();
        while (true) {
            long now = System.nanoTime();
            Map<String, BrokerView.Ledger> ledgers = broker.ledgers();
            samples.sample(ledgers, now >= spikeStart && now < spikeEnd);
            if (!batchSeen && ledgers.size() == nodes.size() && ledgers.values().stream().allMatch(l -> l.originCpu() > 0)) {
                batchSeen = true;
                narrator.say("2. Batch on every node, split between Kubernetes and YARN (" + policy + "):");
                ledgers.values().forEach(l -> narrator.say("   " + describe(l)));
                quotas.create(ledgers.values().stream().mapToLong(BrokerView.Ledger::kubernetesGrantCpu).sum());
                podsSubmitted = batchPods.submit(Math.max(20, duration.toSeconds() / 3), TeamQuotas.BORROWER, TeamQuotas.BEYOND_GRANT);
                // The lender's pods come once the borrower's hold the grant, long before those end: its room comes back
                // by revocation.
                lenderAt = now + Duration.ofSeconds(8).toNanos();
                if (yarn != null) {
                    // Maps that last into the spike, where they are preempted, and run again after it.
                    int maps = nodes.size();
                    long mapMillis = Duration.ofNanos(spikeStart - System.nanoTime()).toMillis() + duration.toMillis() * 15 / 100 + 15_000;
                    job = new MapReduceWatch(yarn.submitSleepJob(maps, mapMillis, work.resolve("mapreduce")));
                    narrator.say("3. " + podsSubmitted + " ordinary pods of " + TeamQuotas.BORROWER + " (1 cpu, 1 GiB" + realBatchPodSize() + "; "
                            + TeamQuotas.BEYOND_GRANT + " more than the grant holds, waiting for room) to the batch namespace, " + batchPods.converted()
                            + " turned into batch pods (koord-batch, BE, 1 batch-core / 1 GiB batch-memory) by the ClusterColocationProfile"
                            + " webhook and placed by the k8s-scheduler on the broker's grants; MapReduce job " + job.id() + " (" + maps + " maps of " + mapMillis / 1000 + " s) to YARN");
                    if (spark) {
                        // One wave of tasks of a fifth of the scenario: running when the spike comes, or soon after the
                        // executors start; what the spike preempts runs again after it.
                        long taskMillis = Math.max(10_000, duration.toMillis() / 5);
                        sparkJob = SparkWatch.submit(yarn, work.resolve("spark"), maps, taskMillis);
                        narrator.say("   and a Spark application (spark-submit --master yarn --deploy-mode cluster: a word count with a shuffle, "
                                + maps + " executors of 1 core / 512 MiB, one task of " + taskMillis / 1000 + " s each)");
                    }
                } else {
                    narrator.say("3. " + podsSubmitted + " ordinary pods of " + TeamQuotas.BORROWER + " to the batch namespace, " + batchPods.converted()
                            + " turned into batch pods by the ClusterColocationProfile webhook (no YARN in this run)");
                }
                if (sparkKubernetesJob != null) {
                    narrator.say("   and on Kubernetes the Spark driver's executor pods, waiting since before the clock, are placed on "
                            + realNode + "'s grant");
                }
            }
            if (now >= lenderAt) {
                lenderAt = Long.MAX_VALUE;
                int wave = quotas.lenderWave();
                batchPods.submitMore(wave, Math.max(10, duration.toSeconds() / 5), TeamQuotas.LENDER);
                podsSubmitted += wave;
                quotas.lenderArrived(wave);
            }
            if (!spikeTold && now >= spikeStart) {
                spikeTold = true;
                narrator.say("4. online load spike: each online pod rises to 3.1 cores; Batch shrinks, YARN's grants follow");
            }
            if (spikeTold && !spikeEndTold && now >= spikeEnd) {
                spikeEndTold = true;
                narrator.say("   the spike is over: Batch grows back; preempted work runs again");
            }
            tellGrantChanges(ledgers);
            batchPods.poll();
            if (batchSeen) {
                quotas.poll(batchPods);
            }
            if (job != null) {
                job.poll();
            }
            if (sparkJob != null) {
                sparkJob.poll();
            }
            if (sparkKubernetesJob != null) {
                sparkKubernetesJob.poll();
            }
            long preempted = yarn == null ? 0 : yarn.containersPreempted() - preemptionsBefore;
            if (now - lastProgress > Duration.ofSeconds(15).toNanos()) {
                lastProgress = now;
                narrator.progress(String.format("%ds of %ds; Batch %.1f cores; K8s batch %.1f, YARN %.1f; %d preempted; %d batch pods done%s",
                        Duration.ofNanos(now - clockStartNanos).toSeconds(), duration.toSeconds(), total(ledgers, BrokerView.Ledger::originCpu),
                        total(ledgers, BrokerView.Ledger::kubernetesUsedCpu), total(ledgers, BrokerView.Ledger::yarnUsedCpu), preempted,
                        batchPods.count("Succeeded"), (job == null ? "" : "; MapReduce " + job.state())
                                + (sparkJob == null ? "" : "; Spark on YARN " + (sparkJob.complete() ? "done" : sparkJob.state()))
                                + (sparkKubernetesJob == null ? "" : "; Spark on Kubernetes "
                                        + (sparkKubernetesJob.complete() ? "done" : sparkKubernetesJob.state()))));
            }
            boolean workDone = batchSeen && batchPods.count("Succeeded") + batchPods.count("Failed") + batchPods.count("Evicted") >= podsSubmitted
                    && (job == null || job.complete()) && (sparkJob == null || sparkJob.complete())
                    && (sparkKubernetesJob == null || sparkKubernetesJob.complete());
            if ((now >= end && workDone) || now >= hardEnd) {
                break;
            }
            Thread.sleep(1000);
        }
        long preempted = yarn == null ? 0 : yarn.containersPreempted() - preemptionsBefore;
        String jobResult;
        boolean jobOk = false;
        if (job == null) {
            jobResult = yarn == null ? "none (--no-yarn)" : "not submitted (Batch never appeared on every node)";
        } else if (!job.complete()) {
            jobResult = job.id() + " " + job.state() + " at the end";
        } else {
            jobOk = job.succeeded();
            jobResult = job.id() + " " + (jobOk ? "SUCCEEDED" : "FAILED");
        }
        String sparkResult;
        if (sparkJob == null) {
            sparkResult = !spark ? "none (--no-spark)" : yarn == null ? "none (--no-yarn)" : "not submitted (Batch never appeared on every node)";
        } else {
            sparkJob.poll();
            sparkResult = sparkJob.complete() ? sparkJob.state() : sparkJob.id() + " still running at the end (" + sparkJob.state() + ")";
        }
        String sparkKubernetesResult;
        if (sparkKubernetesJob == null) {
            // submitted before the clock whenever there is Spark and a real node
            sparkKubernetesResult = !spark ? "none (--no-spark)" : "none (no real node)";
        } else {
            sparkKubernetesJob.poll();
            sparkKubernetesResult = sparkKubernetesJob.complete() ? sparkKubernetesJob.state()
                    : "still running at the end (" + sparkKubernetesJob.state() + ")";
        }
        narrator.say("5. done" + (job != null && job.complete() ? ": the MapReduce job " + job.state() : "")
                + (sparkJob != null && sparkJob.complete() ? "; the Spark application on YARN " + (sparkJob.succeeded() ? "succeeded" : "failed") : "")
                + (sparkKubernetesJob != null && sparkKubernetesJob.complete() ? "; the Spark application on Kubernetes "
                        + (sparkKubernetesJob.succeeded() ? "succeeded" : "failed") : ""));
        return new Summary(policy, nodes.size(), samples.nodeUsageAverage(), samples.nodeUsagePeak(), samples.batchAverage(),
                samples.batchAtSpike(), samples.kubernetesPeak(), samples.yarnPeak(), samples.utilisationPeakPercent(),
                samples.overcommitSamples(), samples.samples() * nodes.size(), preempted, batchPods.count("Evicted"),
                batchPods.count("Succeeded"), batchPods.count("Failed"), podsSubmitted, batchPods.converted(), jobResult, jobOk,
                sparkResult, sparkJob != null && sparkJob.complete() && sparkJob.succeeded(), sparkKubernetesResult,
                sparkKubernetesJob != null && sparkKubernetesJob.complete() && sparkKubernetesJob.succeeded(),
                sparkKubernetesJob == null ? 0 : sparkKubernetesJob.executorsEvicted(), quotas.summary(), quotas.lenderServed(), "", "");
    }

    /** Stops the Spark applications' spark-submit if they still run (the scenario ended or was interrupted first). */
    @Override
    public void close() {
        if (sparkJob != null) {
            sparkJob.stop();
        }
        if (sparkKubernetesJob != null) {
            sparkKubernetesJob.stop();
        }
    }

    /** What the real kubelet ran: the pods bound to the real node, each with its phase, and the node's software. */
    public String realNodeReport() {
        var node = client.nodes().withName(realNode).get();
        String software = node == null ? "" : " (kubelet " + node.getStatus().getNodeInfo().getKubeletVersion() + ", "
                + node.getStatus().getNodeInfo().getContainerRuntimeVersion() + ")";
        Map<String, Integer> phases = new java.util.TreeMap<>();
        client.pods().inAnyNamespace().withField("spec.nodeName", realNode).list().getItems().forEach(p -> phases.merge(
                p.getMetadata().getNamespace() + " " + (p.getStatus() == null ? "Pending" : p.getStatus().getPhase()), 1, Integer::sum));
        StringBuilder b = new StringBuilder(realNode + software + " ran its pods:");
        phases.forEach((k, n) -> b.append(' ').append(n).append(' ').append(k).append(','));
        b.setLength(b.length() - 1);
        return b.append("; its batch pod ").append(BatchPods.REAL_NODE_POD).append(' ').append(batchPods.realNodePod()).toString();
    }

    /** A line for each node whose Batch or grants moved by a core or more since last told. */
    private void tellGrantChanges(Map<String, BrokerView.Ledger> ledgers) {
        for (BrokerView.Ledger l : ledgers.values()) {
            BrokerView.Ledger before = lastSeen.get(l.node());
            if (before == null || Math.abs(before.originCpu() - l.originCpu()) >= 1000
                    || Math.abs(before.kubernetesGrantCpu() - l.kubernetesGrantCpu()) >= 1000
                    || Math.abs(before.yarnGrantCpu() - l.yarnGrantCpu()) >= 1000) {
                if (before != null) {
                    narrator.say("   " + describe(l));
                }
                lastSeen.put(l.node(), l);
            }
        }
    }

    private static String describe(BrokerView.Ledger l) {
        return String.format("%s: Batch %.1f cores → Kubernetes grant %.1f (used %.1f), YARN grant %.1f (used %.1f)%s", l.node(),
                l.originCpu() / 1000.0, l.kubernetesGrantCpu() / 1000.0, l.kubernetesUsedCpu() / 1000.0, l.yarnGrantCpu() / 1000.0,
                l.yarnUsedCpu() / 1000.0, l.excessCpu() > 0 ? String.format(", %.1f cores used beyond Batch", l.excessCpu() / 1000.0) : "");
    }

    private static double total(Map<String, BrokerView.Ledger> ledgers, java.util.function.ToLongFunction<BrokerView.Ledger> f) {
        return ledgers.values().stream().mapToLong(f).sum() / 1000.0;
    }

    private static String pct(double share) {
        return Math.round(share * 100) + " %";
    }
}
