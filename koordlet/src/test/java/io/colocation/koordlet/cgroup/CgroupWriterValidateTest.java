package io.colocation.koordlet.cgroup;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CgroupWriterValidateTest {
    /** The syntax the kernel file takes, as the check once read it with a regular expression. */
    private static final Pattern CPU_LIST = Pattern.compile("(\\d+(-\\d+)?)(,\\d+(-\\d+)?)*");

    @ParameterizedTest
    @ValueSource(strings = {"0", "0-3", "0-3,8", "1,3,5-7", "10-31,40-47", "007"})
    void aCpuListIsTaken(String value) {
        assertDoesNotThrow(() -> CgroupWriter.validate(CgroupWriter.Knob.CPUSET_CPUS, value));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ",", "0,", ",0", "0-", "-3", "0--3", "0-3-5", "0 ,1", " 0", "a", "0-3,8\n", "١"})
    void anythingElseIsRefusedWithTheValue(String value) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CgroupWriter.validate(CgroupWriter.Knob.CPUSET_CPUS, value));
        assertEquals("cpuset.cpus must be a CPU list such as 0-3,8, not '" + value + "'", e.getMessage());
    }

    @Test
    void theReadingAgreesWithTheRegularExpressionOnRandomStrings() {
        Random random = new Random(7);
        List<Character> alphabet = List.of('0', '1', '9', '-', ',', ' ', 'x');
        for (int n = 0; n < 20_000; n++) {
            StringBuilder b = new StringBuilder();
            for (int len = random.nextInt(8); len > 0; len--) {
                b.append(alphabet.get(random.nextInt(alphabet.size())));
            }
            String value = b.toString();
            boolean taken = true;
            try {
                CgroupWriter.validate(CgroupWriter.Knob.CPUSET_CPUS, value);
            } catch (IllegalArgumentException e) {
                taken = false;
            }
            assertEquals(CPU_LIST.matcher(value).matches(), taken, "'" + value + "'");
        }
    }

    @Test
    void moveChargeIsZeroToThree() {
        for (String ok : List.of("0", "1", "2", "3")) {
            assertDoesNotThrow(() -> CgroupWriter.validate(CgroupWriter.Knob.MEMORY_MOVE_CHARGE, ok));
        }
        for (String bad : List.of("", "4", "01", "-1", "a")) {
            assertThrows(IllegalArgumentException.class, () -> CgroupWriter.validate(CgroupWriter.Knob.MEMORY_MOVE_CHARGE, bad));
        }
    }
}
