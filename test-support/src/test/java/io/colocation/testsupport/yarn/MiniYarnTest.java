package io.colocation.testsupport.yarn;

import io.colocation.localclusters.yarn.MiniYarn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.Resource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The test YARN is a real one: the RM admin protocol changes a node's capacity. (MapReduce jobs in its real containers
 * are what the plugin's, the copilot's and the koordlet's tests run.)
 */
class MiniYarnTest {
    private static MiniYarn yarn;

    @BeforeAll
    static void start() {
        yarn = MiniYarn.builder("infra").nodeManagers(2).nodeSize(4096, 4).start();
    }

    @AfterAll
    static void stop() {
        if (yarn != null) {
            yarn.close();
        }
    }

    @Test
    void updateNodeResourceChangesWhatClientsSee() throws Exception {
        List<NodeReport> nodes = yarn.runningNodes();
        assertEquals(2, nodes.size());
        NodeReport target = nodes.stream().min(Comparator.comparing(n -> n.getNodeId().toString())).orElseThrow();
        assertEquals(4096, target.getCapability().getMemorySize());

        yarn.updateNodeResource(target.getNodeId(), Resource.newInstance(1536, 3));

        NodeReport after = yarn.runningNodes().stream()
                .filter(n -> n.getNodeId().equals(target.getNodeId())).findFirst().orElseThrow();
        assertEquals(1536, after.getCapability().getMemorySize());
        assertEquals(3, after.getCapability().getVirtualCores());
        NodeReport other = yarn.runningNodes().stream()
                .filter(n -> !n.getNodeId().equals(target.getNodeId())).findFirst().orElseThrow();
        assertEquals(4096, other.getCapability().getMemorySize(), "only the named node changes");

        yarn.updateNodeResource(target.getNodeId(), Resource.newInstance(4096, 4));
    }
}
