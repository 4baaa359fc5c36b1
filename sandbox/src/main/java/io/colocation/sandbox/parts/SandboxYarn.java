package io.colocation.sandbox.parts;

import io.colocation.localclusters.process.PartFailedException;
import io.colocation.copilot.YarnCopilotAuxService;
import io.colocation.copilot.api.CopilotApi;
import io.colocation.localclusters.yarn.MiniYarn;
import io.colocation.localclusters.yarn.SleepJobs;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerExitStatus;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptImpl;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.ContainerManagerImpl;

/**
 * YARN for the sandbox: a MiniYARNCluster whose ResourceManager runs the scheduler plugin and whose NodeManagers run
 * the copilot, configured from the distribution's {@code conf/hadoop/} fragments as an admin would, plus what one
 * machine needs (ephemeral ports, this sandbox's ZooKeeper, small MapReduce containers).
 */
public final class SandboxYarn implements AutoCloseable {
    private static final String PLUGIN_METRICS = "ColocationYarnGrants";

    private final MiniYarn yarn;
    private final int nodeManagers;
    private final Path configDir;

    private SandboxYarn(MiniYarn yarn, int nodeManagers, Path configDir) {
        this.yarn = yarn;
        this.nodeManagers = nodeManagers;
        this.configDir = configDir;
    }

    /** The NodeManagers and their copilots, one per node. */
    public record NodeManager(String nodeId, String copilotUrl) {
    }

    public static SandboxYarn start(Path confDir, int nodeManagers, int memoryMb, int vcores, String zkConnect, String zkRoot, Path work)
            throws PartFailedException {
        MiniYarn.Builder b = MiniYarn.builder("sandbox").nodeManagers(nodeManagers).nodeSize(memoryMb, vcores).configDir(work);
        for (String fragment : List.of("yarn-site.scheduler-plugin.xml", "capacity-scheduler.scheduler-plugin.xml", "yarn-site.copilot.xml")) {
            Path file = confDir.resolve("hadoop").resolve(fragment);
            if (!Files.isReadable(file)) {
                throw new PartFailedException("YARN", "cannot read " + file, null);
            }
            Configuration fragmentConf = new Configuration(false);
            fragmentConf.addResource(new org.apache.hadoop.fs.Path(file.toUri()));
            for (Map.Entry<String, String> e : fragmentConf) {
                b.set(e.getKey(), e.getValue());
            }
        }
        b.auxService(CopilotApi.AUX_SERVICE_NAME, YarnCopilotAuxService.class)
                .set("colocation.yarn.zookeeper.connect", zkConnect)
                .set("colocation.yarn.zookeeper.root", zkRoot)
                // Several NodeManagers share this host: each copilot on a port of its own, no fixed NM ports to recover.
                .set(CopilotApi.CONF_PORT, "0")
                .set("yarn.nodemanager.recovery.enabled", "false")
                // Containers are asked to leave within 5 s of the preemption notice, so the story moves on.
                .set("colocation.yarn.preemption.wait-before-kill-ms", "5000")
                // Containers' logs stay until the sandbox ends (its work directory goes, or is kept when an invariant broke).
                .set("yarn.nodemanager.delete.debug-delay-sec", "86400");
        // MiniYARNCluster's directories (NodeManagers' local and log dirs) go under test.build.data, by default
        // target/test/data in the current directory: into the work directory instead, so nothing is left behind.
        System.setProperty("test.build.data", work.resolve("minicluster").toString());
        try {
            return new SandboxYarn(b.start(), nodeManagers, work);
        } catch (RuntimeException e) {
            throw new PartFailedException("YARN (MiniYARNCluster)", String.valueOf(e.getMessage()), null);
        }
    }

    public List<NodeManager> nodeManagers() {
        List<NodeManager> result = new ArrayList<>();
        for (int i = 0; i < nodeManagers; i++) {
            var nm = yarn.cluster().getNodeManager(i);
            ContainerManagerImpl cm = (ContainerManagerImpl) nm.getNMContext().getContainerManager();
            String address = StandardCharsets.UTF_8.decode(cm.getAuxServiceMetaData().get(CopilotApi.AUX_SERVICE_NAME).duplicate()).toString();
            result.add(new NodeManager(nm.getNMContext().getNodeId().toString(), "http://" + address));
        }
        return result;
    }

    /** A MapReduce job of {@code maps} tasks that each sleep {@code mapMillis}; submitted, not awaited. */
    public Job submitSleepJob(int maps, long mapMillis, Path work) throws Exception {
        return SleepJobs.submit(yarn.config(), maps, mapMillis, work);
    }

    /** Where the running cluster's yarn-site.xml is: a client's HADOOP_CONF_DIR (spark-submit's). */
    public Path configDir() {
        return configDir;
    }

    /** The application's running containers other than its ApplicationMaster (a Spark application's executors), by id. */
    public Set<String> runningExecutors(String applicationId) {
        Set<String> ids = new HashSet<>();
        yarn.runningTaskContainers(ApplicationId.fromString(applicationId), null).forEach(c -> ids.add(c.getContainerId().toString()));
        return ids;
    }

    /**
     * The application's attempts so far, and how each earlier one's ApplicationMaster container ended (its exit status:
     * a {@link ContainerExitStatus} name such as PREEMPTED, or the number).
     */
    public record Attempts(int started, List<String> earlierEndings) {
        public static final Attempts NONE = new Attempts(0, List.of());

        public long amPreempted() {
            return earlierEndings.stream().filter("PREEMPTED"::equals).count();
        }
    }

    public Attempts attempts(String applicationId) {
        var app = yarn.resourceManager().getRMContext().getRMApps().get(ApplicationId.fromString(applicationId));
        if (app == null) {
            return Attempts.NONE;
        }
        List<String> endings = new ArrayList<>();
        app.getAppAttempts().entrySet().stream().sorted(Map.Entry.comparingByKey()).limit(Math.max(0, app.getAppAttempts().size() - 1))
                .forEach(e -> endings.add(e.getValue() instanceof RMAppAttemptImpl impl ? exitStatusName(impl.getAMContainerExitStatus()) : "?"));
        return new Attempts(app.getAppAttempts().size(), endings);
    }

    /** ContainerExitStatus's name for {@code status}, else the number. */
    static String exitStatusName(int status) {
        for (java.lang.reflect.Field f : ContainerExitStatus.class.getFields()) {
            try {
                if (f.getType() == int.class && java.lang.reflect.Modifier.isStatic(f.getModifiers()) && f.getInt(null) == status) {
                    return f.getName();
                }
            } catch (IllegalAccessException e) {
                // a public constant is readable
            }
        }
        return Integer.toString(status);
    }

    /** Containers the plugin preempted because a grant shrank (its JMX counter in the ResourceManager). */
    public long containersPreempted() {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            Set<ObjectName> names = server.queryNames(new ObjectName("Hadoop:*,name=" + PLUGIN_METRICS), null);
            if (names.isEmpty()) {
                return 0;
            }
            return ((Number) server.getAttribute(names.iterator().next(), "ContainersPreempted")).longValue();
        } catch (javax.management.JMException e) {
            return 0;
        }
    }

    @Override
    public void close() {
        yarn.close();
    }
}
