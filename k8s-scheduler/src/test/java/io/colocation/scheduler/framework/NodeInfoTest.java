package io.colocation.scheduler.framework;

import static io.colocation.scheduler.framework.PluginFixtures.metric;
import static io.colocation.scheduler.framework.PluginFixtures.node;
import static io.colocation.scheduler.framework.PluginFixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.colocation.model.slo.NodeMetric;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * What filters read of a node without its maps (allocatable, requested, pod count, taints), and what plugins derive
 * from it: once per version of the node, and once per NodeMetric across versions.
 */
class NodeInfoTest {
    private static final String NODE = """
            metadata: {name: n1}
            spec: {taints: [{key: dedicated, value: online, effect: NoSchedule}]}
            status: {allocatable: {cpu: "4", memory: 8Gi, kubernetes.io/batch-cpu: "2000"}}
            """;

    @Test
    void readsAmountsWithoutItsMaps() {
        PodInfo pod = pod("containers: [{name: c, resources: {requests: {cpu: 500m, example.com/gpu: \"1\"}}}]");
        NodeInfo n = node(NODE, List.of(pod, pod), null);
        assertEquals(4000, n.allocatable("cpu", -1));
        assertEquals(8L << 30, n.allocatable(new String("memory"), -1), "a name that is not interned is found too");
        assertEquals(-1, n.allocatable("example.com/gpu", -1), "requested but not allocatable");
        assertEquals(0, n.allocatable("pods", 0));
        assertEquals(1000, n.requested("cpu"));
        assertEquals(2, n.requested("example.com/gpu"));
        assertEquals(0, n.requested("memory"));
        assertEquals(2, n.podCount());
        assertEquals("dedicated", n.taints().get(0).getKey());
        assertEquals(List.of(), node("metadata: {name: n2}\n", List.of(), null).taints());
    }

    @Test
    void aNewVersionNamingTheSameResourcesKeepsTheirNamesAndReadsItsOwnAmounts() throws Exception {
        PodInfo gpu = pod("containers: [{name: c, resources: {requests: {cpu: 500m, example.com/gpu: \"1\"}}}]");
        PodInfo plain = pod("containers: [{name: c, resources: {requests: {cpu: \"1\"}}}]");
        NodeInfo v1 = node(NODE, List.of(gpu), null);
        NodeInfo v2 = Snapshots.node(v1.node(), List.of(gpu, plain), null, null, "Node: ", v1);
        assertSame(v1.resourceNames(), v2.resourceNames());
        assertEquals(1500, v2.requested("cpu"));
        assertEquals(500, v1.requested("cpu"), "the old version's");
        NodeInfo v3 = Snapshots.node(v1.node(), List.of(plain), null, null, "Node: ", v2);
        assertNotSame(v2.resourceNames(), v3.resourceNames(), "no pod asks for a gpu any more");
        assertEquals(List.of("cpu", "kubernetes.io/batch-cpu", "memory"), List.of(v3.resourceNames()));
        assertEquals(0, v3.requested("example.com/gpu"));
    }

    @Test
    void derivesOncePerKeyAndVersion() {
        NodeInfo n = node(NODE, List.of(), null);
        Object first = new Object();
        Object second = new Object();
        AtomicInteger computed = new AtomicInteger();
        String a = n.derived(first, () -> "a" + computed.incrementAndGet());
        String b = n.derived(second, () -> "b" + computed.incrementAndGet());
        assertSame(a, n.derived(first, () -> "again" + computed.incrementAndGet()));
        assertSame(b, n.derived(second, () -> "again" + computed.incrementAndGet()));
        assertEquals("a1", a);
        assertEquals("b2", b);
        assertEquals(2, computed.get());
    }

    @Test
    void keepsWhatItDerivedFromAnUnchangedNodeMetric() throws Exception {
        NodeMetric metric = metric("metadata: {name: n1}\nstatus: {updateTime: \"2026-11-24T09:59:30Z\"}\n");
        NodeInfo v1 = node(NODE, List.of(), metric);
        Object key = new Object();
        Object parsed = v1.derivedFromMetric(key, Object::new);
        NodeInfo v2 = Snapshots.node(v1.node(), List.of(pod("containers: [{name: c}]")), metric, null, "Node n1: ", v1);
        assertSame(parsed, v2.derivedFromMetric(key, Object::new), "a pod placed: the same metric, parsed once");
        assertSame(v1.allocatable(), v2.allocatable(), "the same Node object: its allocatable is not parsed again");
        assertEquals(1, v2.podCount());
        NodeMetric newer = metric("metadata: {name: n1}\nstatus: {updateTime: \"2026-11-24T10:00:30Z\"}\n");
        NodeInfo v3 = Snapshots.node(v2.node(), v2.pods(), newer, null, "Node n1: ", v2);
        assertNotSame(parsed, v3.derivedFromMetric(key, Object::new), "a new NodeMetric is read anew");
        Object derivedFromV2 = v2.derived(key, Object::new);
        assertNotSame(derivedFromV2, v3.derived(key, Object::new), "what depends on the version is not kept");
    }
}
