package io.colocation.sandbox;

import io.colocation.api.KoordinatorKeys;
import io.colocation.harness.BrokerProcess;
import io.colocation.harness.SchedulerProcess;
import io.colocation.harness.koordlet.KoordletProcess;
import io.colocation.localclusters.LoopbackPorts;
import io.colocation.localclusters.kube.KubeApiServer;
import io.colocation.localclusters.kube.KubeletNode;
import io.colocation.localclusters.process.PartFailedException;
import io.colocation.localclusters.spark.SparkOnKubernetes;
import io.colocation.localclusters.spark.SparkOnYarn;
import io.colocation.localclusters.zookeeper.LocalZooKeeper;
import io.colocation.model.slo.NodeMetric;
import io.colocation.sandbox.parts.ClusterSetup;
import io.colocation.sandbox.parts.HostBestEffortTier;
import io.colocation.sandbox.parts.SandboxYarn;
import io.colocation.sandbox.parts.SimulatedNodes;
import io.colocation.sandbox.scenario.BrokerView;
import io.colocation.sandbox.scenario.LoadFiles;
import io.colocation.sandbox.scenario.Narrator;
import io.colocation.sandbox.scenario.Scenario;
import io.colocation.sandbox.scenario.TeamQuotas;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The whole system on one machine, each part started as a real install runs it, stopped in reverse order. The work
 * directory (logs, kubeconfig, load curves) is removed at the end unless a part failed, when its logs are kept.
 */
public final class Sandbox implements AutoCloseable {
    static final int NODE_CORES = 16;
    static final int NODE_MEMORY_GI = 32;

    private final SandboxOptions options;
    private final Path home;
    private final Narrator narrator;
    private final Path work;
    private final Deque<AutoCloseable> parts = new ArrayDeque<>();
    private boolean keepWork;

    /** @param work an empty directory the sandbox owns (logs in {@code work/logs}) */
    public Sandbox(SandboxOptions options, Path home, Narrator narrator, Path work) {
        this.options = options;
        this.home = home;
        this.narrator = narrator;
        this.work = work;
    }

    public Summary run() throws Exception {
        Path conf = home.resolve("conf");
        Path launcher = home.resolve("bin/colocation");
        Path logs = Files.createDirectories(work.resolve("logs"));
        narrator.say("colocation sandbox: " + options.nodes() + (options.nodes() == 1 ? " node" : " nodes") + ", a " + options.duration().toSeconds() + " s scenario, policy "
                + options.policy() + (options.yarn() ? "" : ", without YARN") + (options.spark() ? "" : ", without Spark") + "; work directory " + work);
        try {
            LocalZooKeeper zk = new LocalZooKeeper();
            parts.push(zk);
            narrator.say("ZooKeeper on " + zk.connectString());

            KubeApiServer api;
            try {
                api = KubeApiServer.start(work.resolve("kube"));
            } catch (IOException | RuntimeException e) {
                throw new PartFailedException("etcd + kube-apiserver", String.valueOf(e.getMessage()), work.resolve("kube"));
            }
            parts.push(api);
            KubernetesClient client = new KubernetesClientBuilder().withConfig(api.clientConfig()).build();
            parts.push(client);
            narrator.say("etcd + kube-apiserver at " + api.url());
            ClusterSetup.apply(client, conf);

            List<String> nodes = new ArrayList<>();
            for (int i = 1; i <= options.nodes(); i++) {
                nodes.add("sandbox-node-" + i);
            }
            // The first node is a real kubelet when this host can run one; its pods and load curve are scaled to its cores.
            String realWhy = !options.realNode() ? "--no-real-node"
                    : options.nodes() < 2 ? "with --nodes 1 it stays simulated (a real node has this host's few cores: too little Batch for"
                            + " the scenario's YARN job on its own)"
                    : KubeletNode.unavailable().orElse(null);
            KubeletNode realNode = null;
            double realScale = 1.0;
            if (realWhy == null) {
                try {
                    realNode = KubeletNode.start(work.resolve("real-node"), api, nodes.get(0));
                } catch (IOException | RuntimeException e) {
                    throw new PartFailedException("the real node (kubelet + containerd)", e.getMessage()
                            + "\n(colocation sandbox --no-real-node runs every node simulated)", null);
                }
                parts.push(realNode);
                double cores = client.nodes().withName(realNode.name()).get().getStatus().getCapacity().get("cpu").getNumericalAmount()
                        .doubleValue();
                realScale = cores / NODE_CORES;
                if (options.spark()) {
                    System.setProperty(SparkOnKubernetes.DIRECTORY_PROPERTY, home.resolve("lib/sandbox/spark-kubernetes").toString());
                    try {
                        SparkOnKubernetes.directory();
                    } catch (IllegalStateException e) {
                        throw new PartFailedException("Spark on Kubernetes", e.getMessage() + "\n(colocation sandbox --no-spark runs without it)", null);
                    }
                }
                narrator.say(String.format("%s is a real node: kubelet v1.20.2 and containerd on this host run its pods; with %.0f cores"
                        + " it gets the standard node's pods and load curve scaled by %.3f", realNode.name(), cores, realScale));
            }
            List<String> simulated = realNode == null ? nodes : nodes.subList(1, nodes.size());
            SimulatedNodes simulator = SimulatedNodes.start(client, simulated, NODE_CORES, NODE_MEMORY_GI);
            parts.push(simulator);
            narrator.say(simulated.size() + (simulated.size() == 1 ? " node" : " nodes") + " registered Ready by simulated kubelets (" + NODE_CORES + " cores, " + NODE_MEMORY_GI
                    + " GiB each)" + (realNode == null ? "; no real node: " + realWhy : ""));

            // The first node's koordlet enforces on this host's real cgroups (its NodeManager's containers are real
            // processes here) in the real node's kubelet-made BE tier, or else in one made here before YARN starts and
            // removed after YARN stopped.
            HostBestEffortTier.Result host = realNode != null ? new HostBestEffortTier.Result(HostBestEffortTier.ofKubelet(Path.of("/sys/fs/cgroup")), null)
                    : HostBestEffortTier.create(Path.of("/sys/fs/cgroup"));
            if (host.tier() != null) {
                parts.push(host.tier());
                narrator.say(nodes.get(0) + "'s koordlet enforces on this host's real cgroups: it places its NodeManager's YARN"
                        + " containers in " + host.tier().describe() + " and suppresses that BE tier");
            } else {
                narrator.say("the koordlets do not touch this host's cgroups: " + host.why());
            }

            SandboxYarn yarn = null;
            List<SandboxYarn.NodeManager> nodeManagers = List.of();
            if (options.yarn()) {
                System.setProperty(io.colocation.localclusters.yarn.MapReduceClasspath.DIRECTORY_PROPERTY, home.resolve("lib/sandbox/mapreduce").toString());
                if (options.sparkOnYarn()) {
                    System.setProperty(SparkOnYarn.DIRECTORY_PROPERTY, home.resolve("lib/sandbox/spark").toString());
                    try {
                        SparkOnYarn.directory();
                    } catch (IllegalStateException e) {
                        throw new PartFailedException("Spark", e.getMessage() + "\n(colocation sandbox --no-spark runs YARN without it)", null);
                    }
                }
                yarn = SandboxYarn.start(conf, nodes.size(), NODE_MEMORY_GI * 1024 / 2, NODE_CORES / 2, zk.connectString(), "/colocation",
                        work.resolve("yarn"));
                parts.push(yarn);
                nodeManagers = yarn.nodeManagers();
                for (int i = 0; i < nodes.size(); i++) {
                    nodeManagerPod(client, nodes.get(i), nodeManagers.get(i).nodeId());
                }
                narrator.say("YARN: a ResourceManager with the scheduler plugin and " + nodes.size()
                        + " NodeManagers with the copilot (conf/hadoop/), one per node");
            }

            int webhookPort = LoopbackPorts.pick();
            ClusterSetup.registerProfileWebhook(client, conf, webhookPort);
            BrokerProcess brokerProcess = BrokerProcess.start(home, api.kubeconfig(), zk.connectString(), options.policy(), List.of(
                    // the scenario's compressed day: a spike's CPU excess is taken back by preemption after 5 s (the
                    // shipped broker leaves CPU to the koordlet and waits 5 minutes), to show the graceful route
                    "-Ddw.arbitration.takeBackAfterSeconds=5", "-Ddw.arbitration.takeBackCpu=true",
                    // the ClusterColocationProfile webhook, called by the API server on loopback
                    "-Ddw.webhook.enabled=true", "-Ddw.webhook.bindHost=127.0.0.1", "-Ddw.webhook.port=" + webhookPort,
                    "-Ddw.webhook.hosts=127.0.0.1", "-Ddw.webhook.validatingConfigurationName="), 256, logs.resolve("broker.log"),
                    Duration.ofSeconds(120));
            parts.push(brokerProcess);
            BrokerView broker = new BrokerView(brokerProcess);
            narrator.say("broker (conf/broker.yml) at " + brokerProcess.url() + "/api/v1/nodes; its webhook converts the batch"
                    + " namespace's pods by conf/" + ClusterSetup.PROFILE);

            Scenario scenario = new Scenario(client, broker, yarn, options.spark(), narrator, nodes, realNode, api.kubeconfig(),
                    realScale, options.duration(), options.policy(), NODE_CORES, work);
            parts.push(scenario);
            scenario.createOnlinePods();
            scenario.submitSparkOnKubernetes(Duration.ofSeconds(120));
            long clock = System.nanoTime();
            for (int i = 0; i < nodes.size(); i++) {
                String node = nodes.get(i);
                Path load = LoadFiles.write(work, node, Scenario.onlinePods(node), options.duration(), i == 0 ? realScale : 1.0);
                List<String> opts = new ArrayList<>(List.of("-Dkoordlet.kubernetes.kubeconfig=" + api.kubeconfig(), "-Dkoordlet.status.port=0",
                        "-Dkoordlet.prediction.checkpointDir=" + work.resolve("checkpoints-" + node),
                        "-Dkoordlet.yarn.copilotUrl=" + (nodeManagers.isEmpty() ? "" : nodeManagers.get(i).copilotUrl()),
                        // the NodeManagers run in this JVM, as whoever runs the sandbox
                        "-Dkoordlet.yarn.nodeManagerUsers=" + System.getProperty("user.name")));
                if (i == 0 && realNode != null) {
                    // the real node's koordlet evicts BE pods starved of CPU in the spike (ClusterSetup's thresholds)
                    opts.add("-Dkoordlet.qos.featureGates=BECPUEvict=true");
                }
                parts.push(KoordletProcess.start(home, node, load, opts, i == 0 && host.tier() != null, logs.resolve("koordlet-" + node + ".log"),
                        Duration.ofSeconds(60), () -> reported(client, node)));
            }
            narrator.say(nodes.size() + " koordlets (conf/koordlet.yml), each replaying its simulated host's load curve, report NodeMetrics");
            // LoadAwareScheduling's CPU threshold at 90 %: here online pods use most of each node by design, and the broker's
            // grant (batch-cpu) is what keeps batch within the reclaimed capacity
            parts.push(SchedulerProcess.start(home, work, api.kubeconfig(), Scenario.K8S_SCHEDULER, "{usageThresholds: {cpu: 90, memory: 95}}",
                    TeamQuotas.ARGS, "", List.of("-Xmx256m"), logs.resolve("k8s-scheduler.log"), Duration.ofSeconds(60), () -> leads(client)));
            narrator.say("k8s-scheduler (" + Scenario.K8S_SCHEDULER + ") leads and places batch pods on the broker's grants, within"
                    + " their teams' ElasticQuotas (" + TeamQuotas.ARGS + ")");
            narrator.plain("""

                      console:   %s/   (drain/undrain with the token %s)
                      kubectl:   kubectl --kubeconfig %s get nodes,pods -A
                      broker:    %s status --broker %s
                                 curl -s %s/api/v1/nodes
                      logs:      %s
                    """.formatted(brokerProcess.url(), brokerProcess.token(), api.kubeconfig(), launcher, brokerProcess.url(),
                    brokerProcess.url(), logs));

            Summary summary = scenario.play(clock).withHost(realNode == null ? "none, every node simulated: " + realWhy : scenario.realNodeReport(),
                    host.tier() == null ? "not used: " + host.why()
                    : nodes.get(0) + ": " + host.tier().containersPlaced() + " YARN containers placed by its koordlet in "
                            + host.tier().describe());
            narrator.plain("\n" + summary.table() + "\n");
            if (options.summaryJson() != null) {
                summary.write(options.summaryJson());
            }
            if (options.keepRunning()) {
                narrator.say("--keep-running: everything stays up until Ctrl-C");
                Thread.currentThread().join();
            }
            return summary;
        } catch (PartFailedException e) {
            keepWork = true;
            throw e;
        }
    }

    /** The k8s-scheduler holds its Lease. */
    private static boolean leads(KubernetesClient client) {
        var lease = client.leases().inNamespace("koordinator-system").withName(Scenario.K8S_SCHEDULER).get();
        return lease != null && lease.getSpec() != null && lease.getSpec().getHolderIdentity() != null
                && !lease.getSpec().getHolderIdentity().isEmpty();
    }

    /** The node's NodeMetric has a status: its koordlet reported. */
    private static boolean reported(KubernetesClient client, String node) {
        NodeMetric nm = client.resources(NodeMetric.class).withName(node).get();
        return nm != null && nm.getStatus() != null && nm.getStatus().updateTime() != null;
    }

    private static void nodeManagerPod(KubernetesClient client, String node, String nodeId) {
        client.pods().inNamespace(ClusterSetup.YARN_NAMESPACE).resource(new io.fabric8.kubernetes.api.model.PodBuilder().withNewMetadata()
                .withName("nodemanager-" + node).addToAnnotations(KoordinatorKeys.ANNOTATION_YARN_NODE_ID, nodeId)
                .addToLabels("app.kubernetes.io/component", "node-manager").addToLabels(KoordinatorKeys.LABEL_QOS_CLASS, "BE").endMetadata()
                .withNewSpec().withNodeName(node).withPriorityClassName("koord-batch").addNewContainer().withName("nodemanager")
                .withImage(KubeletNode.IMAGE).withImagePullPolicy("Never").endContainer().endSpec().build()).create();
    }

    /** A run whose invariants broke keeps its work directory, logs included, as a part that failed does. */
    public void keepWorkDirectory() {
        keepWork = true;
    }

    public Path workDirectory() {
        return work;
    }

    /** Stops every part, newest first; removes the work directory unless a part failed (its logs are kept). */
    @Override
    public void close() {
        while (!parts.isEmpty()) {
            try {
                parts.pop().close();
            } catch (Exception e) {
                narrator.say("stopping a part: " + e.getMessage());
            }
        }
        if (keepWork) {
            narrator.say("logs kept in " + work.resolve("logs") + " (the Spark applications' in " + work.resolve("spark") + " and "
                    + work.resolve("spark-kubernetes") + ")");
            return;
        }
        try (var walk = Files.walk(work)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            narrator.say("could not remove " + work + ": " + e.getMessage());
        }
    }
}
