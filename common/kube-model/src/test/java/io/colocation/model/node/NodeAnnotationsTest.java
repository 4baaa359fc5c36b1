package io.colocation.model.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.api.InvalidInputException;
import io.colocation.model.Resources;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class NodeAnnotationsTest {

    @Test
    void theOriginAnnotationIsReadAsTheBrokerWritesItAndAnUnreadableOneIsNone() {
        assertEquals(new Resources(7297, 46511909676L), NodeAnnotations.originBatch(
                "{\"resources\":{\"kubernetes.io/batch-cpu\":\"7297\",\"kubernetes.io/batch-memory\":\"46511909676\"}}"));
        assertNull(NodeAnnotations.originBatch(null));
        assertNull(NodeAnnotations.originBatch("{not json"));
        assertNull(NodeAnnotations.originBatch("{\"resources\":{\"kubernetes.io/batch-cpu\":\"7297\"}}"), "memory missing");
    }

    @Test
    void countsLinuxCpuListsAndRefusesAbsurdOnes() {
        assertEquals(5, NodeAnnotations.countCpus("0-3,8"));
        assertEquals(4, NodeAnnotations.countCpus("0-3,2-3"));
        assertEquals(-1, NodeAnnotations.countCpus("3-0"));
        assertEquals(-1, NodeAnnotations.countCpus("0-99999999999"), "an id past any int is refused, not thrown");
        assertEquals(-1, NodeAnnotations.countCpus("0-2147483647"), "an id past any real machine is refused");
        assertEquals(-1, NodeAnnotations.countCpus("a-b"));
    }

    @Test
    void aReservationWithAnAbsurdCpuListIsIgnoredWithANote() throws InvalidInputException {
        List<String> notes = new ArrayList<>();
        Resources reserved = NodeAnnotations.reservation(
                "{\"resources\":{\"memory\":\"1Gi\"},\"reservedCPUs\":\"0-99999999999\"}", "Node n1", notes);
        assertEquals(new Resources(0, 1L << 30), reserved);
        assertEquals(List.of("ignored Node n1: annotation node.koordinator.sh/reservation: reservedCPUs \"0-99999999999\""
                + " is not a CPU list such as 0-3,8"), notes);
    }

    @Test
    void thirdPartyAllocationsWithAnExtremeExponentIsAnErrorNamingTheEntry() {
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> NodeAnnotations.thirdPartyBatch(
                "{\"allocations\":[{\"name\":\"hadoop-yarn\",\"priority\":\"koord-batch\","
                        + "\"resources\":{\"kubernetes.io/batch-cpu\":\"1e9999999999\"}}]}", "Node n1"));
        assertEquals("Node n1: annotation node.koordinator.sh/thirdPartyAllocations allocations[0].resources."
                + "kubernetes.io/batch-cpu: quantity \"1e9999999999\" has an exponent outside ±100", e.getMessage());
    }

    @Test
    void normalizationRatioThatIsNoNumberIsIgnored() {
        List<String> notes = new ArrayList<>();
        assertNull(NodeAnnotations.normalizationRatio("NaN", "Node n1", notes));
        assertTrue(notes.get(0).contains("is not a number"));
    }
}
