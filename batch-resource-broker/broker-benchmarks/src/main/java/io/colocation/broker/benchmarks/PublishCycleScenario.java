package io.colocation.broker.benchmarks;

import io.colocation.api.yarn.YarnGrant;
import io.colocation.broker.ledger.NodeLedger;
import io.colocation.broker.service.Broker;
import io.colocation.broker.service.BrokerConfiguration;
import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.localclusters.kube.KubeApiServer;
import io.colocation.testsupport.yarn.SimulatedYarnPlugin;
import io.colocation.localclusters.zookeeper.LocalZooKeeper;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.curator.framework.CuratorFramework;

/**
 * The broker's full recompute-and-publish cycle at scale, against a real kube-apiserver + etcd and a real
 * ZooKeeper, with the YARN plugin's side simulated (it acknowledges every grant): N nodes, each with a
 * NodeManager pod and a NodeMetric. Measures (1) the first publication of every node to both sides, (2)
 * for single NodeMetric changes, the time from the NodeMetric write until both sides hold the node's new
 * grants (node status written, YARN grant acknowledged), p50/p99, and (3) the duration of the pass that
 * published a change and of the full passes meanwhile.
 * Run: dev/bench-broker-publish.sh [--nodes=N] [--changes=M]
 */
public final class PublishCycleScenario {
    private static final long GI = 1L << 30;
    private static final String OWNER = "publish-cycle";
    private static final long STALL_NANOS = 120_000_000_000L;

    public static void main(String[] args) throws Exception {
        int nodes = 1000;
        int changes = 200;
        long syncIntervalMs = new BrokerConfiguration().sync.intervalMs;
        Path repo = Path.of(System.getProperty("colocation.repo", "../.."));
        // Maven's exec plugin hands all scenario arguments over as one string.
        for (String a : String.join(" ", args).trim().split("\\s+")) {
            if (a.startsWith("--nodes=")) {
                nodes = Integer.parseInt(a.substring(8));
            } else if (a.startsWith("--changes=")) {
                changes = Integer.parseInt(a.substring(10));
            } else if (a.startsWith("--sync-interval-ms=")) {
                syncIntervalMs = Long.parseLong(a.substring(19));
            } else if (!a.isBlank()) {
                throw new IllegalArgumentException("unknown argument " + a + " (use --nodes=N --changes=M --sync-interval-ms=T)");
            }
        }
        Path work = Files.createTempDirectory("publish-cycle");
        int status = 0;
        try (KubeApiServer apiServer = KubeApiServer.start(work);
                LocalZooKeeper zk = new LocalZooKeeper();
                KubernetesClient client = apiServer.newClient()) {
            run(client, zk, repo, nodes, changes, syncIntervalMs);
        } catch (IllegalStateException e) {
            System.out.println("FAILED: " + e.getMessage());
            status = 1;
        }
        // the broker's and Curator's threads would keep the JVM alive
        System.exit(status);
    }

    private static void run(KubernetesClient client, LocalZooKeeper zk, Path repo, int nodeCount, int changes, long syncIntervalMs)
            throws Exception {
        ColocationObjects.installNodeMetricCrd(client, repo.resolve("conf/kubernetes/crds/slo.koordinator.sh_nodemetrics.yaml"));
        String ns = "bench";
        ColocationObjects.namespace(client, ns);
        ColocationObjects.enableColocation(client, ns, null);
        List<String> names = new ArrayList<>();
        List<String> nms = new ArrayList<>();
        for (int i = 0; i < nodeCount; i++) {
            names.add(String.format("bench-node-%04d", i));
            nms.add(String.format("bench-host-%04d:8041", i));
        }
        long setupStart = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<?>> created = new ArrayList<>();
        for (int i = 0; i < nodeCount; i++) {
            int n = i;
            created.add(pool.submit(() -> {
                ColocationObjects.node(client, names.get(n), OWNER, 16, 64);
                ColocationObjects.nodeManagerPod(client, ns, names.get(n), nms.get(n), "bench");
                ColocationObjects.nodeMetric(client, names.get(n), OWNER, 4000, 16 * GI, Instant.now());
                return null;
            }));
        }
        for (Future<?> f : created) {
            f.get();
        }
        pool.shutdown();
        System.out.printf("setup: %d nodes, NodeManager pods and NodeMetrics created in %.1f s%n", nodeCount,
                (System.nanoTime() - setupStart) / 1e9);

        CuratorFramework pluginZk = zk.newClient();
        // Every node's report every 5 s: the real plugin's report.refresh-ms (it writes sooner only on a change).
        SimulatedYarnPlugin yarn = new SimulatedYarnPlugin(pluginZk, "/bench", "bench", new HashSet<>(nms), 5000);
        BrokerConfiguration config = new BrokerConfiguration();
        config.zookeeper.connect = zk.connectString();
        config.zookeeper.root = "/bench";
        config.kubernetes.sloConfigNamespace = ns;
        BrokerConfiguration.YarnClusterSettings cluster = new BrokerConfiguration.YarnClusterSettings();
        cluster.id = "bench";
        config.yarn.clusters.add(cluster);
        config.yarn.matchHostNames = false;
        config.sync.intervalMs = syncIntervalMs;
        Broker broker = new Broker(config, client, Clock.systemUTC());
        long start = System.nanoTime();
        broker.start();
        while (!names.stream().allMatch(n -> settled(broker, n))) {
            Thread.sleep(20);
        }
        System.out.printf("first publication: all %d nodes published to Kubernetes and acknowledged by YARN %.1f s after"
                + " the broker started (%d Kubernetes writes, %d YARN grants)%n", nodeCount, (System.nanoTime() - start) / 1e9,
                broker.reconciler().stats().kubernetesWrites.get(), broker.reconciler().stats().yarnWrites.get());

        Random random = new Random(42);
        long[] latencies = new long[changes];
        long[] passes = new long[changes];
        long[] fullPasses = new long[changes];
        List<List<String>> waits = new ArrayList<>();
        for (int i = 0; i < changes; i++) {
            String node = names.get(random.nextInt(nodeCount));
            NodeLedger before = broker.ledger().get(node).orElseThrow();
            long origin = before.origin().cpuMilli();
            long usage = origin == 5600 ? 6000 : 4000; // origin 5600 m <-> 3600 m
            long expected = origin == 5600 ? 3600 : 5600;
            String nm = nms.get(names.indexOf(node));
            long yarnVersion = yarn.applied(nm).version();
            long t0 = System.nanoTime();
            ColocationObjects.nodeMetric(client, node, OWNER, usage, 16 * GI, Instant.now());
            // Both sides hold the node's new grants: a node status write newer than the one before the change was
            // accepted (the ledger records it in the pass that wrote it) and YARN applied the grant the ledger holds, a
            // newer one when it changed (a YARN grant whose target moved within the hysteresis stays as it is: sticky
            // grants, no write). Publications are told apart by identity, not time: a publication carries the time its
            // pass started, which at 5,000 nodes can be before the NodeMetric write the pass went on to see.
            List<String> seen = new ArrayList<>();
            while (!published(broker, yarn, node, nm, expected, before, yarnVersion)) {
                String state = waitState(broker, yarn, node, nm);
                if (seen.isEmpty() || !seen.get(seen.size() - 1).endsWith(state)) {
                    seen.add(String.format("+%d ms %s", (System.nanoTime() - t0) / 1_000_000, state));
                }
                if (System.nanoTime() - t0 > STALL_NANOS) {
                    // A change that never settles is a finding, not a number: say what the broker held meanwhile.
                    throw new IllegalStateException(String.format("change %d on %s (origin %d m expected, YARN grant before %s,"
                            + " version %d) not published to both sides after %d s; what the wait saw:%n  %s%nledger %s", i, node,
                            expected, before.yarnGrant(), yarnVersion, STALL_NANOS / 1_000_000_000L, String.join("\n  ", seen),
                            broker.ledger().get(node).orElseThrow()));
                }
                Thread.sleep(1);
            }
            latencies[i] = (System.nanoTime() - t0) / 1_000_000;
            seen.add(String.format("+%d ms published (%s)", latencies[i], node));
            waits.add(seen);
            passes[i] = broker.reconciler().stats().lastPassMillis;
            fullPasses[i] = broker.reconciler().stats().lastFullPassMillis;
        }
        // The slowest changes step by step: which side the wait was on, and for how long.
        Integer[] order = new Integer[changes];
        for (int i = 0; i < changes; i++) {
            order[i] = i;
        }
        long[] unsorted = latencies.clone();
        Arrays.sort(order, (a, b) -> Long.compare(unsorted[b], unsorted[a]));
        for (int k = 0; k < Math.min(3, changes); k++) {
            System.out.printf("slow change %d:%n  %s%n", order[k], String.join("\n  ", waits.get(order[k])));
        }
        Arrays.sort(latencies);
        Arrays.sort(passes);
        Arrays.sort(fullPasses);
        System.out.printf("NodeMetric change -> both sides published, %d changes over %d nodes: p50 %d ms, p99 %d ms, max %d ms%n",
                changes, nodeCount, latencies[changes / 2], latencies[(int) Math.ceil(changes * 0.99) - 1], latencies[changes - 1]);
        System.out.printf("pass that published a change (only the changed nodes decided): p50 %d ms, p99 %d ms%n",
                passes[changes / 2], passes[(int) Math.ceil(changes * 0.99) - 1]);
        System.out.printf("full pass (every %d nodes decided, the safety net every sync.intervalMs = %d; in slices of"
                + " sync.fullPassSliceNodes with the changes between them, first slice to last): p50 %d ms, p99 %d ms%n", nodeCount,
                syncIntervalMs,
                fullPasses[changes / 2], fullPasses[(int) Math.ceil(changes * 0.99) - 1]);
        broker.stop();
        yarn.close();
        pluginZk.close();
    }

    private static boolean settled(Broker broker, String node) {
        NodeLedger l = broker.ledger().get(node).orElse(null);
        return l != null && l.yarn() != null && l.yarn().acknowledged() && l.kubernetesGrant().equals(l.kubernetesTarget())
                && l.yarnGrant().cpuMilli() == l.yarnTarget().cpuMilli() / 1000 * 1000 && l.lastKubernetesPublication() != null
                && l.lastKubernetesPublication().error() == null;
    }

    private static String waitState(Broker broker, SimulatedYarnPlugin yarn, String node, String nm) {
        NodeLedger l = broker.ledger().get(node).orElseThrow();
        return String.format("origin %d, k8s grant %d published %s, YARN grant %s published %s, applied %s", l.origin().cpuMilli(),
                l.kubernetesGrant().cpuMilli(), l.lastKubernetesPublication().at(), l.yarnGrant(),
                l.lastYarnPublication() == null ? null : l.lastYarnPublication().at(), yarn.applied(nm));
    }

    private static boolean published(Broker broker, SimulatedYarnPlugin yarn, String node, String nm, long expectedOrigin,
            NodeLedger before, long yarnVersionBefore) {
        NodeLedger l = broker.ledger().get(node).orElseThrow();
        if (l.origin().cpuMilli() != expectedOrigin || l.lastKubernetesPublication() == before.lastKubernetesPublication()) {
            return false;
        }
        YarnGrant applied = yarn.applied(nm);
        boolean yarnMoved = !l.yarnGrant().equals(before.yarnGrant());
        return applied.vcores() * 1000L == l.yarnGrant().cpuMilli() && (!yarnMoved || applied.version() > yarnVersionBefore
                && l.lastYarnPublication() != before.lastYarnPublication());
    }
}
