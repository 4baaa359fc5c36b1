package io.colocation.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** A ResourceList the scheduler wrote, read back: cpu in milli-cores; a missing list is empty, a broken one null. */
class QuotaUnitsTest {
    @Test
    void aWrittenListReadsBack() {
        assertEquals(ResourceAmounts.of("kubernetes.io/batch-cpu", 4000L, "cpu", 1500L),
                QuotaUnits.readOrNull("{\"kubernetes.io/batch-cpu\":\"4k\",\"cpu\":\"1500m\"}"));
        assertEquals(ResourceAmounts.NONE, QuotaUnits.readOrNull((String) null), "no annotation yet");
        assertNull(QuotaUnits.readOrNull("not json"));
        assertNull(QuotaUnits.readOrNull("{\"cpu\":\"lots\"}"));
    }
}
