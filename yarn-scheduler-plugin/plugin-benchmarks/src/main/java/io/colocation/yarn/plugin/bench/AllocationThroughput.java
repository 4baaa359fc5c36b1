package io.colocation.yarn.plugin.bench;

import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import io.colocation.api.yarn.YarnContract;
import io.colocation.api.yarn.YarnContractCodec;
import io.colocation.api.yarn.YarnGrant;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.resourcemanager.MockNM;
import org.apache.hadoop.yarn.server.resourcemanager.MockRM;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ResourceScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerUtils;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.common.fica.FiCaSchedulerApp;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.AppAttemptAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeUpdateSchedulerEvent;
import org.apache.hadoop.yarn.server.utils.BuilderUtils;

/**
 * Container allocations per second of the stock CapacityScheduler versus the CapacityScheduler with
 * the colocation plugin active (grants applied from a real ZooKeeper, the policy running at its default
 * interval, reporting allocation and demand of every node), side by side in one JVM. A real in-process
 * ResourceManager (MockRM, as Hadoop's own TestCapacitySchedulerPerf) with registered NodeManagers and
 * synthetic applications (mocked RMApps with real scheduler attempts and resource requests): each round
 * sends every node a heartbeat to the scheduler, counts the containers allocated, then releases them.
 *
 * <p>Arguments: {@code --nodes N --apps N --rounds N --repeats N}. Run: dev/bench-yarn-plugin.sh
 */
public final class AllocationThroughput {
    private static final int NODE_GB = 64;
    private static final int GRANT_GB = 48;

    private record Result(String variant, long allocations, double allocationSeconds) {
        double perSecond() {
            return allocations / allocationSeconds;
        }
    }

    public static void main(String[] args) {
        try {
            benchmark(args);
            System.exit(0);
        } catch (Throwable t) {
            t.printStackTrace();
            System.exit(1); // ResourceManager threads would keep the JVM alive
        }
    }

    private static void benchmark(String[] args) throws Exception {
        // Maven passes the arguments as one string.
        String[] argv = String.join(" ", args).trim().isEmpty() ? new String[0] : String.join(" ", args).trim().split("\\s+");
        int nodes = intArg(argv, "--nodes", 200);
        int apps = intArg(argv, "--apps", 50);
        int rounds = intArg(argv, "--rounds", 5);
        int repeats = intArg(argv, "--repeats", 9);
        System.out.printf(Locale.ROOT, "%d nodes (%d GB / %d vcores each, batch grant %d GB / %d vcores), %d applications, "
                + "%d rounds per run, %d repeats%n", nodes, NODE_GB, NODE_GB, GRANT_GB, GRANT_GB, apps, rounds, repeats);
        List<Result> stock = new ArrayList<>();
        List<Result> plugin = new ArrayList<>();
        try (TestingServer zk = new TestingServer(true)) {
            // Warm the JIT on both paths before anything counts.
            for (int w = 0; w < 3; w++) {
                run("warm-up", false, zk, nodes, apps, rounds);
                run("warm-up", true, zk, nodes, apps, rounds);
            }
            for (int r = 0; r < repeats; r++) {
                // Alternate the order so neither variant always runs on a warmer JVM.
                if (r % 2 == 0) {
                    stock.add(run("stock", false, zk, nodes, apps, rounds));
                    plugin.add(run("plugin", true, zk, nodes, apps, rounds));
                } else {
                    plugin.add(run("plugin", true, zk, nodes, apps, rounds));
                    stock.add(run("stock", false, zk, nodes, apps, rounds));
                }
            }
        }
        System.out.println();
        System.out.println("run  stock allocations/s  plugin allocations/s  plugin/stock");
        for (int r = 0; r < repeats; r++) {
            System.out.printf(Locale.ROOT, "%3d  %20.0f  %20.0f  %12.3f%n", r + 1, stock.get(r).perSecond(),
                    plugin.get(r).perSecond(), plugin.get(r).perSecond() / stock.get(r).perSecond());
        }
        double stockMedian = median(stock);
        double pluginMedian = median(plugin);
        double[] ratios = new double[repeats];
        for (int r = 0; r < repeats; r++) {
            ratios[r] = plugin.get(r).perSecond() / stock.get(r).perSecond();
        }
        Arrays.sort(ratios);
        double medianRatio = ratios.length % 2 == 1 ? ratios[ratios.length / 2]
                : (ratios[ratios.length / 2 - 1] + ratios[ratios.length / 2]) / 2;
        System.out.printf(Locale.ROOT, "median  stock %.0f/s  plugin %.0f/s  ratio of medians %.3f  median of run ratios %.3f  "
                        + "(run ratios %.3f .. %.3f)%n", stockMedian, pluginMedian, pluginMedian / stockMedian, medianRatio,
                ratios[0], ratios[ratios.length - 1]);
    }

    private static Result run(String variant, boolean withPlugin, TestingServer zk, int nodeCount, int appCount,
            int rounds) throws Exception {
        String clusterId = "bench-" + System.nanoTime();
        YarnConfiguration conf = new YarnConfiguration();
        conf.setClass(YarnConfiguration.RM_SCHEDULER, CapacityScheduler.class, ResourceScheduler.class);
        conf.set("yarn.scheduler.capacity.root.queues", "default");
        conf.set("yarn.scheduler.capacity.root.default.capacity", "100");
        conf.set("yarn.scheduler.capacity.root.default.user-limit-factor", "100");
        conf.set("yarn.scheduler.capacity.resource-calculator", "org.apache.hadoop.yarn.util.resource.DominantResourceCalculator");
        // Fill a node per heartbeat (requests are off-switch; the default assigns one of those per heartbeat).
        conf.set("yarn.scheduler.capacity.per-node-heartbeat.maximum-offswitch-assignments", "1000");
        conf.set("yarn.scheduler.capacity.per-node-heartbeat.maximum-container-assignments", "1000");
        conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 1024);
        conf.setInt(YarnConfiguration.RM_SCHEDULER_MAXIMUM_ALLOCATION_MB, NODE_GB * 1024);
        conf.setInt(YarnConfiguration.RM_SCHEDULER_MAXIMUM_ALLOCATION_VCORES, NODE_GB);
        if (withPlugin) {
            conf.setBoolean(YarnConfiguration.RM_SCHEDULER_ENABLE_MONITORS, true);
            conf.set(YarnConfiguration.RM_SCHEDULER_MONITOR_POLICIES, "io.colocation.yarn.plugin.BatchGrantEditPolicy");
            conf.set("colocation.yarn.zookeeper.connect", zk.getConnectString());
            conf.set("colocation.yarn.cluster-id", clusterId);
        }
        MockRM rm = new MockRM(conf);
        // MockRM turns the root logger to DEBUG; the measurement must not pay for logging.
        org.apache.log4j.Logger.getRootLogger().setLevel(org.apache.log4j.Level.WARN);
        rm.start();
        try (CuratorFramework curator = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100))) {
            curator.start();
            // Stock: NodeManagers sized like the grant. Plugin: bigger NodeManagers cut down to the grant.
            int registerGb = withPlugin ? NODE_GB : GRANT_GB;
            List<MockNM> nms = new ArrayList<>();
            for (int i = 0; i < nodeCount; i++) {
                nms.add(rm.registerNode("localhost:" + (20_000 + i), registerGb * 1024, registerGb));
            }
            rm.drainEvents();
            CapacityScheduler cs = (CapacityScheduler) rm.getResourceScheduler();
            if (withPlugin) {
                curator.create().orSetData().creatingParentsIfNeeded().forPath(YarnContract.epochPath(YarnContract.DEFAULT_ROOT),
                        "1".getBytes(StandardCharsets.UTF_8));
                for (MockNM nm : nms) {
                    YarnGrant grant = new YarnGrant(nm.getNodeId().toString(), 1, 1, GRANT_GB, GRANT_GB * 1024L, 0);
                    curator.create().orSetData().creatingParentsIfNeeded()
                            .forPath(YarnContract.grantPath(YarnContract.DEFAULT_ROOT, clusterId, grant.nodeId()),
                                    YarnContractCodec.write(grant));
                }
                waitForGrants(rm, cs, nms);
            }
            List<FiCaSchedulerApp> apps = addApplications(rm, cs, appCount);
            List<RMNode> rmNodes = nms.stream().map(nm -> rm.getRMContext().getRMNodes().get(nm.getNodeId())).toList();

            long allocations = 0;
            long allocationNanos = 0;
            for (int round = 0; round < rounds; round++) {
                long start = System.nanoTime();
                for (RMNode node : rmNodes) {
                    cs.handle(new NodeUpdateSchedulerEvent(node));
                }
                allocationNanos += System.nanoTime() - start;
                for (FiCaSchedulerApp app : apps) {
                    // Oldest first: the scheduler removes each from a list kept in allocation order.
                    List<RMContainer> live = new ArrayList<>(app.getLiveContainers());
                    live.sort((a, b) -> a.getContainerId().compareTo(b.getContainerId()));
                    for (RMContainer c : live) {
                        allocations++;
                        cs.completedContainer(c, SchedulerUtils.createAbnormalContainerStatus(c.getContainerId(), "released"),
                                RMContainerEventType.KILL);
                    }
                }
                rm.drainEvents();
            }
            Result result = new Result(variant, allocations, allocationNanos / 1e9);
            long expected = (long) rounds * nodeCount * GRANT_GB;
            System.out.printf(Locale.ROOT, "%-8s %,d allocations in %.2f s of node updates: %,.0f/s%s%n", variant,
                    allocations, result.allocationSeconds, result.perSecond(),
                    allocations == expected ? "" : "  (expected " + expected + ": not every node was filled)");
            return result;
        } finally {
            rm.stop();
        }
    }

    private static void waitForGrants(MockRM rm, CapacityScheduler cs, List<MockNM> nms) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        Resource granted = Resource.newInstance(GRANT_GB * 1024L, GRANT_GB);
        while (!nms.stream().allMatch(nm -> cs.getSchedulerNode(nm.getNodeId()) != null
                && granted.equals(cs.getSchedulerNode(nm.getNodeId()).getTotalResource()))) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the plugin did not apply the grants within 60 s");
            }
            Thread.sleep(100);
            rm.drainEvents();
        }
    }

    /** Synthetic applications, as in Hadoop's TestCapacitySchedulerPerf: each asks for far more containers than exist. */
    private static List<FiCaSchedulerApp> addApplications(MockRM rm, CapacityScheduler cs, int count) {
        Container masterContainer = mock(Container.class);
        ApplicationSubmissionContext submission = mock(ApplicationSubmissionContext.class);
        List<FiCaSchedulerApp> apps = new ArrayList<>();
        long clusterTimestamp = System.currentTimeMillis();
        for (int i = 0; i < count; i++) {
            ApplicationId appId = BuilderUtils.newApplicationId(clusterTimestamp, i);
            ApplicationAttemptId attemptId = BuilderUtils.newApplicationAttemptId(appId, 1);
            RMApp app = mock(RMApp.class);
            RMAppAttempt attempt = mock(RMAppAttempt.class);
            when(app.getApplicationId()).thenReturn(appId);
            when(app.getCurrentAppAttempt()).thenReturn(attempt);
            when(attempt.getMasterContainer()).thenReturn(masterContainer);
            when(attempt.getSubmissionContext()).thenReturn(submission);
            when(attempt.getAppAttemptId()).thenReturn(attemptId);
            when(attempt.getRMAppAttemptMetrics()).thenReturn(new RMAppAttemptMetrics(attemptId, rm.getRMContext()));
            rm.getRMContext().getRMApps().put(appId, app);
            cs.handle(new AppAddedSchedulerEvent(appId, "default", "user-" + (i % 10)));
            cs.handle(new AppAttemptAddedSchedulerEvent(attemptId, false));
            FiCaSchedulerApp schedulerApp = cs.getApplicationAttempt(attemptId);
            schedulerApp.updateResourceRequests(List.of(ResourceRequest.newInstance(Priority.newInstance(1),
                    ResourceRequest.ANY, Resource.newInstance(1024, 1), 10_000_000)));
            apps.add(schedulerApp);
        }
        return apps;
    }

    private static double median(List<Result> results) {
        double[] values = results.stream().mapToDouble(Result::perSecond).sorted().toArray();
        return values.length % 2 == 1 ? values[values.length / 2]
                : (values[values.length / 2 - 1] + values[values.length / 2]) / 2;
    }

    private static int intArg(String[] argv, String name, int fallback) {
        int at = Arrays.asList(argv).indexOf(name);
        if (at < 0) {
            return fallback;
        }
        if (at + 1 >= argv.length) {
            throw new IllegalArgumentException(name + " needs a value");
        }
        try {
            int value = Integer.parseInt(argv[at + 1]);
            if (value < 1) {
                throw new NumberFormatException();
            }
            return value;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a positive whole number, not '" + argv[at + 1] + "'");
        }
    }
}
