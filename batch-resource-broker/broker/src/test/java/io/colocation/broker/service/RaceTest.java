package io.colocation.broker.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.api.ResourceNames;
import io.colocation.broker.ledger.NodeLedger;
import io.colocation.testsupport.Await;
import io.colocation.testsupport.yarn.SimulatedYarnPlugin;
import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.testsupport.kube.KubeApiServerExtension;
import io.colocation.localclusters.zookeeper.LocalZooKeeper;
import io.colocation.testsupport.zookeeper.ZooKeeperExtension;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two schedulers hammer the same nodes while origin moves: a Kubernetes scheduler that binds Batch pods
 * against the node status (fresh read before each bind, as the kube-scheduler fits against its cache)
 * and a YARN scheduler that allocates containers against the grant its plugin applied. A sampler checks
 * every node every 50 ms: use beyond origin is allowed only for use that was already placed when origin
 * fell (what the grants freeze and report as excess), never for new placements; origin is taken as its
 * highest value over the last 2 s, the time a change takes to reach a scheduler. Under {@code partitioned}
 * no sample may break this; under {@code shared} the test measures how often and by how much it happens.
 */
@ExtendWith({KubeApiServerExtension.class, ZooKeeperExtension.class})
class RaceTest {
    private static final String CLUSTER = "yarn-r";
    private static final long GI = 1L << 30;
    private static final Duration RUN = Duration.ofSeconds(15);
    private static final long LAG_MILLIS = 2_000;

    /** What the sampler saw. */
    record Figures(String policy, int samples, int overcommittedSamples, long maxOvercommitMilli, int pods, int containers) {
        @Override
        public String toString() {
            return String.format("%s: %d samples, %d with use placed beyond origin (%.2f %%), max %d milli-cores beyond;"
                    + " %d pods bound, %d containers allocated", policy, samples, overcommittedSamples,
                    100.0 * overcommittedSamples / Math.max(samples, 1), maxOvercommitMilli, pods, containers);
        }
    }

    @Test
    void partitionedNeverPlacesBeyondOriginAndSharedIsMeasured(KubernetesClient client, LocalZooKeeper zk) throws Exception {
        ColocationObjects.installNodeMetricCrd(client, KubeFixtures.CRD);
        Figures partitioned = run(client, zk, "partitioned");
        Figures shared = run(client, zk, "shared");
        System.out.println("race: " + partitioned);
        System.out.println("race: " + shared);
        assertEquals(0, partitioned.overcommittedSamples(), partitioned.toString());
        assertTrue(partitioned.pods() > 10 && partitioned.containers() > 10, "both schedulers placed work: " + partitioned);
        assertTrue(shared.overcommittedSamples() > 0, "shared lets both sides claim the same free Batch: " + shared);
    }

    private Figures run(KubernetesClient client, LocalZooKeeper zk, String policy) throws Exception {
        String test = "race-" + policy;
        String ns = "broker-" + test;
        ColocationObjects.namespace(client, ns);
        ColocationObjects.enableColocation(client, ns, null);
        List<String> nodes = new ArrayList<>();
        List<String> nms = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String node = test + "-" + i;
            nodes.add(node);
            nms.add(node + "-host:8041");
            ColocationObjects.node(client, node, test, 16, 64);
            ColocationObjects.nodeManagerPod(client, ns, node, nms.get(i), CLUSTER);
            ColocationObjects.nodeMetric(client, node, test, 4000, 16 * GI, Instant.now());
        }
        CuratorFramework pluginZk = zk.newClient();
        SimulatedYarnPlugin yarn = new SimulatedYarnPlugin(pluginZk, "/" + test, CLUSTER, Set.copyOf(nms), 200);
        yarn.demand(100, 100 * 1024);
        BrokerConfiguration config = KubeFixtures.config(zk.connectString(), "/" + test, ns, policy);
        config.yarn.clusters.add(KubeFixtures.pluginCluster(CLUSTER));
        Broker broker = new Broker(config, client, Clock.systemUTC());
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger pods = new AtomicInteger();
        AtomicInteger containers = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        int[] samples = {0};
        int[] over = {0};
        long[] maxOver = {0};
        try {
            broker.start();
            assertTrue(broker.leadership().awaitLeadership(Duration.ofSeconds(20)));
            Await.until(Duration.ofSeconds(30), () -> nodes.stream().allMatch(n -> broker.ledger().get(n)
                    .map(l -> l.yarn() != null && l.yarn().acknowledged()).orElse(false)));
            // A pending pod so Kubernetes has demand too.
            KubeFixtures.batchPod(client, ns, "pending", null, 100_000, 100 * GI);

            threads.add(thread("kube-scheduler", () -> kubernetesScheduler(client, ns, nodes, running, pods)));
            threads.add(thread("yarn-scheduler", () -> yarnScheduler(yarn, nms, running, containers)));
            threads.add(thread("online-load", () -> onlineLoad(client, test, nodes, running)));
            Map<String, Deque<long[]>> origins = new HashMap<>();
            Map<String, Long> allowed = new HashMap<>();
            long end = System.currentTimeMillis() + RUN.toMillis();
            while (System.currentTimeMillis() < end) {
                Map<String, Long> kubeUsed = kubernetesUsed(client, ns);
                long now = System.currentTimeMillis();
                for (int i = 0; i < nodes.size(); i++) {
                    NodeLedger l = broker.ledger().get(nodes.get(i)).orElseThrow();
                    Deque<long[]> window = origins.computeIfAbsent(nodes.get(i), n -> new ArrayDeque<>());
                    window.addLast(new long[] {now, l.origin().cpuMilli()});
                    while (window.peekFirst()[0] < now - LAG_MILLIS) {
                        window.removeFirst();
                    }
                    long origin = window.stream().mapToLong(w -> w[1]).max().orElseThrow();
                    long used = kubeUsed.getOrDefault(nodes.get(i), 0L) + yarn.allocated(nms.get(i))[0] * 1000;
                    long previous = allowed.getOrDefault(nodes.get(i), origin);
                    long allow = Math.max(origin, Math.min(previous, used));
                    allowed.put(nodes.get(i), allow);
                    samples[0]++;
                    if (used > allow) {
                        over[0]++;
                        maxOver[0] = Math.max(maxOver[0], used - allow);
                    }
                }
                Thread.sleep(50);
            }
        } finally {
            running.set(false);
            for (Thread t : threads) {
                t.join();
            }
            broker.stop();
            yarn.close();
            pluginZk.close();
            ColocationObjects.cleanUp(client, test, ns);
        }
        return new Figures(policy, samples[0], over[0], maxOver[0], pods.get(), containers.get());
    }

    private static Thread thread(String name, Runnable body) {
        Thread t = new Thread(body, name);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Binds 500 m / 1 Gi pods where the node status leaves room; deletes some to keep things moving. */
    private static void kubernetesScheduler(KubernetesClient client, String ns, List<String> nodes, AtomicBoolean running,
            AtomicInteger bound) {
        Random random = new Random(1);
        int serial = 0;
        while (running.get()) {
            String node = nodes.get(random.nextInt(nodes.size()));
            try {
                long[] allocatable = KubeFixtures.batchAllocatable(client, node);
                long used = kubernetesUsed(client, ns).getOrDefault(node, 0L);
                if (allocatable != null && used + 500 <= allocatable[0]) {
                    KubeFixtures.batchPod(client, ns, "task-" + serial++, node, 500, GI);
                    bound.incrementAndGet();
                } else if (random.nextInt(3) == 0) {
                    List<Pod> onNode = client.pods().inNamespace(ns).withField("spec.nodeName", node).list().getItems().stream()
                            .filter(p -> p.getMetadata().getName().startsWith("task-")).toList();
                    if (!onNode.isEmpty()) {
                        client.pods().inNamespace(ns).withName(onNode.get(random.nextInt(onNode.size())).getMetadata().getName())
                                .withGracePeriod(0).delete();
                    }
                }
                Thread.sleep(10);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // the API server is busy: try again
            }
        }
    }

    /** Allocates 1-vcore / 1 GiB containers within the applied grants; releases some. */
    private static void yarnScheduler(SimulatedYarnPlugin yarn, List<String> nms, AtomicBoolean running, AtomicInteger allocated) {
        Random random = new Random(2);
        while (running.get()) {
            String nm = nms.get(random.nextInt(nms.size()));
            if (yarn.allocate(nm, 1, 1024)) {
                allocated.incrementAndGet();
            } else if (random.nextInt(3) == 0 && yarn.allocated(nm)[0] > 0) {
                yarn.release(nm, 1, 1024);
            }
            yarn.report();
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Moves each node's online usage between 1 and 8 cores every 700 ms. */
    private static void onlineLoad(KubernetesClient client, String test, List<String> nodes, AtomicBoolean running) {
        Random random = new Random(3);
        while (running.get()) {
            String node = nodes.get(random.nextInt(nodes.size()));
            try {
                ColocationObjects.nodeMetric(client, node, test, 1000 + random.nextInt(8) * 1000, 16 * GI, Instant.now());
                Thread.sleep(700);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                // conflict with the previous write: next round
            }
        }
    }

    /** batch-cpu requested per node by the namespace's bound pods, read from the API server. */
    private static Map<String, Long> kubernetesUsed(KubernetesClient client, String ns) {
        Map<String, Long> used = new HashMap<>();
        for (Pod p : client.pods().inNamespace(ns).list().getItems()) {
            String node = p.getSpec().getNodeName();
            if (node == null || node.isEmpty()) {
                continue;
            }
            Quantity q = p.getSpec().getContainers().get(0).getResources().getRequests() == null ? null
                    : p.getSpec().getContainers().get(0).getResources().getRequests().get(ResourceNames.BATCH_CPU);
            used.merge(node, q == null ? 0 : Long.parseLong(q.getAmount()), Long::sum);
        }
        return used;
    }
}
