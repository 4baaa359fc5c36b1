package io.colocation.koordlet.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class KoordletConfigLoaderTest {
    private static KoordletConfigLoader loader(Map<String, String> env, String... overrides) {
        Properties p = new Properties();
        for (int i = 0; i < overrides.length; i += 2) {
            p.setProperty(overrides[i], overrides[i + 1]);
        }
        return new KoordletConfigLoader(env, p);
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
    void badInputIsNamed() {
        KoordletConfigLoader l = loader(Map.of());
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

    private static void assertMessage(KoordletConfigLoader l, String yaml, String expected) {
        KoordletConfigLoader.ConfigException e = assertThrows(KoordletConfigLoader.ConfigException.class, () -> l.parse(yaml, "k.yml"));
        assertTrue(e.getMessage().contains(expected) && e.getMessage().startsWith("k.yml: "), e.getMessage());
    }
}
