package io.colocation.testsupport.yarn;

import io.colocation.api.yarn.YarnContractCodec;
import io.colocation.api.yarn.YarnContract;
import io.colocation.api.yarn.YarnDemand;
import io.colocation.api.yarn.YarnGrant;
import io.colocation.api.yarn.YarnGrantAck;
import io.colocation.api.yarn.YarnNodeReport;
import java.io.Closeable;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;

/**
 * The YARN scheduler plugin's side of the ZooKeeper contract, simulated for tests that need many nodes
 * or control over YARN's allocation (broker tests, the publish benchmark): takes each grant whose epoch is the newest seen, acknowledges it,
 * allocates only within the grant it holds (like the real plugin's node capacity), and reports every
 * node's allocation every {@code reportMillis}. {@link #stopReporting()} simulates a ResourceManager that
 * went away.
 */
public final class SimulatedYarnPlugin implements Closeable {

    private final CuratorFramework zk;
    private final String root;
    private final String clusterId;
    private final CuratorCache grants;
    private final Map<String, YarnGrant> applied = new ConcurrentHashMap<>();
    private final Map<String, long[]> allocated = new ConcurrentHashMap<>();
    private final Set<String> nodes;
    private final ScheduledExecutorService reporter = Executors.newSingleThreadScheduledExecutor();
    private volatile boolean reporting = true;
    private volatile long highestEpoch;
    private volatile long[] demand = {0, 0};

    public SimulatedYarnPlugin(CuratorFramework zk, String root, String clusterId, Set<String> nodes, long reportMillis) throws Exception {
        this.zk = zk;
        this.root = root;
        this.clusterId = clusterId;
        this.nodes = nodes;
        String grantsPath = YarnContract.grantsPath(root, clusterId);
        this.grants = CuratorCache.build(zk, grantsPath);
        grants.listenable().addListener((type, oldData, data) -> {
            // the grants folder itself (Curator gives parents it creates the host address as data) is not a grant
            if (data != null && !data.getPath().equals(grantsPath) && data.getData() != null && data.getData().length > 0) {
                apply(data.getData());
            }
        });
        grants.start();
        reporter.scheduleWithFixedDelay(this::report, 0, reportMillis, TimeUnit.MILLISECONDS);
    }

    private synchronized void apply(byte[] bytes) {
        try {
            YarnGrant g = YarnContractCodec.read("grant", bytes, YarnGrant.class);
            if (g.epoch() < highestEpoch) {
                return; // a deposed leader's grant: ignored, as the plugin does
            }
            highestEpoch = g.epoch();
            YarnGrant current = applied.get(g.nodeId());
            if (current != null && current.epoch() == g.epoch() && current.version() >= g.version()) {
                return;
            }
            applied.put(g.nodeId(), g);
            write(YarnContract.ackPath(root, clusterId, g.nodeId()), new YarnGrantAck(g.nodeId(), g.epoch(), g.version(),
                    g.vcores(), g.memoryMB(), System.currentTimeMillis()));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Allocates a container if it fits the node's applied grant; false when it does not. */
    public synchronized boolean allocate(String nodeId, int vcores, long memoryMB) {
        YarnGrant g = applied.get(nodeId);
        long[] a = allocated.computeIfAbsent(nodeId, n -> new long[2]);
        if (g == null || a[0] + vcores > g.vcores() || a[1] + memoryMB > g.memoryMB()) {
            return false;
        }
        a[0] += vcores;
        a[1] += memoryMB;
        return true;
    }

    public synchronized void release(String nodeId, int vcores, long memoryMB) {
        long[] a = allocated.computeIfAbsent(nodeId, n -> new long[2]);
        a[0] = Math.max(0, a[0] - vcores);
        a[1] = Math.max(0, a[1] - memoryMB);
    }

    /** The allocation as the broker will read it: {vcores, MiB}. */
    public synchronized long[] allocated(String nodeId) {
        long[] a = allocated.getOrDefault(nodeId, new long[2]);
        return new long[] {a[0], a[1]};
    }

    public YarnGrant applied(String nodeId) {
        return applied.get(nodeId);
    }

    public void demand(int vcores, long memoryMB) {
        demand = new long[] {vcores, memoryMB};
    }

    public void stopReporting() {
        reporting = false;
    }

    public void resumeReporting() {
        reporting = true;
    }

    /** Writes every node's report now (the real plugin reports on change too). */
    public void report() {
        if (!reporting) {
            return;
        }
        long now = System.currentTimeMillis();
        try {
            for (String node : nodes) {
                long[] a = allocated(node);
                write(YarnContract.nodeReportPath(root, clusterId, node), new YarnNodeReport(node, (int) a[0], a[1], 0, now));
            }
            write(YarnContract.demandPath(root, clusterId), new YarnDemand((int) demand[0], demand[1], Map.of(), now));
        } catch (Exception e) {
            // ZooKeeper down in a fault test: the next round retries
        }
    }

    private void write(String path, Object doc) throws Exception {
        byte[] data = YarnContractCodec.write(doc);
        if (zk.checkExists().forPath(path) == null) {
            try {
                zk.create().creatingParentsIfNeeded().forPath(path, data);
                return;
            } catch (org.apache.zookeeper.KeeperException.NodeExistsException raced) {
                // fall through to set
            }
        }
        zk.setData().forPath(path, data);
    }

    @Override
    public void close() {
        reporter.shutdownNow();
        grants.close();
    }
}
