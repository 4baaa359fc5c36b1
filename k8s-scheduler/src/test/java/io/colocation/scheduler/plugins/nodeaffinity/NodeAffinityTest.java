package io.colocation.scheduler.plugins.nodeaffinity;

import static io.colocation.scheduler.framework.PluginFixtures.cycle;
import static io.colocation.scheduler.framework.PluginFixtures.node;
import static io.colocation.scheduler.framework.PluginFixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.colocation.scheduler.framework.NodeInfo;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** kube-scheduler's NodeAffinity filter: nodeSelector, then required terms (ORed) of expressions (ANDed). */
class NodeAffinityTest {
    private static final NodeInfo NODE = node("metadata: {name: n1, labels: {zone: a, cores: \"16\"}}\n", List.of(), null);

    private static String required(String terms) {
        return "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: " + terms + "}}}";
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("no constraint", "", true),
                Arguments.of("nodeSelector matches", "nodeSelector: {zone: a}", true),
                Arguments.of("nodeSelector misses", "nodeSelector: {zone: b}", false),
                Arguments.of("In", required("[{matchExpressions: [{key: zone, operator: In, values: [a, b]}]}]"), true),
                Arguments.of("NotIn", required("[{matchExpressions: [{key: zone, operator: NotIn, values: [a]}]}]"), false),
                Arguments.of("Exists", required("[{matchExpressions: [{key: zone, operator: Exists}]}]"), true),
                Arguments.of("DoesNotExist", required("[{matchExpressions: [{key: gpu, operator: DoesNotExist}]}]"), true),
                Arguments.of("Gt", required("[{matchExpressions: [{key: cores, operator: Gt, values: [\"8\"]}]}]"), true),
                Arguments.of("Lt", required("[{matchExpressions: [{key: cores, operator: Lt, values: [\"8\"]}]}]"), false),
                Arguments.of("expressions are ANDed", required(
                        "[{matchExpressions: [{key: zone, operator: In, values: [a]}, {key: gpu, operator: Exists}]}]"), false),
                Arguments.of("terms are ORed", required(
                        "[{matchExpressions: [{key: gpu, operator: Exists}]}, {matchExpressions: [{key: zone, operator: In, values: [a]}]}]"),
                        true),
                Arguments.of("metadata.name field", required("[{matchFields: [{key: metadata.name, operator: In, values: [n1]}]}]"), true),
                Arguments.of("an empty term matches nothing", required("[{}]"), false),
                Arguments.of("no operator matches nothing", required("[{matchExpressions: [{key: zone, values: [a]}]}]"), false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void filter(String name, String spec, boolean fits) {
        var pod = pod(spec + "\ncontainers: [{name: c}]");
        assertEquals(fits ? List.of() : List.of(NodeAffinity.REASON), new NodeAffinity().filter(cycle(NODE), pod, NODE).reasons());
    }
}
