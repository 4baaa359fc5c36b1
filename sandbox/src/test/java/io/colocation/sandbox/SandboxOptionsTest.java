package io.colocation.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.api.InvalidInputException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The sandbox's command line: Spark on YARN rides on YARN, Spark on Kubernetes does not, and bad values are named. */
class SandboxOptionsTest {
    @Test
    void sparkRunsWithYarnUnlessLeftOut() throws Exception {
        SandboxOptions defaults = SandboxOptions.parse(List.of());
        assertTrue(defaults.yarn());
        assertTrue(defaults.spark());
        assertTrue(defaults.sparkOnYarn());
        SandboxOptions noSpark = SandboxOptions.parse(List.of("--no-spark"));
        assertFalse(noSpark.spark());
        assertFalse(noSpark.sparkOnYarn());
        assertTrue(noSpark.yarn(), "--no-spark keeps YARN and its MapReduce job");
        SandboxOptions noYarn = SandboxOptions.parse(List.of("--no-yarn"));
        assertFalse(noYarn.sparkOnYarn(), "no YARN, no Spark on it");
        assertTrue(noYarn.spark(), "Spark on Kubernetes needs no YARN");
    }

    @Test
    void badValuesAreNamed() {
        assertEquals("--nodes must be 1 to 10, got 0",
                assertThrows(InvalidInputException.class, () -> SandboxOptions.parse(List.of("--nodes", "0"))).getMessage());
        assertEquals("unknown option '--spark'",
                assertThrows(InvalidInputException.class, () -> SandboxOptions.parse(List.of("--spark"))).getMessage());
    }
}
