package io.colocation.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.api.InvalidInputException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The sandbox's command line: Spark rides on YARN, and bad values are named. */
class SandboxOptionsTest {
    @Test
    void sparkRunsWithYarnUnlessLeftOut() throws Exception {
        SandboxOptions defaults = SandboxOptions.parse(List.of());
        assertTrue(defaults.yarn());
        assertTrue(defaults.spark());
        assertFalse(SandboxOptions.parse(List.of("--no-spark")).spark());
        assertTrue(SandboxOptions.parse(List.of("--no-spark")).yarn(), "--no-spark keeps YARN and its MapReduce job");
        SandboxOptions noYarn = SandboxOptions.parse(List.of("--no-yarn"));
        assertFalse(noYarn.spark(), "no YARN, no Spark on it");
    }

    @Test
    void badValuesAreNamed() {
        assertEquals("--nodes must be 1 to 10, got 0",
                assertThrows(InvalidInputException.class, () -> SandboxOptions.parse(List.of("--nodes", "0"))).getMessage());
        assertEquals("unknown option '--spark'",
                assertThrows(InvalidInputException.class, () -> SandboxOptions.parse(List.of("--spark"))).getMessage());
    }
}
