package io.colocation.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class QuantitiesTest {

    @Test
    void readsEverySuffixAndRoundsUpLikeApimachinery() throws Exception {
        assertEquals(500, Quantities.milliValue("500m", "x"));
        assertEquals(4000, Quantities.milliValue("4", "x"));
        assertEquals(1500, Quantities.milliValue("1.5", "x"));
        assertEquals(1, Quantities.milliValue("1u", "x"), "0.001m rounds up to 1m");
        assertEquals(1610612736L, Quantities.value("1.5Gi", "x"));
        assertEquals(33_000_000_000L, Quantities.value("33G", "x"));
        assertEquals(17828L * 1024, Quantities.value("17828Ki", "x"));
        assertEquals(2000, Quantities.value("2e3", "x"));
        assertEquals(107374183L, Quantities.value("0.1Gi", "x"), "107374182.4 rounds up");
        assertEquals(25000, Quantities.value("25k", "x"));
        assertEquals(1, Quantities.value(".5", "x"));
        assertEquals(0, Quantities.value("-0", "x"));
    }

    @Test
    void rejectsMalformedNegativeAndAbsurdQuantitiesNamingTheField() {
        InvalidInputException bad = assertThrows(InvalidInputException.class,
                () -> Quantities.milliValue("abc", "Pod default/p: spec.containers[0].resources.requests.cpu"));
        assertEquals("Pod default/p: spec.containers[0].resources.requests.cpu: \"abc\" is not a Kubernetes quantity"
                + " (examples: 500m, 4, 1.5Gi)", bad.getMessage());
        assertTrue(assertThrows(InvalidInputException.class, () -> Quantities.value("-1Gi", "f")).getMessage()
                .contains("negative quantity \"-1Gi\""));
        assertThrows(InvalidInputException.class, () -> Quantities.value("1Gb", "f"));
        assertThrows(InvalidInputException.class, () -> Quantities.value("1.2.3", "f"));
        assertTrue(assertThrows(InvalidInputException.class, () -> Quantities.value("1e30", "f")).getMessage()
                .contains("too large"));
    }

    @Test
    void extremeExponentsAndEndlessDigitsAreRefusedWithAMessageNotAnArithmeticError() {
        assertEquals("NodeMetric n1: status.nodeMetric.nodeUsage.cpu: quantity \"1e-2147483648\" has an exponent outside ±100",
                assertThrows(InvalidInputException.class,
                        () -> Quantities.milliValue("1e-2147483648", "NodeMetric n1: status.nodeMetric.nodeUsage.cpu")).getMessage());
        assertThrows(InvalidInputException.class, () -> Quantities.value("1e9999999999", "f"));
        assertThrows(InvalidInputException.class, () -> Quantities.value("1e+101", "f"));
        assertTrue(assertThrows(InvalidInputException.class, () -> Quantities.value("1".repeat(100_000), "f")).getMessage()
                .contains("too long"));
        assertDoesNotThrowValue("1e-100", 1);
    }

    private static void assertDoesNotThrowValue(String text, long expected) {
        try {
            assertEquals(expected, Quantities.value(text, "f"), "a tiny positive amount rounds up, as apimachinery's Value()");
        } catch (InvalidInputException e) {
            throw new AssertionError(e);
        }
    }
}
