package io.colocation.koordlet.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.runtime.YamlConfigLoader;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class KoordletConfigTest {
    private static YamlConfigLoader<KoordletConfig> loader(Map<String, String> env, String... overrides) {
        Properties p = new Properties();
        for (int i = 0; i < overrides.length; i += 2) {
            p.setProperty(overrides[i], overrides[i + 1]);
        }
        return new YamlConfigLoader<>(KoordletConfig.class, KoordletConfig.OVERRIDE_PREFIX, KoordletConfig::validate, env, p);
    }

    @Test
    void theShippedFileLoadsWithTheNodeNameFromTheEnvironment() throws Exception {
        KoordletConfig c = loader(Map.of("NODE_NAME", "worker-7")).load(Path.of("../conf/koordlet.yml"));
        assertEquals("worker-7", c.nodeName);
        assertEquals(1, c.collect.intervalSeconds);
        assertEquals("http://127.0.0.1:8049", c.yarn.copilotUrl);
        assertEquals(false, c.qos.beMemoryHigh);
        assertEquals(40, c.qos.memoryPressureEvict.someAvg10Percent);
    }

    @Test
    void systemPropertiesOverrideSingleValues() throws Exception {
        KoordletConfig c = loader(Map.of(), "koordlet.nodeName", "n1", "koordlet.collect.intervalSeconds", "5", "koordlet.host.procRoot", "/host/proc")
                .parse("collect: {intervalSeconds: 1}\n", "test.yml");
        assertEquals("n1", c.nodeName);
        assertEquals(5, c.collect.intervalSeconds);
        assertEquals("/host/proc", c.host.procRoot);
    }

    @Test
    void aFileThatIsNoSettingsFileIsRefusedByName(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        for (String[] c : new String[][] {{"/dev/zero", "larger than 1 MiB"}, {dir.toString(), "is a directory"},
                {dir.resolve("absent.yml").toString(), "no such file"}}) {
            YamlConfigLoader.ConfigException e = assertThrows(YamlConfigLoader.ConfigException.class,
                    () -> loader(Map.of()).load(Path.of(c[0])));
            assertTrue(e.getMessage().contains(c[0]) && e.getMessage().contains(c[1]), e.getMessage());
        }
        java.nio.file.Files.write(dir.resolve("nul.yml"), new byte[] {'a', 0, 'b'});
        assertTrue(assertThrows(YamlConfigLoader.ConfigException.class, () -> loader(Map.of()).load(dir.resolve("nul.yml")))
                .getMessage().contains("not a text file"));
        assertEquals("n2", loader(Map.of(), "koordlet.nodeName", "n2").load(java.nio.file.Files.writeString(dir.resolve("empty.yml"), ""))
                .nodeName, "an empty file is every default");
    }

    @Test
    void aFieldOfTheWrongTypeIsNamed() {
        assertMessage(loader(Map.of()), "nodeName: n\nreportIntervalSeconds: abc\n", "unknown setting 'reportIntervalSeconds'");
        assertMessage(loader(Map.of()), "nodeName: n\nstatus: {port: abc}\n", "bad value for 'status.port'");
    }

    @Test
    void badInputIsNamed() {
        YamlConfigLoader<KoordletConfig> l = loader(Map.of());
        assertMessage(l, "nodeName: n\ncolect: {}\n", "unknown setting 'colect'");
        assertMessage(l, "nodeName: n\ncollect: {intervalSeconds: fast}\n", "'collect.intervalSeconds'");
        assertMessage(l, "nodeName: n\ncollect: {intervalSeconds: 0}\n", "collect.intervalSeconds must be 1 to 60, got 0");
        assertMessage(l, "nodeName: n\nprediction: {coldStartDuration: soon}\n", "prediction.coldStartDuration");
        assertMessage(l, "nodeName: n\nhost: {cgroupDriver: docker}\n", "host.cgroupDriver");
        assertMessage(l, "nodeName: ${NODE_NAME}\n", "NODE_NAME is not set");
        assertMessage(l, "nodeName: [\n", "not valid YAML");
        assertMessage(l, "- a\n- b\n", "expected a map");
        assertMessage(l, "collect: {}\n", "nodeName is empty");
        assertMessage(l, "nodeName: n\nqos: {memoryPressureEvict: {someAvg10Percent: 0}}\n",
                "qos.memoryPressureEvict.someAvg10Percent must be in (0, 100], got 0.0");
        assertMessage(l, "nodeName: n\nqos: {memoryPressureEvict: {forSeconds: -1}}\n",
                "qos.memoryPressureEvict.forSeconds must not be negative, got -1");
    }

    private static void assertMessage(YamlConfigLoader<KoordletConfig> l, String yaml, String expected) {
        YamlConfigLoader.ConfigException e = assertThrows(YamlConfigLoader.ConfigException.class, () -> l.parse(yaml, "k.yml"));
        assertTrue(e.getMessage().contains(expected) && e.getMessage().startsWith("k.yml: "), e.getMessage());
    }
}
