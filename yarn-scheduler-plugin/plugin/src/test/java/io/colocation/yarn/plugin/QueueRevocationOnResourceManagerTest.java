package io.colocation.yarn.plugin;

import static io.colocation.testsupport.Await.until;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.api.yarn.YarnContract;
import io.colocation.api.yarn.YarnQueueLimits;
import io.colocation.api.yarn.YarnQueues;
import io.colocation.localclusters.yarn.MiniYarn;
import io.colocation.localclusters.yarn.SleepJobs;
import io.colocation.localclusters.zookeeper.LocalZooKeeper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.nodelabels.RMNodeLabelsManager;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptMetrics;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tree's YARN leaf above its runtime on a real ResourceManager: a MapReduce job holds 6 or more vcores of queue
 * {@code root.team-a} when the broker lowers the queue's maximum to 3 vcores with a revoke delay of 4 s. Nothing is
 * preempted before the delay; then the plugin preempts task containers gracefully (the ApplicationMaster stays) until
 * the queue holds at most 3 vcores, and the RM records them PREEMPTED (which MapReduce counts as killed, not failed:
 * {@code GrantEnforcementTest} runs such a job to its end).
 */
class QueueRevocationOnResourceManagerTest {
    private static final String ROOT = "/colocation";
    private static final String CLUSTER = "revoke-yarn";
    private static final long EPOCH = 2;
    private static final long DELAY_MILLIS = 4_000;

    @Test
    void aQueueAboveItsMaximumPastTheDelayGivesBackTasksGracefully(@TempDir Path work) throws Exception {
        try (LocalZooKeeper zk = new LocalZooKeeper();
                CuratorFramework curator = zk.newClient();
                MiniYarn yarn = PluginInstall.into(MiniYarn.builder("queue-revocation").nodeManagers(1).nodeSize(8192, 8), zk.connectString(), CLUSTER)
                        .set(PluginSettings.INTERVAL, "200")
                        .set(PluginSettings.REPORT_REFRESH, "1000")
                        .set(PluginSettings.WAIT_BEFORE_KILL, "1500")
                        .set("yarn.scheduler.configuration.store.class", "memory")
                        .set("yarn.scheduler.capacity.root.queues", "team-a,team-b")
                        .set("yarn.scheduler.capacity.root.team-a.capacity", "[memory=4096,vcores=4]")
                        .set("yarn.scheduler.capacity.root.team-a.user-limit-factor", "10")
                        .set("yarn.scheduler.capacity.root.team-b.capacity", "[memory=4096,vcores=4]")
                        .start()) {
            BrokerWrites broker = new BrokerWrites(curator, ROOT, CLUSTER);
            broker.epoch(EPOCH);
            CapacityScheduler cs = (CapacityScheduler) yarn.resourceManager().getResourceScheduler();
            Configuration conf = new Configuration(yarn.config());
            conf.set("mapreduce.job.queuename", "team-a");
            conf.set("yarn.app.mapreduce.am.resource.mb", "512");
            Job job = SleepJobs.submit(conf, 8, 30_000, work);
            ApplicationId app = SleepJobs.applicationOf(job);
            until(Duration.ofSeconds(60), () -> used(cs).getVirtualCores() >= 6);

            long written = System.nanoTime();
            broker.queueLimits(new YarnQueueLimits(EPOCH, 1, Map.of("root.team-a", new YarnQueueLimits.Limit(2, 2048, 3, 8192)),
                    DELAY_MILLIS, System.currentTimeMillis()));
            until(Duration.ofSeconds(10), () -> {
                YarnQueues q = broker.read(YarnContract.queuesPath(ROOT, CLUSTER), YarnQueues.class);
                return q != null && q.limitsVersion() == 1;
            });
            RMAppAttemptMetrics metrics = yarn.resourceManager().getRMContext().getRMApps().get(app).getCurrentAppAttempt()
                    .getRMAppAttemptMetrics();
            int preemptedBefore = metrics.getNumNonAMContainersPreempted();
            List<String> timeline = new ArrayList<>();
            long[] firstPreemption = {-1};
            until(Duration.ofSeconds(60), () -> {
                long millis = (System.nanoTime() - written) / 1_000_000;
                if (firstPreemption[0] < 0 && metrics.getNumNonAMContainersPreempted() > preemptedBefore) {
                    firstPreemption[0] = millis;
                }
                timeline.add(millis + " ms: " + used(cs));
                return firstPreemption[0] >= 0 && used(cs).getVirtualCores() <= 3;
            });
            // The queue is over from the moment YARN takes the document (the maximum came below what it held); a container
            // is killed only after the delay and the wait-before-kill (1.5 s) from then.
            assertTrue(firstPreemption[0] >= DELAY_MILLIS + 1500, "first PREEMPTED " + firstPreemption[0] + " ms after the write: " + timeline);
            for (int i = 0; i < 10; i++) {
                Thread.sleep(500);
                assertTrue(used(cs).getVirtualCores() <= 3, "the queue stays within its maximum: " + used(cs));
            }
            assertTrue(metrics.getNumNonAMContainersPreempted() - preemptedBefore >= 3,
                    "at least 6 vcores less the 3 allowed, recorded PREEMPTED: " + metrics.getNumNonAMContainersPreempted());
            assertFalse(metrics.getIsPreempted(), "the ApplicationMaster was not preempted: tasks go first");
            assertEquals(org.apache.hadoop.mapreduce.JobStatus.State.RUNNING, job.getJobState(), "the job runs on");
            System.out.println("queue revocation: first PREEMPTED " + firstPreemption[0] + " ms after the write, "
                    + (metrics.getNumNonAMContainersPreempted() - preemptedBefore) + " task containers preempted, queue at " + used(cs));
            job.killJob();
        }
    }

    private static Resource used(CapacityScheduler cs) {
        return QueueLimits.queuesByPath(cs).get("root.team-a").getQueueResourceUsage().getUsed(RMNodeLabelsManager.NO_LABEL);
    }
}
