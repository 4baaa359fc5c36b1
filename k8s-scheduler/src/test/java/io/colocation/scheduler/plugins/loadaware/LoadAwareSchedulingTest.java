package io.colocation.scheduler.plugins.loadaware;

import static io.colocation.scheduler.framework.PluginFixtures.cycle;
import static io.colocation.scheduler.framework.PluginFixtures.metric;
import static io.colocation.scheduler.framework.PluginFixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.colocation.model.slo.NodeMetric;
import io.colocation.scheduler.framework.NodeInfo;
import io.colocation.scheduler.framework.Snapshots;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * LoadAwareScheduling's filter with Koordinator's default arguments (cpu 65 %, memory 95 %, NodeMetrics expire after
 * 180 s). Its scores are checked against Koordinator's own figures through {@code explain} (SchedulerExplainCommandTest).
 */
class LoadAwareSchedulingTest {
    private static final String FRESH = "2026-11-24T09:59:30Z";

    private static NodeMetric usage(String updateTime, String cpu) {
        return metric("""
                metadata: {name: n1}
                spec: {metricCollectPolicy: {reportIntervalSeconds: 60}}
                status:
                  updateTime: "%s"
                  nodeMetric: {nodeUsage: {resources: {cpu: "%s", memory: 1Gi}}}
                """.formatted(updateTime, cpu));
    }

    private static NodeInfo node(NodeMetric metric, String metricError) {
        Node node = Serialization.unmarshal("apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {cpu: \"10\","
                + " memory: 100Gi}}\n", Node.class);
        try {
            return Snapshots.node(node, List.of(), metric, metricError, "Node n1: ");
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("no NodeMetric: not filtered", node(null, null), List.of()),
                Arguments.of("60 % cpu is under 65 %", node(usage(FRESH, "5"), null), List.of()),
                Arguments.of("the pod's estimate counts: 5 + 1.7 cores is 67 %", node(usage(FRESH, "5"), null),
                        List.of("node(s) cpu usage exceed threshold")),
                Arguments.of("70 % cpu exceeds 65 %", node(usage(FRESH, "7"), null), List.of("node(s) cpu usage exceed threshold")),
                Arguments.of("expired after 180 s", node(usage("2026-11-24T09:56:59Z", "1"), null),
                        List.of("node(s) nodeMetric expired")),
                Arguments.of("unreadable: like expired", node(null, "status.nodeMetric has the wrong shape"),
                        List.of(LoadAwareScheduling.UNREADABLE)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void filter(String name, NodeInfo node, List<String> reasons) {
        var pod = name.contains("estimate") ? pod("containers: [{name: c, resources: {requests: {cpu: \"2\"}}}]")
                : pod("containers: [{name: c}]");
        assertEquals(reasons, new LoadAwareScheduling(LoadAwareArgs.defaults()).filter(cycle(node), pod, node).reasons());
    }
}
