package io.colocation.sandbox.scenario;

import io.colocation.api.KoordinatorKeys;
import io.colocation.api.ResourceNames;
import io.colocation.localclusters.kube.KubeletNode;
import io.colocation.sandbox.Summary;
import io.colocation.sandbox.parts.ClusterSetup;
import io.colocation.sandbox.parts.SandboxYarn;
import io.colocation.sandbox.parts.SimulatedNodes;
import io.fabric8.kubernetes.api.model.Pod;
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
 * appears on every node, batch pods go to Kubernetes and a MapReduce job to YARN; the online spike (from
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
    static final int BATCH_PODS_PER_NODE = 2;
    /** The batch pod that runs on the real node. */
    static final String REAL_BATCH_POD = "batch-real-node";

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
    private long samples;
    private long overcommit;
    private double nodeUsageSum;
    private double nodeUsagePeak;
    private double batchSum;
    private double batchAtSpike = Double.NaN;
    /** Batch-namespace pods the webhook returned converted (batch resources, the k8s-scheduler). */
    private int podsConverted;
    /** The batch pods submitted, by name, and what became of them (phase; "Evicted" once deleted before the end). */
    private final Map<String, String> batchPods = new java.util.LinkedHashMap<>();
    private double kubernetesPeak;
    private double yarnPeak;
    private double utilisationPeak;

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
                        .withNewResources().addToRequests(Map.of("cpu", milliCores(2000 * s), "memory", mebibytes(4096 * s)))
                        .addToLimits(Map.of("cpu", milliCores(4000 * s), "memory", mebibytes(6144 * s))).endResources().endContainer()
                        .endSpec().build()).create();
            }
        }
        narrator.say("1. online: " + nodes.size() * ONLINE_PODS_PER_NODE + " koord-prod pods (LS, 2 cores / 4 GiB requested each"
                + (realNode == null ? "" : String.format("; on the real node %s, sized to its cores: %s / %s", realNode,
                        milliCores(2000 * realScale), mebibytes(4096 * realScale)))
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
        Quantity cpu = milliCores(1000 * realScale);
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
        return realNode == null ? "" : "; " + REAL_BATCH_POD + " for " + realNode + ": " + milliCores(1000 * realScale) + " / "
                + mebibytes(1024 * realScale);
    }

    private static Quantity milliCores(double m) {
        return new Quantity(Math.round(m) + "m");
    }

    private static Quantity mebibytes(double mi) {
        return new Quantity(Math.round(mi) + "Mi");
    }

    /** Steps 2 to 5; {@code clockStartNanos} is when the koordlets started (the load curves' zero). */
    public Summary play(long clockStartNanos) throws Exception {
        long end = clockStartNanos + duration.toNanos();
        long spikeStart = clockStartNanos + (long) (duration.toNanos() * LoadFiles.SPIKE_START);
        long spikeEnd = clockStartNanos + (long) (duration.toNanos() * LoadFiles.SPIKE_END);
        boolean batchSeen = false;
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
            sample(ledgers, now >= spikeStart && now < spikeEnd);
            if (!batchSeen && ledgers.size() == nodes.size() && ledgers.values().stream().allMatch(l -> l.originCpu() > 0)) {
                batchSeen = true;
                narrator.say("2. Batch on every node, split between Kubernetes and YARN (" + policy + "):");
                ledgers.values().forEach(l -> narrator.say("   " + describe(l)));
                podsSubmitted = submitBatchPods();
                if (yarn != null) {
                    // Maps that last into the spike, where they are preempted, and run again after it.
                    int maps = nodes.size();
                    long mapMillis = Duration.ofNanos(spikeStart - System.nanoTime()).toMillis() + duration.toMillis() * 15 / 100 + 15_000;
                    job = new MapReduceWatch(yarn.submitSleepJob(maps, mapMillis, work.resolve("mapreduce")));
                    narrator.say("3. " + podsSubmitted + " ordinary pods (1 cpu, 1 GiB" + realBatchPodSize() + ") to the batch namespace, " + podsConverted
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
                    narrator.say("3. " + podsSubmitted + " ordinary pods to the batch namespace, " + podsConverted
                            + " turned into batch pods by the ClusterColocationProfile webhook (no YARN in this run)");
                }
                if (sparkKubernetesJob != null) {
                    narrator.say("   and on Kubernetes the Spark driver's executor pods, waiting since before the clock, are placed on "
                            + realNode + "'s grant");
                }
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
            pollBatchPods();
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
                        batchPods("Succeeded"), (job == null ? "" : "; MapReduce " + job.state())
                                + (sparkJob == null ? "" : "; Spark on YARN " + (sparkJob.complete() ? "done" : sparkJob.state()))
                                + (sparkKubernetesJob == null ? "" : "; Spark on Kubernetes "
                                        + (sparkKubernetesJob.complete() ? "done" : sparkKubernetesJob.state()))));
            }
            boolean workDone = batchSeen && batchPods("Succeeded") + batchPods("Failed") + batchPods("Evicted") >= podsSubmitted
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
        return new Summary(policy, nodes.size(), samples == 0 ? 0 : nodeUsageSum / samples, nodeUsagePeak, samples == 0 ? 0 : batchSum / samples,
                Double.isNaN(batchAtSpike) ? 0 : batchAtSpike, kubernetesPeak, yarnPeak, utilisationPeak, overcommit, samples * nodes.size(),
                preempted, batchPods("Evicted"), batchPods("Succeeded"), batchPods("Failed"), podsSubmitted, podsConverted, jobResult, jobOk,
                sparkResult, sparkJob != null && sparkJob.complete() && sparkJob.succeeded(), sparkKubernetesResult,
                sparkKubernetesJob != null && sparkKubernetesJob.complete() && sparkKubernetesJob.succeeded(),
                sparkKubernetesJob == null ? 0 : sparkKubernetesJob.executorsEvicted(), "", "");
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

    /** Each submitted batch pod's phase now; one that is gone before it succeeded was evicted. */
    private void pollBatchPods() {
        if (batchPods.isEmpty()) {
            return;
        }
        Map<String, String> phases = new HashMap<>();
        client.pods().inNamespace(ClusterSetup.BATCH_NAMESPACE).list().getItems()
                .forEach(p -> phases.put(p.getMetadata().getName(), p.getStatus() == null ? "Pending" : p.getStatus().getPhase()));
        batchPods.replaceAll((name, before) -> before.equals("Succeeded") || before.equals("Failed") ? before
                : phases.getOrDefault(name, "Evicted"));
    }

    private int batchPods(String phase) {
        return (int) batchPods.values().stream().filter(phase::equals).count();
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
        String real = batchPods.getOrDefault(REAL_BATCH_POD, "not submitted");
        return b.append("; its batch pod ").append(REAL_BATCH_POD).append(' ').append(real).toString();
    }

    private void sample(Map<String, BrokerView.Ledger> ledgers, boolean inSpike) {
        if (ledgers.isEmpty()) {
            return;
        }
        samples++;
        double nodeUsage = 0;
        double batch = 0;
        double k8s = 0;
        double y = 0;
        for (BrokerView.Ledger l : ledgers.values()) {
            if (l.overcommitCpu() > 0 || l.overcommitMemory() > 0) {
                overcommit++;
            }
            nodeUsage += l.nodeUsageCpu() / 1000.0;
            batch += l.originCpu() / 1000.0;
            k8s += l.kubernetesUsedCpu() / 1000.0;
            y += l.yarnUsedCpu() / 1000.0;
            utilisationPeak = Math.max(utilisationPeak, 100.0 * l.nodeUsageCpu() / (nodeCores * scale(l.node()) * 1000.0));
        }
        nodeUsageSum += nodeUsage;
        nodeUsagePeak = Math.max(nodeUsagePeak, nodeUsage);
        batchSum += batch;
        kubernetesPeak = Math.max(kubernetesPeak, k8s);
        yarnPeak = Math.max(yarnPeak, y);
        if (inSpike) {
            batchAtSpike = Double.isNaN(batchAtSpike) ? batch : Math.min(batchAtSpike, batch);
        }
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

    /**
     * Batch pods for the k8s-scheduler (as many as the nodes' batch-cpu holds now); they run for a third of the scenario
     * once bound. Each is submitted as an ordinary pod (1 cpu, 1 GiB) with the example profile's label, and the webhook
     * turns it into a batch pod; how many came back converted is counted from the stored objects. With a real node, one
     * more, sized to it and selecting it by its hostname label, really burns a core there in the BE tier for that time.
     */
    private int submitBatchPods() {
        Map<String, Long> free = new HashMap<>();
        for (String node : nodes) {
            if (node.equals(realNode)) {
                continue; // it gets its own pod below
            }
            var n = client.nodes().withName(node).get();
            Quantity q = n.getStatus().getAllocatable().get(ResourceNames.BATCH_CPU);
            free.put(node, q == null ? 0 : q.getNumericalAmount().longValue());
        }
        long runSeconds = Math.max(20, duration.toSeconds() / 3);
        for (int i = 0; i < BATCH_PODS_PER_NODE * nodes.size() && !free.isEmpty(); i++) {
            String node = free.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElseThrow();
            if (free.get(node) < 1000) {
                break;
            }
            free.merge(node, -1000L, Long::sum);
            submitBatchPod("batch-" + i, 1.0, null, runSeconds);
        }
        if (realNode != null) {
            submitBatchPod(REAL_BATCH_POD, realScale, realNode, runSeconds);
        }
        return batchPods.size();
    }

    private void submitBatchPod(String name, double scale, String node, long runSeconds) {
        Map<String, Quantity> plainResources = Map.of("cpu", milliCores(1000 * scale), "memory", mebibytes(1024 * scale));
        Pod pod = new PodBuilder().withNewMetadata().withName(name).addToLabels(ClusterSetup.ENABLE_COLOCATION, "true")
                .addToAnnotations(SimulatedNodes.RUN_SECONDS, Long.toString(runSeconds)).endMetadata().withNewSpec()
                .withNodeSelector(node == null ? Map.of() : Map.of("kubernetes.io/hostname", node)).withRestartPolicy("Never")
                .withTerminationGracePeriodSeconds(1L).addNewContainer().withName("job").withImage(KubeletNode.IMAGE).withImagePullPolicy("Never")
                .withCommand("sh", "-c", "/burner 1 64 & sleep " + runSeconds + "; kill $!")
                .withNewResources().addToRequests(plainResources).addToLimits(plainResources).endResources().endContainer().endSpec()
                .build();
        Pod stored = client.pods().inNamespace(ClusterSetup.BATCH_NAMESPACE).resource(pod).create();
        if (K8S_SCHEDULER.equals(stored.getSpec().getSchedulerName())
                && stored.getSpec().getContainers().get(0).getResources().getRequests().containsKey(ResourceNames.BATCH_CPU)) {
            podsConverted++;
        }
        batchPods.put(name, "Pending");
    }

    private static double total(Map<String, BrokerView.Ledger> ledgers, java.util.function.ToLongFunction<BrokerView.Ledger> f) {
        return ledgers.values().stream().mapToLong(f).sum() / 1000.0;
    }

    private static String pct(double share) {
        return Math.round(share * 100) + " %";
    }
}
