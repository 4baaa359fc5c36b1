package io.colocation.broker.service;

import com.codahale.metrics.health.HealthCheck;
import com.codahale.metrics.health.HealthCheckRegistry;
import io.colocation.broker.yarn.YarnSide;
import io.colocation.broker.yarn.LeaderEpoch;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

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
                LeaderEpoch.Status status = broker.leadership().status();
                switch (status.role()) {
                    case LEADING -> {
                        String blocked = broker.reconciler() == null ? "not started" : broker.reconciler().publishingProblem();
                        return blocked == null
                                ? Result.healthy("this replica (" + broker.replicaId() + ") leads with epoch "
                                        + broker.leadership().fence().map(LeaderEpoch.Fence::epoch).orElse(-1L))
                                : Result.unhealthy("this replica (" + broker.replicaId() + ") " + blocked);
                    }
                    case LEADING_WITHOUT_EPOCH -> {
                        return Result.unhealthy("this replica (" + broker.replicaId() + ") was elected but cannot publish: "
                                + status.problem());
                    }
                    case STANDBY -> {
                        return status.leaderId() != null && !status.leaderId().equals(broker.replicaId())
                                ? Result.healthy("standby; the leader is " + status.leaderId() + " (as of " + status.observedAt() + ")")
                                : Result.unhealthy("no broker leads: grants are not being published");
                    }
                    default -> {
                        return Result.unhealthy("leader election is " + status.role().name().toLowerCase(java.util.Locale.ROOT));
                    }
                }
            }
        });
        // Warnings, not failures: a bad ConfigMap key or one node's bad input must not take the broker out of service.
        registry.register("slo-config", new HealthCheck() {
            @Override
            protected Result check() {
                if (broker.sloControllers() == null) {
                    return Result.healthy("not started");
                }
                Map<String, String> errors = broker.sloControllers().configErrors();
                Map<String, String> writes = broker.sloControllers().writeErrors();
                if (errors.isEmpty() && writes.isEmpty()) {
                    return Result.healthy("every slo-controller-config key is in force; NodeMetrics and NodeSLOs are written");
                }
                return Result.builder().healthy().withDetail("warning", true).withDetail("keys", errors).withDetail("writes", writes)
                        .withMessage("warning: " + String.join("; ", errors.values())
                                + (writes.isEmpty() ? "" : (errors.isEmpty() ? "" : "; ") + String.join("; ", writes.values())))
                        .build();
            }
        });
        registry.register("node-inputs", new HealthCheck() {
            @Override
            protected Result check() {
                if (broker.reconciler() == null) {
                    return Result.healthy("no pass yet");
                }
                Map<String, String> faults = broker.reconciler().nodeFaults();
                Map<String, String> pods = broker.reconciler().invalidPendingPods();
                if (faults.isEmpty() && pods.isEmpty()) {
                    return Result.healthy("every node's inputs are valid");
                }
                return Result.builder().healthy().withDetail("warning", true).withDetail("nodes", faults)
                        .withDetail("pendingPods", pods)
                        .withMessage("warning: " + faults.size() + " node(s) with invalid inputs"
                                + (faults.isEmpty() ? "" : " (" + faults.keySet().stream().limit(5).collect(Collectors.joining(", "))
                                        + (faults.size() > 5 ? ", ..." : "") + ")")
                                + ", " + pods.size() + " pending pod(s) with invalid batch requests; see the ledger's degradedReason")
                        .build();
            }
        });
    }
}
