package io.colocation.scheduler.plugins.tainttoleration;

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

/** kube-scheduler's TaintToleration filter: NoSchedule and NoExecute must be tolerated, PreferNoSchedule is not a filter. */
class TaintTolerationTest {
    private static final String UNTOLERATED = "node(s) had untolerated taint {dedicated: batch}";

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("no taint", "[]", "[]", List.of()),
                Arguments.of("NoSchedule, no toleration", "[{key: dedicated, value: batch, effect: NoSchedule}]", "[]",
                        List.of(UNTOLERATED)),
                Arguments.of("NoExecute, no toleration", "[{key: dedicated, value: batch, effect: NoExecute}]", "[]",
                        List.of(UNTOLERATED)),
                Arguments.of("PreferNoSchedule is not filtered", "[{key: dedicated, value: batch, effect: PreferNoSchedule}]", "[]",
                        List.of()),
                Arguments.of("Equal with the value", "[{key: dedicated, value: batch, effect: NoSchedule}]",
                        "[{key: dedicated, operator: Equal, value: batch}]", List.of()),
                Arguments.of("Equal with another value", "[{key: dedicated, value: batch, effect: NoSchedule}]",
                        "[{key: dedicated, value: online}]", List.of(UNTOLERATED)),
                Arguments.of("Exists on the key", "[{key: dedicated, value: batch, effect: NoSchedule}]",
                        "[{key: dedicated, operator: Exists}]", List.of()),
                Arguments.of("empty key with Exists tolerates all", "[{key: dedicated, value: batch, effect: NoExecute}]",
                        "[{operator: Exists}]", List.of()),
                Arguments.of("another effect does not tolerate", "[{key: dedicated, value: batch, effect: NoSchedule}]",
                        "[{key: dedicated, operator: Exists, effect: NoExecute}]", List.of(UNTOLERATED)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void filter(String name, String taints, String tolerations, List<String> reasons) {
        NodeInfo node = node("metadata: {name: n1}\nspec: {taints: " + taints + "}\n", List.of(), null);
        var pod = pod("tolerations: " + tolerations + "\ncontainers: [{name: c}]");
        assertEquals(reasons, new TaintToleration().filter(cycle(node), pod, node).reasons());
    }
}
