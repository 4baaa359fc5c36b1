package io.colocation.scheduler.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.colocation.scheduler.config.KubeSchedulerConfiguration;
import io.colocation.scheduler.framework.ClusterSnapshot;
import io.colocation.scheduler.framework.CycleState;
import io.colocation.scheduler.framework.Framework;
import io.colocation.scheduler.framework.Handle;
import io.colocation.scheduler.framework.NodeInfo;
import io.colocation.scheduler.framework.NodeSearch;
import io.colocation.scheduler.framework.PodInfo;
import io.colocation.scheduler.framework.Profile;
import io.colocation.scheduler.framework.Snapshots;
import io.colocation.scheduler.framework.WaitingPods;
import io.colocation.scheduler.plugins.elasticquota.ElasticQuota;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * What the ElasticQuota plugin costs the scheduling cycle (dev/bench-elastic-quota.sh), in one JVM: a cluster of
 * {@code bench.nodes} nodes, {@code bench.quotas} quotas in a 3-level tree (orgs, departments, teams) and
 * {@code bench.pending} pending pods charged to the teams. The same pods go through the default profile and the same
 * profile with ElasticQuota at PreFilter and Reserve, two of each (made A B B A, each on a snapshot of its own), runs
 * rotated round by round; the thread's CPU time per cycle is compared, and each pair's own spread printed beside (each
 * cycle reserves and then unreserves, so every run sees the same cluster). Then the cost of what makes the plugin update
 * the tree: one quota's min changed, and one new pod arriving, each timed up to the plugin's next PreFilter answer.
 * In the test suite it runs a tenth of the size (1,000 nodes, 2,000 pods, 500 cycles, 2 rounds), for its assertions;
 * the script gives the measured size.
 */
class ElasticQuotaCostBenchmark {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final String BATCH_CPU = "kubernetes.io/batch-cpu";
    private static final String BATCH_MEMORY = "kubernetes.io/batch-memory";
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    /** The plugins' view of a cluster that exists only in this JVM: pods replayed to listeners, quotas with a version. */
    private static final class BenchHandle implements Handle, Framework.Assumption {
        final List<PodListener> listeners = new ArrayList<>();
        final Map<String, GenericKubernetesResource> quotas = new LinkedHashMap<>();
        long quotaVersion = 1;

        @Override
        public KubernetesClient client() {
            return null;
        }

        @Override
        public boolean writeToken() {
            return true;
        }

        @Override
        public PodIndex podIndex(String name, Function<Pod, String> keyOf) {
            return key -> List.of();
        }

        @Override
        public boolean assumed(String podKey) {
            return false;
        }

        @Override
        public GenericKubernetesResource podGroup(String namespace, String name) {
            return null;
        }

        @Override
        public WaitingPods waitingPods() {
            return new WaitingPods() {
                @Override
                public List<Waiting> list() {
                    return List.of();
                }

                @Override
                public boolean allow(String podKey) {
                    return false;
                }

                @Override
                public boolean reject(String podKey, String reason) {
                    return false;
                }
            };
        }

        @Override
        public void watchPods(PodListener listener) {
            listeners.add(listener);
        }

        @Override
        public ElasticQuotas elasticQuotas() {
            return new ElasticQuotas() {
                @Override
                public long version() {
                    return quotaVersion;
                }

                @Override
                public Collection<GenericKubernetesResource> objects() {
                    return quotas.values();
                }
            };
        }

        @Override
        public void assume(PodInfo pod, String node) {
        }

        @Override
        public void forget(PodInfo pod) {
        }
    }

    private static long resourceVersion;

    private static GenericKubernetesResource quota(String name, String parent, boolean isParent, long minCores, long maxCores) {
        Map<String, String> labels = new HashMap<>();
        if (parent != null) {
            labels.put("quota.scheduling.koordinator.sh/parent", parent);
        }
        if (isParent) {
            labels.put("quota.scheduling.koordinator.sh/is-parent", "true");
        }
        return new GenericKubernetesResourceBuilder().withApiVersion("scheduling.sigs.k8s.io/v1alpha1").withKind("ElasticQuota")
                .withNewMetadata().withName(name).withNamespace(name).withLabels(labels).withResourceVersion(String.valueOf(++resourceVersion))
                .endMetadata()
                .addToAdditionalProperties("spec", Map.of(
                        "min", Map.of(BATCH_CPU, String.valueOf(minCores * 1000), BATCH_MEMORY, minCores * 4 + "Gi"),
                        "max", Map.of(BATCH_CPU, String.valueOf(maxCores * 1000), BATCH_MEMORY, maxCores * 4 + "Gi")))
                .build();
    }

    private static Pod pod(String namespace, String name) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace(namespace).withUid(namespace + "-" + name).endMetadata()
                .withNewSpec().withSchedulerName("koord-scheduler").addNewContainer().withName("c").withImage("x").withNewResources()
                .withRequests(Map.of(BATCH_CPU, new Quantity("1000"), BATCH_MEMORY, new Quantity("2Gi"))).endResources().endContainer()
                .endSpec().build();
    }

    private static Profile profile(boolean withQuota, Handle handle) throws Exception {
        String plugins = withQuota ? """
                  plugins:
                    preFilter: {enabled: [{name: ElasticQuota}]}
                    reserve: {enabled: [{name: ElasticQuota}]}
                """ : "";
        return KubeSchedulerConfiguration.parse(YAML.readTree("""
                apiVersion: kubescheduler.config.k8s.io/v1
                kind: KubeSchedulerConfiguration
                profiles:
                - schedulerName: koord-scheduler
                """ + plugins), "bench", handle).profiles().get(0);
    }

    @Test
    void theQuotaPluginsCostBesideTheCycleWithoutIt() throws Exception {
        int nodes = Integer.getInteger("bench.nodes", 1_000);
        int orgs = 10;
        int departments = 9; // per org
        int teams = Integer.getInteger("bench.quotas", 1_000) / orgs / departments - 1; // per department, so the total is bench.quotas
        int pending = Integer.getInteger("bench.pending", 2_000);
        int cycles = Integer.getInteger("bench.cycles", 500);
        int rounds = Integer.getInteger("bench.rounds", 2);

        List<Node> cluster = new ArrayList<>(nodes);
        for (int i = 0; i < nodes; i++) {
            cluster.add(new NodeBuilder().withNewMetadata().withName(String.format("node-%05d", i)).endMetadata().withNewStatus()
                    .withAllocatable(Map.of("cpu", new Quantity("32"), "memory", new Quantity("128Gi"), "pods", new Quantity("110"),
                            BATCH_CPU, new Quantity("20000"), BATCH_MEMORY, new Quantity("64Gi")))
                    .addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus().build());
        }
        // A snapshot of its own for each profile: a node keeps the first plugin's derived value in its own fields and any
        // other's one load further, so profiles sharing nodes would be measured unequally (by up to 1.4 here).
        List<ClusterSnapshot> snapshots = new ArrayList<>();
        for (int f = 0; f < 4; f++) {
            snapshots.add(snapshot(cluster));
        }
        ClusterSnapshot snapshot = snapshots.get(1); // the first profile with the plugin's

        BenchHandle handle = new BenchHandle();
        List<String> leaves = new ArrayList<>();
        for (int o = 0; o < orgs; o++) {
            String org = "org-" + o;
            handle.quotas.put(org, quota(org, null, true, (long) departments * teams * 150, 100_000));
            for (int d = 0; d < departments; d++) {
                String dept = org + "-dept-" + d;
                handle.quotas.put(dept, quota(dept, org, true, teams * 150L, 10_000));
                for (int t = 0; t < teams; t++) {
                    String team = dept + "-team-" + t;
                    handle.quotas.put(team, quota(team, dept, false, 150, 1_000));
                    leaves.add(team);
                }
            }
        }
        // Two of each, made in the order A B B A, each pair's spread printed beside the ratio: what the harness itself varies.
        Profile plainFirst = profile(false, handle);
        Profile quota = profile(true, handle);
        Profile quotaSecond = profile(true, handle);
        Profile plainSecond = profile(false, handle);
        ElasticQuota plugin = (ElasticQuota) quota.plugins().stream().filter(p -> p instanceof ElasticQuota).findFirst().orElseThrow();
        List<PodInfo> pods = new ArrayList<>(pending);
        for (int i = 0; i < pending; i++) {
            Pod p = pod(leaves.get(i % leaves.size()), "pod-" + i);
            handle.listeners.forEach(l -> l.changed(p));
            pods.add(Snapshots.pod(p, snapshot.now(), "bench pod " + i));
        }
        System.out.printf("ElasticQuota's cost: %,d nodes, %,d quotas (%d orgs, %d departments, %d teams), %,d pending pods; %,d"
                + " cycles a run, %d rounds of 4 runs (two profiles without the plugin, two with, made A B B A)%n", nodes,
                handle.quotas.size(), orgs, orgs * departments, leaves.size(), pending, cycles, rounds);

        List<Framework> frameworks = List.of(new Framework(plainFirst), new Framework(quota), new Framework(quotaSecond),
                new Framework(plainSecond));
        List<NodeSearch> searches = List.of(new NodeSearch(), new NodeSearch(), new NodeSearch(), new NodeSearch());
        for (int w = 0; w < 3; w++) { // warm-up of all: the JIT compiles every path before anything is measured
            for (int f = 0; f < 4; f++) {
                cycles(frameworks.get(f), searches.get(f), snapshots.get(f), pods, cycles, handle);
            }
        }
        double[][] ms = new double[4][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < 4; k++) { // each goes first in every fourth round: none always follows another's garbage
                int f = (r + k) % 4;
                ms[f][r] = cycles(frameworks.get(f), searches.get(f), snapshots.get(f), pods, cycles, handle);
            }
            System.out.printf("  round %d  CPU ms per cycle: without %.4f %.4f, with ElasticQuota %.4f %.4f%n", r + 1, ms[0][r], ms[3][r],
                    ms[1][r], ms[2][r]);
        }
        double[] plainMs = concat(ms[0], ms[3]);
        double[] quotaMs = concat(ms[1], ms[2]);
        double ratio = median(quotaMs) / median(plainMs);
        // The plugin's own calls of a cycle (PreFilter, Reserve, Unreserve), on the same pods and node.
        double[] ownMs = new double[rounds];
        String node = snapshot.nodes().get(0).name();
        for (int r = 0; r < rounds; r++) {
            long t0 = CPU.getCurrentThreadCpuTime();
            for (int i = 0; i < cycles; i++) {
                PodInfo pod = pods.get(i % pods.size());
                CycleState state = new CycleState(snapshot);
                assertTrue(plugin.preFilter(state, pod).success());
                plugin.reserve(state, pod, node);
                plugin.unreserve(state, pod, node);
            }
            ownMs[r] = (CPU.getCurrentThreadCpuTime() - t0) / 1e6 / cycles;
        }

        // One quota's min changes: the next PreFilter reads that object again and updates the tree where the change
        // reaches. One pod arrives: its quota's request changes, the tree is updated along its path. A first pass of each
        // is the JIT's warm-up; the second is measured.
        int changes = Integer.getInteger("bench.changes", 500);
        Map<String, Long> total = snapshot.order().allocatableTotal();
        double[] changeMs = new double[changes];
        double[] arrivalMs = new double[changes];
        for (int pass = 0; pass < 2; pass++) {
            for (int i = 0; i < changes; i++) {
                String team = leaves.get(i % leaves.size());
                handle.quotas.put(team, quota(team, team.substring(0, team.indexOf("-team-")), false, 100 + (i + pass) % 50, 1_000));
                handle.quotaVersion++;
                long t0 = CPU.getCurrentThreadCpuTime();
                assertTrue(plugin.preFilter(new CycleState(snapshot), pods.get(i)).success());
                changeMs[i] = (CPU.getCurrentThreadCpuTime() - t0) / 1e6;
            }
            for (int i = 0; i < changes; i++) {
                Pod p = pod(leaves.get(i % leaves.size()), "arrival-" + pass + "-" + i);
                handle.listeners.forEach(l -> l.changed(p));
                long t0 = CPU.getCurrentThreadCpuTime();
                assertTrue(plugin.preFilter(new CycleState(snapshot), pods.get(i)).success());
                arrivalMs[i] = (CPU.getCurrentThreadCpuTime() - t0) / 1e6;
            }
        }
        System.out.printf("%nCPU ms per scheduling cycle (median of %d runs each): without ElasticQuota %.4f, with %.4f, ratio %.2f"
                + " (two identical profiles differ by %.2f without, %.2f with)%n", 2 * rounds, median(plainMs), median(quotaMs), ratio,
                spread(ms[0], ms[3]), spread(ms[1], ms[2]));
        System.out.printf("the plugin's own PreFilter + Reserve + Unreserve per cycle: %.4f ms (%.0f %% of the cycle without it)%n",
                median(ownMs), 100 * median(ownMs) / median(plainMs));
        System.out.printf("one quota's min changed, up to the next PreFilter's answer: median %.2f ms, p99 %.2f ms (%d changes)%n",
                median(changeMs), percentile(changeMs, 0.99), changes);
        System.out.printf("one pod arrived, up to the next PreFilter's answer: median %.2f ms, p99 %.2f ms (%d arrivals)%n",
                median(arrivalMs), percentile(arrivalMs, 0.99), changes);
        assertTrue(plugin.view(total).runtime().entries().size() > handle.quotas.size(), "the tree holds every quota and the built-ins");
    }

    /** CPU ms of this thread per scheduling cycle over {@code count} pods, each reserved and then unreserved. */
    private static double cycles(Framework framework, NodeSearch search, ClusterSnapshot snapshot, List<PodInfo> pods, int count,
            BenchHandle handle) {
        Framework.NodeSelector selector = framework.searching(search);
        long t0 = CPU.getCurrentThreadCpuTime();
        int placed = 0;
        for (int i = 0; i < count; i++) {
            PodInfo pod = pods.get(i % pods.size());
            CycleState state = new CycleState(snapshot);
            Framework.CycleResult r = framework.schedulingCycle(state, pod, selector, handle);
            if (r.reserved()) {
                framework.unreserve(state, pod, r.node(), handle);
                placed++;
            }
        }
        double ms = (CPU.getCurrentThreadCpuTime() - t0) / 1e6 / count;
        assertTrue(placed == count, "every cycle finds a node: " + placed + " of " + count);
        return ms;
    }

    private static ClusterSnapshot snapshot(List<Node> cluster) throws Exception {
        List<NodeInfo> infos = new ArrayList<>(cluster.size());
        for (Node n : cluster) {
            infos.add(Snapshots.node(n, List.of(), null, "bench node " + n.getMetadata().getName()));
        }
        return new ClusterSnapshot(infos, Instant.now());
    }

    private static double[] concat(double[] a, double[] b) {
        double[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** The ratio of the larger median to the smaller: what two runs of the same thing differ by here. */
    private static double spread(double[] a, double[] b) {
        return Math.max(median(a), median(b)) / Math.min(median(a), median(b));
    }

    private static double median(double[] v) {
        return percentile(v, 0.5);
    }

    private static double percentile(double[] values, double p) {
        double[] v = values.clone();
        Arrays.sort(v);
        return v[Math.min(v.length - 1, (int) Math.floor(p * (v.length - 1) + 0.5))];
    }
}
