package io.colocation.broker.service.health;

import io.colocation.broker.service.Broker;

import com.codahale.metrics.health.HealthCheck;
import com.codahale.metrics.health.HealthCheckRegistry;
import io.colocation.broker.kube.ClusterView;
import io.colocation.broker.reconcile.BrokerReconciler;
import io.colocation.broker.slo.SloControllers;
import io.colocation.broker.yarn.LeaderEpoch;
import io.colocation.broker.yarn.YarnSide;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.curator.framework.CuratorFramework;

/**
 * Health checks: the API server (informers watching), ZooKeeper, each YARN cluster, the leadership, and two
 * warnings (slo-controller-config keys, node inputs); each check gets only the part it reads.
 */
public final class BrokerHealthChecks {
    private BrokerHealthChecks() {
    }

    /** The parts the checks read, nothing else of the broker. */
    public record Parts(ClusterView view, CuratorFramework zooKeeper, Map<String, YarnSide> yarnSides, LeaderEpoch leadership,
            String replicaId, BrokerReconciler reconciler, SloControllers sloControllers) {

        /** The parts of a started broker. */
        public static Parts of(Broker broker) {
            return new Parts(broker.view(), broker.zooKeeper(), broker.yarnSides(), broker.leadership(), broker.replicaId(),
                    broker.reconciler(), broker.sloControllers());
        }
    }

    public static void register(HealthCheckRegistry registry, Parts parts, List<String> yarnClusters) {
        registry.register("kubernetes", kubernetes(parts.view()));
        registry.register("zookeeper", zooKeeper(parts.zooKeeper()));
        for (String cluster : yarnClusters) {
            registry.register("yarn-" + cluster, yarn(cluster, parts.yarnSides().get(cluster)));
        }
        registry.register("leadership", leadership(parts.leadership(), parts.replicaId(), parts.reconciler()::publishingProblem));
        // Warnings, not failures: a bad ConfigMap key or one node's bad input must not take the broker out of service.
        registry.register("slo-config", sloConfig(parts.sloControllers(), parts.view()::configError));
        registry.register("node-inputs", nodeInputs(parts.reconciler()));
    }

    private static HealthCheck kubernetes(ClusterView view) {
        return new HealthCheck() {
            @Override
            protected Result check() {
                List<String> down = view.notWatching();
                return down.isEmpty() ? Result.healthy("watching " + view.apiServer())
                        : Result.unhealthy("not watching " + String.join(", ", down) + " on " + view.apiServer());
            }
        };
    }

    private static HealthCheck zooKeeper(CuratorFramework zk) {
        return new HealthCheck() {
            @Override
            protected Result check() {
                String at = zk.getZookeeperClient().getCurrentConnectionString();
                return zk.getZookeeperClient().isConnected() ? Result.healthy("connected to " + at) : Result.unhealthy("not connected to " + at);
            }
        };
    }

    private static HealthCheck yarn(String cluster, YarnSide side) {
        return new HealthCheck() {
            @Override
            protected Result check() {
                if (side == null) {
                    return Result.unhealthy("YARN cluster " + cluster + " is not started");
                }
                YarnSide.Health h = side.health();
                return h.healthy() ? Result.healthy(h.message()) : Result.unhealthy(h.message());
            }
        };
    }

    private static HealthCheck leadership(LeaderEpoch leadership, String replicaId, Supplier<String> publishingProblem) {
        return new HealthCheck() {
            @Override
            protected Result check() {
                LeaderEpoch.Status status = leadership.status();
                switch (status.role()) {
                    case LEADING -> {
                        String blocked = publishingProblem.get();
                        return blocked == null
                                ? Result.healthy("this replica (" + replicaId + ") leads with epoch "
                                        + leadership.fence().map(LeaderEpoch.Fence::epoch).orElse(-1L))
                                : Result.unhealthy("this replica (" + replicaId + ") " + blocked);
                    }
                    case LEADING_WITHOUT_EPOCH -> {
                        return Result.unhealthy("this replica (" + replicaId + ") was elected but cannot publish: " + status.problem());
                    }
                    case STANDBY -> {
                        return status.leaderId() != null && !status.leaderId().equals(replicaId)
                                ? Result.healthy("standby; the leader is " + status.leaderId() + " (as of " + status.observedAt() + ")")
                                : Result.unhealthy("no broker leads: grants are not being published");
                    }
                    default -> {
                        return Result.unhealthy("leader election is " + status.role().name().toLowerCase(java.util.Locale.ROOT));
                    }
                }
            }
        };
    }

    /** {@code colocationError}: why the colocation-config key was refused (the last good one is in use), or null. */
    private static HealthCheck sloConfig(SloControllers slo, Supplier<String> colocationError) {
        return new HealthCheck() {
            @Override
            protected Result check() {
                Map<String, String> errors = new java.util.TreeMap<>(slo.configErrors());
                String colocation = colocationError.get();
                if (colocation != null) {
                    errors.put(io.colocation.api.KoordinatorKeys.COLOCATION_CONFIG_KEY, colocation);
                }
                Map<String, String> writes = slo.writeErrors();
                if (errors.isEmpty() && writes.isEmpty()) {
                    return Result.healthy("every slo-controller-config key is in force; NodeMetrics and NodeSLOs are written");
                }
                return Result.builder().healthy().withDetail("warning", true).withDetail("keys", errors).withDetail("writes", writes)
                        .withMessage("warning: " + String.join("; ", errors.values())
                                + (writes.isEmpty() ? "" : (errors.isEmpty() ? "" : "; ") + String.join("; ", writes.values())))
                        .build();
            }
        };
    }

    private static HealthCheck nodeInputs(BrokerReconciler reconciler) {
        return new HealthCheck() {
            @Override
            protected Result check() {
                Map<String, String> faults = reconciler.nodeFaults();
                Map<String, String> pods = reconciler.invalidPendingPods();
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
        };
    }
}
