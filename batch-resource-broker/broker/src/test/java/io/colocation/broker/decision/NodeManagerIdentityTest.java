package io.colocation.broker.decision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.api.KoordinatorKeys;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which NodeManager runs on a node: Koordinator's pod annotation, else the host name. */
class NodeManagerIdentityTest {

    private static Node node(String name, Map<String, String> labels) {
        return new NodeBuilder().withNewMetadata().withName(name).withLabels(labels).endMetadata().build();
    }

    private static io.fabric8.kubernetes.api.model.Pod nmPod(Map<String, String> annotations) {
        return new PodBuilder().withNewMetadata().withNamespace("yarn").withName("nm").withAnnotations(annotations).endMetadata().build();
    }

    @Test
    void nodeManagerIdentityFromThePodAnnotationOrTheHostName() {
        Node n = node("worker-1", Map.of("kubernetes.io/hostname", "worker-1.example.com"));
        var viaPod = NodeManagerIdentity.resolve(n, List.of(nmPod(Map.of(KoordinatorKeys.ANNOTATION_YARN_NODE_ID, "worker-1:8041"))),
                NodeManagerIdentity.HostIndex.of(Map.of()), true);
        assertEquals("__default_yarn_cluster__", viaPod.nodeManager().clusterId());
        assertEquals("worker-1:8041", viaPod.nodeManager().nodeId());

        var bad = NodeManagerIdentity.resolve(n, List.of(nmPod(Map.of(KoordinatorKeys.ANNOTATION_YARN_NODE_ID, "worker-1:http"))),
                NodeManagerIdentity.HostIndex.of(Map.of()), true);
        assertNull(bad.nodeManager());
        assertTrue(bad.problem().contains("Pod yarn/nm") && bad.problem().contains("port that is not a number"), bad.problem());
        assertTrue(NodeManagerIdentity.checkNodeId("a:1:2").contains("host:port"));

        var viaHost = NodeManagerIdentity.resolve(n, List.of(), NodeManagerIdentity.HostIndex.of(Map.of("prod", List.of("other:8041", "worker-1.example.com:45454"))), true);
        assertEquals("prod", viaHost.nodeManager().clusterId());
        assertEquals("worker-1.example.com:45454", viaHost.nodeManager().nodeId());
        assertNull(NodeManagerIdentity.resolve(n, List.of(), NodeManagerIdentity.HostIndex.of(Map.of("prod", List.of("worker-1:8041"))), false).nodeManager());
    }
}
