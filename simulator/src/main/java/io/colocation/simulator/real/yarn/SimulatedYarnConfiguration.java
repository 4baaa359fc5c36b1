package io.colocation.simulator.real.yarn;

import io.colocation.localclusters.process.PartFailedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * The ResourceManager's configuration: the distribution's {@code conf/hadoop/} fragments for the plugin as an admin
 * applies them, one queue, and what a simulation changes ({@link #SIMULATION}): the plugin's report intervals, which
 * it reads on the scaled clock, in simulated time; its monitor interval in wall time; servers on loopback, port 0.
 */
public final class SimulatedYarnConfiguration {
    /**
     * The plugin's settings that differ from the shipped fragment, in simulated time. Reports are refreshed every 300
     * simulated seconds when nothing changes (shipped 5 s: at a thousand nodes and 60× that would be twelve thousand
     * ZooKeeper writes a wall second) and a node's changed allocation is reported at most every 10 (shipped 1 s);
     * graceful preemption waits 60 simulated seconds before it kills (shipped 10 s), so that, as with the shipped
     * settings, the wait is longer than a report's way to the broker and back: a container allocated after the report
     * a grant was based on is not killed for it. At most 50 kills a simulated second. The policy runs every 500 ms of wall
     * time, as shipped.
     */
    static final Map<String, String> SIMULATION = Map.of(
            "colocation.yarn.report.refresh-ms", "300000",
            "colocation.yarn.report.min-interval-ms", "10000",
            "colocation.yarn.preemption.wait-before-kill-ms", "60000",
            "colocation.yarn.preemption.max-per-second", "50");

    private SimulatedYarnConfiguration() {
    }

    /**
     * @param speed the simulation's speed: NodeManagers heartbeat once a wall second, {@code speed} simulated seconds, and
     *              the RM may assign as many containers off-switch in one heartbeat as a real one would in those seconds
     *              (one a heartbeat, YARN's default), so that the time compression does not slow YARN's filling of a node
     */
    public static Configuration of(Path confDir, String zkConnect, String zkRoot, double speed) throws PartFailedException {
        YarnConfiguration conf = new YarnConfiguration();
        for (String fragment : List.of("yarn-site.scheduler-plugin.xml", "capacity-scheduler.scheduler-plugin.xml")) {
            Path file = confDir.resolve("hadoop").resolve(fragment);
            if (!Files.isReadable(file)) {
                throw new PartFailedException("YARN", "cannot read " + file, null);
            }
            Configuration c = new Configuration(false);
            c.addResource(new org.apache.hadoop.fs.Path(file.toUri()));
            for (Map.Entry<String, String> e : c) {
                conf.set(e.getKey(), e.getValue());
            }
        }
        Map<String, String> local = new LinkedHashMap<>();
        local.put("colocation.yarn.zookeeper.connect", zkConnect);
        local.put("colocation.yarn.zookeeper.root", zkRoot);
        local.put(YarnConfiguration.RM_SCHEDULER, "org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler");
        local.put("yarn.scheduler.capacity.root.queues", "default");
        local.put("yarn.scheduler.capacity.root.default.capacity", "100");
        local.put("yarn.scheduler.capacity.root.default.maximum-capacity", "100");
        local.put("yarn.scheduler.capacity.maximum-am-resource-percent", "0.2");
        local.put("yarn.scheduler.capacity.node-locality-delay", "-1");
        local.put(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, "512");
        local.put(YarnConfiguration.RM_SCHEDULER_MAXIMUM_ALLOCATION_VCORES, "32");
        local.put("yarn.scheduler.capacity.per-node-heartbeat.maximum-offswitch-assignments",
                Long.toString(Math.max(1, (long) Math.ceil(speed))));
        for (String key : List.of(YarnConfiguration.RM_ADDRESS, YarnConfiguration.RM_SCHEDULER_ADDRESS,
                YarnConfiguration.RM_RESOURCE_TRACKER_ADDRESS, YarnConfiguration.RM_ADMIN_ADDRESS, YarnConfiguration.RM_WEBAPP_ADDRESS)) {
            local.put(key, "127.0.0.1:0");
        }
        // each NodeManager's host name resolved once an hour, not on every heartbeat (as large clusters set it)
        local.put(YarnConfiguration.RM_NODE_IP_CACHE_EXPIRY_INTERVAL_SECS, "3600");
        // no state store, no timeline: nothing outlives the run
        local.put(YarnConfiguration.RECOVERY_ENABLED, "false");
        local.put(YarnConfiguration.TIMELINE_SERVICE_ENABLED, "false");
        local.put("yarn.resourcemanager.system-metrics-publisher.enabled", "false");
        local.putAll(SIMULATION);
        local.forEach(conf::set);
        return conf;
    }
}
