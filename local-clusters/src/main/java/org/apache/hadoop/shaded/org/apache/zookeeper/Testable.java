package org.apache.hadoop.shaded.org.apache.zookeeper;

/**
 * ZooKeeper's {@code Testable} interface under the shaded minicluster's relocated package. The
 * hadoop-client-minicluster jar relocates the ZooKeeper client, including {@code ZooKeeperTestable},
 * but leaves out the interface it implements, so creating any ZooKeeper client in it (the RM's
 * ActiveStandbyElector for HA failover) fails with NoClassDefFoundError. Same methods as ZooKeeper's.
 */
public interface Testable {
    void injectSessionExpiration();

    void queueEvent(WatchedEvent event);
}
