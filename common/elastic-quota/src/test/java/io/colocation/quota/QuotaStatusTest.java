package io.colocation.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The annotations and status.used the scheduler writes: Koordinator's keys, JSON ResourceLists, written only on change. */
class QuotaStatusTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ResourceAmounts FOUR = ResourceAmounts.of("cpu", 4000, "memory", 8L << 30);

    private static QuotaStatus status(ResourceAmounts runtime, ResourceAmounts used) {
        return QuotaStatus.of(new QuotaState(FOUR, FOUR, FOUR, FOUR, runtime),
                new QuotaUsage(FOUR, used, ResourceAmounts.NONE, ResourceAmounts.of("cpu", 0)));
    }

    @Test
    void aNewQuotaGetsEveryAnnotationThatIsNotAllZero() {
        Map<String, String> changed = status(FOUR, ResourceAmounts.of("cpu", 1500)).changedAnnotations(Map.of());
        assertEquals(Map.of(QuotaStatus.RUNTIME, "{\"cpu\":\"4\",\"memory\":\"8Gi\"}", QuotaStatus.REQUEST, "{\"cpu\":\"4\",\"memory\":\"8Gi\"}",
                QuotaStatus.CHILD_REQUEST, "{\"cpu\":\"4\",\"memory\":\"8Gi\"}"), changed,
                "non-preemptible request and used are empty or zero, as the object's absent annotations: not written");
        assertEquals("quota.scheduling.koordinator.sh/non-preemptible-used", QuotaStatus.NON_PREEMPTIBLE_USED);
    }

    @Test
    void whatTheObjectCarriesAlreadyIsNotWrittenAgainZerosAside() throws Exception {
        QuotaStatus s = status(FOUR, ResourceAmounts.of("cpu", 1500));
        Map<String, String> carried = Map.of(QuotaStatus.RUNTIME, "{\"memory\":\"8589934592\",\"cpu\":\"4000m\"}",
                QuotaStatus.REQUEST, "{\"cpu\":\"4\",\"memory\":\"8Gi\",\"pods\":\"0\"}", QuotaStatus.CHILD_REQUEST, "not json");
        assertEquals(Map.of(QuotaStatus.CHILD_REQUEST, "{\"cpu\":\"4\",\"memory\":\"8Gi\"}"), s.changedAnnotations(carried),
                "an unreadable annotation is replaced");
        assertFalse(s.usedChanged(JSON.readTree("{\"cpu\":\"1500m\",\"memory\":\"0\"}")));
        assertTrue(s.usedChanged(JSON.readTree("{\"cpu\":\"1\"}")));
        assertTrue(s.usedChanged(null));
        assertFalse(status(FOUR, ResourceAmounts.NONE).usedChanged(null), "nothing used and nothing written");
        assertEquals(Map.of("cpu", "1500m"), s.usedList());
    }
}
