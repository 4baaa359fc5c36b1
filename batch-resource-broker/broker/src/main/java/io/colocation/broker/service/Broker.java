package io.colocation.broker.service;

import io.colocation.broker.arbitration.ArbitrationSettings;
import io.colocation.broker.arbitration.GrantPolicy;
import io.colocation.broker.kube.ClusterView;
import io.colocation.broker.kube.NodeStatusPublisher;
import io.colocation.broker.ledger.Ledger;
import io.colocation.broker.quota.TreeTotalKeeper;
import io.colocation.broker.quota.TreeRuntimesKeeper;
import io.colocation.broker.reconcile.ArbitrationLoop;
import io.colocation.broker.reconcile.BrokerReconciler;
import io.colocation.broker.slo.SloControllers;
import io.colocation.broker.state.ZooKeeperLastGoodConfig;
import io.colocation.broker.yarn.LeaderEpoch;
import io.colocation.broker.yarn.PluginYarnSide;
import io.colocation.broker.yarn.RmAdminYarnSide;
import io.colocation.broker.yarn.YarnClusterConfigs;
import io.colocation.broker.yarn.YarnSide;
import io.colocation.helpers.lifecycle.Lifecycle;
import io.colocation.kube.client.EventRecorder;
import io.colocation.model.config.ColocationStrategy;
import io.dropwizard.lifecycle.Managed;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running broker, wired from {@link BrokerConfiguration}: ZooKeeper client, leader election with
 * epoch, one {@link YarnSide} per YARN cluster, the Kubernetes informers, the reconciler and its loop.
 * Started and stopped by Dropwizard (or directly, in tests).
 */
public final class Broker implements Managed {
    private static final Logger LOG = LoggerFactory.getLogger(Broker.class);
    private static final Duration TREE_TOTAL_INTERVAL = Duration.ofSeconds(10);

    private final Lifecycle lifecycle = new Lifecycle("broker");
    private EventRecorder events;
    private final BrokerConfiguration config;
    private final KubernetesClient kubernetes;
    private final Clock clock;
    private final Ledger ledger = new Ledger();
    private CuratorFramework zk;
    private LeaderEpoch leadership;
    private final Map<String, YarnSide> yarnSides = new LinkedHashMap<>();
    private ClusterView view;
    private BrokerReconciler reconciler;
    private ZooKeeperLastGoodConfig lastGood;
    private SloControllers sloControllers;
    private ArbitrationLoop sloLoop;
    private ArbitrationLoop treeTotalLoop;
    private ArbitrationLoop loop;
    private final String replicaId;

    public Broker(BrokerConfiguration config, KubernetesClient kubernetes, Clock clock) {
        this.config = config;
        this.kubernetes = kubernetes;
        this.clock = clock;
        this.replicaId = config.replicaId != null && !config.replicaId.isBlank() ? config.replicaId : hostName();
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName() + "-" + ProcessHandle.current().pid();
        } catch (IOException e) {
            return "broker-" + ProcessHandle.current().pid();
        }
    }

    @Override
    public void start() throws Exception {
        lifecycle.start(this::startParts);
    }

    /** Builds and starts every part; on failure, {@link #stop()} closes those already built. */
    private void startParts() throws Exception {
        ArbitrationSettings arbitration = new ArbitrationSettings(
                GrantPolicy.valueOf(config.arbitration.policy.toUpperCase(Locale.ROOT)), config.arbitration.kubernetesWeight,
                config.arbitration.yarnWeight, config.arbitration.minimumShare,
                java.time.Duration.ofSeconds(config.arbitration.takeBackAfterSeconds), config.arbitration.takeBackCpu,
                java.time.Duration.ofMillis(config.arbitration.kubernetesShrinkSettleMillis));
        zk = CuratorFrameworkFactory.builder().connectString(config.zookeeper.connect)
                .sessionTimeoutMs(config.zookeeper.sessionTimeoutMs)
                .connectionTimeoutMs(config.zookeeper.connectionTimeoutMs)
                .retryPolicy(new ExponentialBackoffRetry(200, 10, 5_000)).build();
        zk.start();
        int waitMs = config.zookeeper.connectionTimeoutMs * 3;
        if (!zk.blockUntilConnected(waitMs, java.util.concurrent.TimeUnit.MILLISECONDS)) {
            zk.close();
            throw new IOException("ZooKeeper " + config.zookeeper.connect + " (zookeeper.connect) is not reachable after "
                    + waitMs / 1000 + " s: the broker needs it for leader election and the YARN grants");
        }
        leadership = new LeaderEpoch(zk, config.zookeeper.root, replicaId);
        Duration stale = Duration.ofSeconds(config.yarn.reportStaleSeconds);
        for (BrokerConfiguration.YarnClusterSettings c : config.yarn.clusters) {
            if (yarnSides.containsKey(c.id)) {
                throw new IllegalArgumentException("yarn.clusters: cluster id " + c.id + " is configured twice");
            }
            YarnSide side;
            if ("rm-admin".equals(c.mode)) {
                if (c.confDir == null || c.confDir.isBlank()) {
                    throw new IllegalArgumentException("yarn.clusters[" + c.id + "]: mode rm-admin needs confDir (the directory of "
                            + c.id + ".yarn-site.xml)");
                }
                Configuration conf = YarnClusterConfigs.load(Path.of(c.confDir), c.id);
                UserGroupInformation user = YarnClusterConfigs.login(conf, c.id, c.kerberosPrincipal, c.kerberosKeytab);
                side = new RmAdminYarnSide(c.id, conf, user, zk, leadership, config.zookeeper.root,
                        Duration.ofMillis(c.pollIntervalMs), stale, clock);
            } else {
                side = new PluginYarnSide(zk, leadership, config.zookeeper.root, c.id, stale, clock);
            }
            yarnSides.put(c.id, side);
        }
        ArbitrationLoop[] loopRef = new ArbitrationLoop[2];
        Runnable wake = () -> {
            if (loopRef[0] != null) {
                loopRef[0].wake();
            }
        };
        Runnable wakeSlo = () -> {
            if (loopRef[1] != null) {
                loopRef[1].wake();
            }
        };
        for (YarnSide side : yarnSides.values()) {
            side.start(wake);
        }
        lastGood = new ZooKeeperLastGoodConfig(zk, config.zookeeper.root);
        view = new ClusterView(kubernetes, config.kubernetes.sloConfigNamespace, lastGood, wake, wakeSlo);
        view.start(Duration.ofSeconds(config.kubernetes.startupTimeoutSeconds));
        events = new EventRecorder(kubernetes, "colocation-broker");
        reconciler = new BrokerReconciler(view, new NodeStatusPublisher(kubernetes, events), yarnSides, leadership, arbitration,
                config.yarn.matchHostNames, config.sync.publishThreads, ledger, clock,
                Duration.ofMillis(config.sync.intervalMs), config.sync.fullPassSliceNodes,
                config.nodeAgent.restricted ? AdmissionWebhooks.releaseProof(config, kubernetes) : null);
        loop = new ArbitrationLoop(reconciler, Duration.ofMillis(config.sync.intervalMs), Duration.ofMillis(config.sync.debounceMs));
        loopRef[0] = loop;
        sloControllers = new SloControllers(kubernetes, view, leadership, config.kubernetes.sloConfigNamespace, events,
                config.sync.publishThreads);
        sloLoop = new ArbitrationLoop("slo-controllers", sloControllers::reconcile, Duration.ofMillis(config.sync.intervalMs),
                Duration.ofMillis(config.sync.debounceMs));
        loopRef[1] = sloLoop;
        ClusterView informed = view;
        java.util.function.DoubleSupplier diffThreshold = () -> {
            Double t = informed.colocationConfig().cluster().resourceDiffThreshold();
            return t == null ? ColocationStrategy.defaults().resourceDiffThreshold() : t;
        };
        TreeTotalKeeper treeTotals = new TreeTotalKeeper(kubernetes, ledger, leadership, diffThreshold);
        // The trees' YARN leaves are queues of the first YARN cluster configured (docs/quota.md).
        TreeRuntimesKeeper treeRuntimes = new TreeRuntimesKeeper(kubernetes, yarnSides.isEmpty() ? null : yarnSides.values().iterator().next(),
                informed::pods, leadership, diffThreshold,
                config.yarn.quotaRevokeDelaySeconds < 0 ? -1 : config.yarn.quotaRevokeDelaySeconds * 1000, clock);
        // Koordinator's ElasticQuotaProfile controller keeps its roots' totals every 10 s too; the runtimes follow on the same list.
        treeTotalLoop = new ArbitrationLoop("tree-totals", () -> treeRuntimes.keep(treeTotals.reconcile()), TREE_TOTAL_INTERVAL,
                Duration.ofMillis(config.sync.debounceMs));
        leadership.start();
        loop.start();
        sloLoop.start();
        treeTotalLoop.start();
        LOG.info("broker {} started: policy {}, {} YARN cluster(s) {}, API server {}", replicaId, config.arbitration.policy,
                yarnSides.size(), yarnSides.keySet(), view.apiServer());
    }

    @Override
    public void stop() {
        if (lifecycle.close() == Lifecycle.State.CLOSED) {
            return;
        }
        List<AutoCloseable> closing = new ArrayList<>();
        closing.add(loop);
        closing.add(sloLoop);
        closing.add(treeTotalLoop);
        closing.add(sloControllers);
        closing.add(reconciler);
        closing.add(events);
        closing.add(view);
        closing.add(lastGood);
        closing.addAll(yarnSides.values());
        closing.add(leadership);
        closing.add(zk);
        for (AutoCloseable c : closing) {
            if (c == null) {
                continue;
            }
            try {
                c.close();
            } catch (Exception e) {
                LOG.warn("while stopping: {}", e.toString());
            }
        }
    }

    public void wake() {
        loop.wake();
    }

    /** Forget what was published and run a pass: every grant is compared with the sides again. */
    public void resync() {
        reconciler.forgetPublications();
        loop.wake();
    }

    public String replicaId() {
        return replicaId;
    }

    public Ledger ledger() {
        return ledger;
    }

    public LeaderEpoch leadership() {
        return leadership;
    }

    public CuratorFramework zooKeeper() {
        return zk;
    }

    public ClusterView view() {
        return view;
    }

    public Map<String, YarnSide> yarnSides() {
        return yarnSides;
    }

    /** How long the pass loop may go without a pass before liveness fails. */
    public Duration stallLimit() {
        return Duration.ofMillis(Math.max(60_000, 10 * config.sync.intervalMs));
    }

    /** The NodeMetric and NodeSLO controllers, null before start. */
    public SloControllers sloControllers() {
        return sloControllers;
    }

    public BrokerReconciler reconciler() {
        return reconciler;
    }

    public String policy() {
        return config.arbitration.policy;
    }

    /** The decisions' clock (the wall, or a simulation's scaled clock): the ledger's times are on it. */
    public Clock clock() {
        return clock;
    }
}
