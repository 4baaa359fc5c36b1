package io.colocation.broker.service;

import com.codahale.metrics.health.HealthCheck;
import com.codahale.metrics.health.HealthCheckRegistry;
import io.colocation.broker.yarn.YarnSide;
import java.util.List;

/** Health checks: the API server (informers watching), ZooKeeper, each YARN cluster, and the leadership. */
final class BrokerHealthChecks {
    private BrokerHealthChecks() {
    }

    static void register(HealthCheckRegistry registry, Broker broker, List<String> yarnClusters) {
        registry.register("kubernetes", new HealthCheck() {
            @Override
            protected Result check() {
                List<String> down = broker.view().notWatching();
                return down.isEmpty() ? Result.healthy("watching " + broker.view().apiServer())
                        : Result.unhealthy("not watching " + String.join(", ", down) + " on " + broker.view().apiServer());
            }
        });
        registry.register("zookeeper", new HealthCheck() {
            @Override
            protected Result check() {
                return broker.zooKeeper().getZookeeperClient().isConnected()
                        ? Result.healthy("connected to " + broker.zooKeeper().getZookeeperClient().getCurrentConnectionString())
                        : Result.unhealthy("not connected to " + broker.zooKeeper().getZookeeperClient().getCurrentConnectionString());
            }
        });
        for (String cluster : yarnClusters) {
            registry.register("yarn-" + cluster, new HealthCheck() {
                @Override
                protected Result check() {
                    YarnSide side = broker.yarnSides().get(cluster);
                    if (side == null) {
                        return Result.unhealthy("YARN cluster " + cluster + " is not started");
                    }
                    YarnSide.Health h = side.health();
                    return h.healthy() ? Result.healthy(h.message()) : Result.unhealthy(h.message());
                }
            });
        }
        registry.register("leadership", new HealthCheck() {
            @Override
            protected Result check() {
                var fence = broker.leadership().fence();
                if (fence.isPresent()) {
                    return Result.healthy("this replica (" + broker.replicaId() + ") leads with epoch " + fence.get().epoch());
                }
                return broker.leadership().leaderId().map(id -> Result.healthy("standby; the leader is " + id))
                        .orElseGet(() -> Result.unhealthy("no broker leads: grants are not being published"));
            }
        });
    }
}
