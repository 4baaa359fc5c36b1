package io.colocation.yarn.plugin;

import io.colocation.localclusters.yarn.MiniYarn;

/** The plugin installed into a test cluster's CapacityScheduler RM by configuration only, as yarn-site.xml does. */
final class PluginInstall {
    private PluginInstall() {
    }

    static MiniYarn.Builder into(MiniYarn.Builder builder, String zkConnect, String clusterId) {
        // Grants are memory and vcores: the scheduler must count both.
        return builder.set("yarn.scheduler.capacity.resource-calculator",
                        "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator")
                .set("yarn.resourcemanager.scheduler.monitor.enable", "true")
                .set("yarn.resourcemanager.scheduler.monitor.policies", BatchGrantEditPolicy.class.getName())
                .set(PluginSettings.ZK_CONNECT, zkConnect)
                .set(PluginSettings.CLUSTER_ID, clusterId);
    }
}
