package io.colocation.yarn.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.api.yarn.YarnContract;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class PluginSettingsTest {
    private static Configuration conf(String... keyValues) {
        Configuration conf = new Configuration(false);
        for (int i = 0; i < keyValues.length; i += 2) {
            conf.set(keyValues[i], keyValues[i + 1]);
        }
        return conf;
    }

    @Test
    void defaultsFollowTheResourceManagersOwnZooKeeperAndClusterId() {
        PluginSettings s = PluginSettings.from(conf("hadoop.zk.address", "zk1:2181,zk2:2181",
                "yarn.resourcemanager.cluster-id", "prod-a"));
        assertEquals("zk1:2181,zk2:2181", s.zookeeperConnect());
        assertEquals("prod-a", s.clusterId());
        assertEquals(YarnContract.DEFAULT_ROOT, s.zookeeperRoot());
        assertEquals(500, s.intervalMs());
        assertTrue(s.preemptionEnabled());
        assertEquals(YarnContract.DEFAULT_CLUSTER_ID,
                PluginSettings.from(conf(PluginSettings.ZK_CONNECT, "zk:2181")).clusterId());
    }

    @Test
    void badValuesNameTheKey() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PluginSettings.from(conf()))
                .getMessage().contains(PluginSettings.ZK_CONNECT));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PluginSettings.from(conf(
                PluginSettings.ZK_CONNECT, "zk:2181", PluginSettings.INTERVAL, "soon")))
                .getMessage().contains(PluginSettings.INTERVAL + "=soon"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PluginSettings.from(conf(
                PluginSettings.ZK_CONNECT, "zk:2181", PluginSettings.MAX_PREEMPTIONS, "-1")))
                .getMessage().contains(PluginSettings.MAX_PREEMPTIONS));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PluginSettings.from(conf(
                PluginSettings.ZK_CONNECT, "zk:2181", PluginSettings.ZK_ROOT, "colocation/")))
                .getMessage().contains(PluginSettings.ZK_ROOT));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PluginSettings.from(conf(
                PluginSettings.ZK_CONNECT, "zk:2181", PluginSettings.CLUSTER_ID, "a/b")))
                .getMessage().contains(PluginSettings.CLUSTER_ID));
    }
}
