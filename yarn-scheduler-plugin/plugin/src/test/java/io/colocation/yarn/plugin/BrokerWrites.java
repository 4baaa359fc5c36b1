package io.colocation.yarn.plugin;

import io.colocation.api.yarn.YarnContractCodec;
import io.colocation.api.yarn.YarnContract;
import io.colocation.api.yarn.YarnGrant;
import io.colocation.api.yarn.YarnQueueLimits;
import java.nio.charset.StandardCharsets;
import org.apache.curator.framework.CuratorFramework;

/** The broker's side of the ZooKeeper contract as the tests play it: epoch and grants out, documents in. */
record BrokerWrites(CuratorFramework curator, String root, String clusterId) {

    void epoch(long epoch) throws Exception {
        curator.create().orSetData().creatingParentsIfNeeded()
                .forPath(YarnContract.epochPath(root), Long.toString(epoch).getBytes(StandardCharsets.UTF_8));
    }

    void grant(YarnGrant grant) throws Exception {
        curator.create().orSetData().creatingParentsIfNeeded()
                .forPath(YarnContract.grantPath(root, clusterId, grant.nodeId()), YarnContractCodec.write(grant));
    }

    void queueLimits(YarnQueueLimits limits) throws Exception {
        curator.create().orSetData().creatingParentsIfNeeded()
                .forPath(YarnContract.queueLimitsPath(root, clusterId), YarnContractCodec.write(limits));
    }

    /** The document at {@code path}, or null while there is none. */
    <T> T read(String path, Class<T> type) {
        try {
            if (curator.checkExists().forPath(path) == null) {
                return null;
            }
            return YarnContractCodec.read(path, curator.getData().forPath(path), type);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
