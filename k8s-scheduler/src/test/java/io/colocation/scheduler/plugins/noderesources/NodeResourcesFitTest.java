package io.colocation.scheduler.plugins.noderesources;

import static io.colocation.scheduler.framework.PluginFixtures.cycle;
import static io.colocation.scheduler.framework.PluginFixtures.node;
import static io.colocation.scheduler.framework.PluginFixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.colocation.scheduler.framework.NodeInfo;
import io.colocation.scheduler.framework.PodInfo;
import io.colocation.scheduler.framework.Status;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** kube-scheduler's NodeResourcesFit, over standard and Koordinator's extended resources alike. */
class NodeResourcesFitTest {
    private static final String NODE = """
            metadata: {name: n1}
            status: {allocatable: {cpu: "4", memory: 8Gi, pods: "2", kubernetes.io/batch-cpu: "2000", kubernetes.io/batch-memory: 4Gi}}
            """;

    private static PodInfo requesting(String requests) {
        return pod("containers: [{name: c, resources: {requests: {" + requests + "}}}]");
    }

    static Stream<Arguments> cases() {
        PodInfo oneCpu = requesting("cpu: \"1\"");
        return Stream.of(
                Arguments.of("fits on an empty node", requesting("cpu: \"4\", memory: 8Gi"), List.of(), List.of()),
                Arguments.of("cpu beyond allocatable", requesting("cpu: \"4100m\""), List.of(), List.of("Insufficient cpu")),
                Arguments.of("batch-cpu counts like cpu", requesting("kubernetes.io/batch-cpu: \"2001\""), List.of(),
                        List.of("Insufficient kubernetes.io/batch-cpu")),
                Arguments.of("a resource the node lacks", requesting("kubernetes.io/mid-cpu: \"1\""), List.of(),
                        List.of("Insufficient kubernetes.io/mid-cpu")),
                Arguments.of("what assigned pods request is taken", requesting("cpu: \"3\""), List.of(oneCpu, oneCpu),
                        List.of("Too many pods", "Insufficient cpu")),
                Arguments.of("every reason at once", requesting("cpu: \"5\", memory: 9Gi"), List.of(),
                        List.of("Insufficient cpu", "Insufficient memory")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void filter(String name, PodInfo pod, List<PodInfo> assigned, List<String> reasons) {
        NodeInfo node = node(NODE, assigned, null);
        assertEquals(reasons, new NodeResourcesFit().filter(cycle(node), pod, node).reasons());
    }

    /** A search counts rejections by verdict: nodes short of the same things, one or several, share one verdict. */
    @Test
    void nodesShortOfTheSameThingsShareOneVerdict() {
        PodInfo big = requesting("cpu: \"5\", memory: 9Gi");
        NodeInfo first = node(NODE, List.of(), null);
        NodeInfo second = node(NODE.replace("n1", "n2"), List.of(), null);
        NodeResourcesFit fit = new NodeResourcesFit();
        Status a = fit.filter(cycle(first), big, first);
        assertSame(a, fit.filter(cycle(second), big, second));
        assertEquals(List.of("Insufficient cpu", "Insufficient memory"), a.reasons());
        PodInfo cpu = requesting("cpu: \"5\"");
        assertSame(fit.filter(cycle(first), cpu, first), fit.filter(cycle(second), cpu, second));
        assertSame(Status.sharedUnschedulable("Insufficient cpu"), Status.sharedUnschedulable(List.of("Insufficient cpu")));
    }
}
