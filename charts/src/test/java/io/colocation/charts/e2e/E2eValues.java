package io.colocation.charts.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * The values the suite installs the chart with: what a platform team sets for its cluster (ZooKeeper, the
 * ResourceManager, the NodeManager's directory), requests sized for a 2-core node (a rolling update surges one more
 * broker and scheduler), reports every 10 s instead of 60, and CPU eviction on with a 15 s window, so the checks take
 * seconds. The whole control plane shares this node's 2 cores as online work, often above LoadAwareScheduling's 65 %
 * CPU (the scheduler then kept the batch pod off the only node): its threshold is 95 % here (scheduler.config), and
 * the eviction's lower satisfaction 10 % (at Koordinator's 60 % the MapReduce job's application master, BE, was evicted
 * before the spike).
 */
final class E2eValues {
    private E2eValues() {
    }

    static Path write(RealCluster cluster, Path file) throws IOException {
        String[] rm = cluster.resourceManagerAddress(YarnConfiguration.RM_ADDRESS).split(":");
        String scheduler = cluster.resourceManagerAddress(YarnConfiguration.RM_SCHEDULER_ADDRESS).split(":")[1];
        String tracker = cluster.resourceManagerAddress(YarnConfiguration.RM_RESOURCE_TRACKER_ADDRESS).split(":")[1];
        Files.writeString(file, """
                sloControllerConfig:
                  colocationConfig: |
                    {"enable": true, "metricAggregateDurationSeconds": 60, "metricReportIntervalSeconds": 10,
                     "metricAggregatePolicy": {"durations": ["5m", "10m", "30m"]}, "cpuReclaimThresholdPercent": 75,
                     "memoryReclaimThresholdPercent": 65, "memoryCalculatePolicy": "usage", "degradeTimeMinutes": 15,
                     "updateTimeThresholdSeconds": 30, "resourceDiffThreshold": 0.1}
                  resourceThresholdConfig: |
                    {"clusterStrategy": {"enable": true, "cpuSuppressThresholdPercent": 75, "cpuSuppressPolicy": "cfsQuota",
                     "memoryEvictThresholdPercent": 90, "cpuEvictBESatisfactionLowerPercent": 10,
                     "cpuEvictBESatisfactionUpperPercent": 80, "cpuEvictBEUsageThresholdPercent": 90, "cpuEvictTimeWindowSeconds": 15}}
                broker:
                  zookeeper: "%s"
                  jvmOptions: "-Xmx512m"
                  resources: {requests: {cpu: 100m, memory: 640Mi}, limits: {memory: 1Gi}}
                scheduler:
                  resources: {requests: {cpu: 100m, memory: 384Mi}, limits: {memory: 768Mi}}
                  config:
                    apiVersion: kubescheduler.config.k8s.io/v1beta2
                    kind: KubeSchedulerConfiguration
                    profiles:
                      - schedulerName: koord-scheduler
                        pluginConfig:
                          - name: LoadAwareScheduling
                            args: {usageThresholds: {cpu: 95, memory: 95}}
                koordlet:
                  featureGates: "BECPUEvict=true"
                nodeManager:
                  enabled: true
                  resourceManager: {host: "%s", port: %s, schedulerPort: %s, trackerPort: %s}
                  localDir: "%s"
                  resources: {requests: {cpu: 100m, memory: 1Gi}, limits: {memory: 3Gi}}
                """.formatted(cluster.zooKeeper().connectString(), rm[0], rm[1], scheduler, tracker,
                cluster.work.resolve("yarn-local")));
        return file;
    }
}
