package io.colocation.yarn.plugin;

import io.colocation.api.yarn.YarnContract;
import org.apache.hadoop.conf.Configuration;

/**
 * The plugin's configuration, read from the ResourceManager's yarn-site.xml. Every key is documented in
 * conf/hadoop/yarn-site.scheduler-plugin.xml; a bad value fails the RM's start with the key named.
 */
final class PluginSettings {
    private final String zookeeperConnect;
    private final String zookeeperRoot;
    private final String clusterId;
    private final int sessionTimeoutMs;
    private final long intervalMs;
    private final long reportRefreshMs;
    private final long reportMinIntervalMs;
    private final boolean preemptionEnabled;
    private final long waitBeforeKillMs;
    private final double maxPreemptionsPerSecond;

    PluginSettings(
            String zookeeperConnect,
            String zookeeperRoot,
            String clusterId,
            int sessionTimeoutMs,
            long intervalMs,
            long reportRefreshMs,
            long reportMinIntervalMs,
            boolean preemptionEnabled,
            long waitBeforeKillMs,
            double maxPreemptionsPerSecond) {
        this.zookeeperConnect = zookeeperConnect;
        this.zookeeperRoot = zookeeperRoot;
        this.clusterId = clusterId;
        this.sessionTimeoutMs = sessionTimeoutMs;
        this.intervalMs = intervalMs;
        this.reportRefreshMs = reportRefreshMs;
        this.reportMinIntervalMs = reportMinIntervalMs;
        this.preemptionEnabled = preemptionEnabled;
        this.waitBeforeKillMs = waitBeforeKillMs;
        this.maxPreemptionsPerSecond = maxPreemptionsPerSecond;
    }

    public String zookeeperConnect() {
        return zookeeperConnect;
    }

    public String zookeeperRoot() {
        return zookeeperRoot;
    }

    public String clusterId() {
        return clusterId;
    }

    public int sessionTimeoutMs() {
        return sessionTimeoutMs;
    }

    public long intervalMs() {
        return intervalMs;
    }

    public long reportRefreshMs() {
        return reportRefreshMs;
    }

    public long reportMinIntervalMs() {
        return reportMinIntervalMs;
    }

    public boolean preemptionEnabled() {
        return preemptionEnabled;
    }

    public long waitBeforeKillMs() {
        return waitBeforeKillMs;
    }

    public double maxPreemptionsPerSecond() {
        return maxPreemptionsPerSecond;
    }

    static final String PREFIX = "colocation.yarn.";
    static final String ZK_CONNECT = PREFIX + "zookeeper.connect";
    static final String ZK_ROOT = PREFIX + "zookeeper.root";
    static final String ZK_SESSION_TIMEOUT = PREFIX + "zookeeper.session-timeout-ms";
    static final String CLUSTER_ID = PREFIX + "cluster-id";
    static final String INTERVAL = PREFIX + "plugin.interval-ms";
    static final String REPORT_REFRESH = PREFIX + "report.refresh-ms";
    static final String REPORT_MIN_INTERVAL = PREFIX + "report.min-interval-ms";
    static final String PREEMPTION_ENABLED = PREFIX + "preemption.enabled";
    static final String WAIT_BEFORE_KILL = PREFIX + "preemption.wait-before-kill-ms";
    static final String MAX_PREEMPTIONS = PREFIX + "preemption.max-per-second";
    /** Hadoop's own ZooKeeper address key (RM HA state store, leader election). */
    static final String HADOOP_ZK_ADDRESS = "hadoop.zk.address";
    static final String RM_CLUSTER_ID = "yarn.resourcemanager.cluster-id";

    static PluginSettings from(Configuration conf) {
        String connect = conf.getTrimmed(ZK_CONNECT, conf.getTrimmed(HADOOP_ZK_ADDRESS, ""));
        if (connect.isEmpty()) {
            throw new IllegalArgumentException(ZK_CONNECT + " is not set (and neither is " + HADOOP_ZK_ADDRESS
                    + "): the plugin reads the broker's grants from ZooKeeper, set it to host:port[,host:port...]");
        }
        String root = conf.getTrimmed(ZK_ROOT, YarnContract.DEFAULT_ROOT);
        if (!root.startsWith("/") || root.endsWith("/") || root.contains("//")) {
            throw new IllegalArgumentException(ZK_ROOT + "=" + root + " is not a ZooKeeper path like /colocation");
        }
        String clusterId = conf.getTrimmed(CLUSTER_ID, conf.getTrimmed(RM_CLUSTER_ID, YarnContract.DEFAULT_CLUSTER_ID));
        if (!clusterId.matches("[A-Za-z0-9_.-]+")) {
            throw new IllegalArgumentException(CLUSTER_ID + "=" + clusterId
                    + " must be letters, digits, '_', '.' or '-' (it is a ZooKeeper path element)");
        }
        return new PluginSettings(connect, root, clusterId,
                (int) atLeast(conf, ZK_SESSION_TIMEOUT, 30_000, 1_000),
                atLeast(conf, INTERVAL, 500, 10),
                atLeast(conf, REPORT_REFRESH, 5_000, 100),
                atLeast(conf, REPORT_MIN_INTERVAL, 1_000, 0),
                conf.getBoolean(PREEMPTION_ENABLED, true),
                atLeast(conf, WAIT_BEFORE_KILL, 10_000, 0),
                positiveDouble(conf, MAX_PREEMPTIONS, 10));
    }

    private static long atLeast(Configuration conf, String key, long fallback, long minimum) {
        String raw = conf.getTrimmed(key);
        if (raw == null || raw.isEmpty()) {
            return fallback;
        }
        long value;
        try {
            value = Long.parseLong(raw);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + "=" + raw + " is not a whole number");
        }
        if (value < minimum || value > 86_400_000L) {
            throw new IllegalArgumentException(key + "=" + raw + " must be between " + minimum + " and 86400000");
        }
        return value;
    }

    private static double positiveDouble(Configuration conf, String key, double fallback) {
        String raw = conf.getTrimmed(key);
        if (raw == null || raw.isEmpty()) {
            return fallback;
        }
        try {
            double value = Double.parseDouble(raw);
            if (!(value > 0) || value > 100_000) {
                throw new IllegalArgumentException(key + "=" + raw + " must be a number above 0 and at most 100000");
            }
            return value;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + "=" + raw + " is not a number");
        }
    }
}
