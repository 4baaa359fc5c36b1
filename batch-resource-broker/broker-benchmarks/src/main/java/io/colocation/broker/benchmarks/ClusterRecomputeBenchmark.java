package io.colocation.broker.benchmarks;

import io.colocation.api.PriorityClass;
import io.colocation.api.QoSClass;
import io.colocation.broker.calculation.NodeMetricState;
import io.colocation.broker.calculation.NodeReclaim;
import io.colocation.broker.calculation.NodeResourceCalculator;
import io.colocation.broker.calculation.NodeState;
import io.colocation.broker.calculation.PodState;
import io.colocation.model.Resources;
import io.colocation.model.config.ColocationConfigParser;
import io.colocation.model.config.ColocationStrategy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Recomputing Batch and Mid for a whole cluster: 10,000 nodes with 60 pods each (a mix of prod, mid,
 * batch and LSE pods, a few without metrics, a few dangling metrics), every node's full pipeline
 * (strategy, batch, mid, prepare with YARN allocations subtracted).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ClusterRecomputeBenchmark {
    private static final long G = 1_000_000_000L;

    @Param({"10000"})
    int nodes;

    @Param({"60"})
    int podsPerNode;

    private List<NodeState> nodeStates;
    private List<NodeMetricState> metrics;
    private ColocationStrategy strategy;
    private final Instant now = Instant.parse("2026-11-21T08:05:00Z");

    @Setup
    public void setUp() throws Exception {
        strategy = ColocationConfigParser.parse("{\"enable\": true, \"cpuReclaimThresholdPercent\": 65,"
                + " \"memoryCalculatePolicy\": \"maxUsageRequest\", \"midUnallocatedPercent\": 20}", "benchmark").cluster();
        SplittableRandom random = new SplittableRandom(42);
        nodeStates = new ArrayList<>(nodes);
        metrics = new ArrayList<>(nodes);
        PriorityClass[] priorities = {PriorityClass.PROD, PriorityClass.PROD, PriorityClass.MID, PriorityClass.BATCH};
        for (int n = 0; n < nodes; n++) {
            List<PodState> pods = new ArrayList<>(podsPerNode);
            List<NodeMetricState.PodUsage> usages = new ArrayList<>(podsPerNode + 2);
            for (int p = 0; p < podsPerNode; p++) {
                String name = "pod-" + n + "-" + p;
                PriorityClass priority = priorities[random.nextInt(priorities.length)];
                QoSClass qos = priority == PriorityClass.BATCH ? QoSClass.BE : (p % 17 == 0 ? QoSClass.LSE : QoSClass.LS);
                Resources request = new Resources(100 + random.nextInt(2_000), (1 + random.nextInt(4)) * G);
                pods.add(new PodState("ns-" + (p % 7), name, true, priority, qos, request));
                if (p % 13 != 0) { // every 13th pod has no metric yet
                    usages.add(new NodeMetricState.PodUsage("ns-" + (p % 7), name,
                            new Resources(request.cpuMilli() / 2 + random.nextInt(500), request.memoryBytes() / 2), priority));
                }
            }
            usages.add(new NodeMetricState.PodUsage("gone", "deleted-" + n, new Resources(300, G), PriorityClass.PROD));
            nodeStates.add(new NodeState("node-" + n, new Resources(96_000, 384 * G), new Resources(94_000, 376 * G),
                    Resources.ZERO, null, new Resources(8_000, 16 * G), pods));
            metrics.add(new NodeMetricState(now.minusSeconds(60), new Resources(40_000, 200 * G), new Resources(2_000, 8 * G),
                    usages, List.of(), new Resources(20_000, 60 * G)));
        }
    }

    @Benchmark
    public void recomputeWholeCluster(Blackhole bh) {
        for (int i = 0; i < nodeStates.size(); i++) {
            NodeReclaim reclaim = NodeResourceCalculator.calculate(strategy, nodeStates.get(i), metrics.get(i), now);
            bh.consume(reclaim);
        }
    }
}
