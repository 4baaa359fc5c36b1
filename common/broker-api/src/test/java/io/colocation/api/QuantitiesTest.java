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

    @Test
    void plainIntegersAreReadAsTheGeneralReadingReadsThemUpToTheLargestAllowed() throws Exception {
        String[] suffixes = {"", "m", "k", "M", "G", "T", "P", "Ki", "Mi", "Gi", "Ti", "Pi"};
        long largest = Long.MAX_VALUE / 1000; // base units
        for (String suffix : suffixes) {
            java.math.BigDecimal unit = Quantities.amount("1" + suffix, "f");
            long limit = java.math.BigDecimal.valueOf(largest).divide(unit, 0, java.math.RoundingMode.FLOOR).longValueExact();
            for (long n : new long[] {0, 1, 7, 999, 1000, 1001, 123_456_789, limit - 1, limit, limit + 1, 999_999_999_999_999_999L}) {
                String text = n + suffix;
                java.math.BigDecimal amount;
                try {
                    amount = Quantities.amount(text, "f");
                } catch (InvalidInputException tooLarge) {
                    assertTrue(n > limit, text + " is within the limit");
                    assertThrows(InvalidInputException.class, () -> Quantities.value(text, "f"));
                    assertThrows(InvalidInputException.class, () -> Quantities.milliValue(text, "f"));
                    continue;
                }
                assertEquals(amount.setScale(0, java.math.RoundingMode.CEILING).longValueExact(), Quantities.value(text, "f"), text);
                assertEquals(amount.scaleByPowerOfTen(3).setScale(0, java.math.RoundingMode.CEILING).longValueExact(),
                        Quantities.milliValue(text, "f"), text);
            }
        }
        assertEquals(7, Quantities.value("007", "f"));
        assertEquals(1, Quantities.value("1m", "f"), "a milli-unit rounds up to one");
        assertEquals(4000, Quantities.milliValue(" 4 ", "f"), "spaces are trimmed as before");
    }

    private static void assertDoesNotThrowValue(String text, long expected) {
        try {
            assertEquals(expected, Quantities.value(text, "f"), "a tiny positive amount rounds up, as apimachinery's Value()");
        } catch (InvalidInputException e) {
            throw new AssertionError(e);
        }
    }
}
