package io.colocation.scheduler.service;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaderElectionRecord;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.Lock;
import java.time.Clock;
import java.time.Instant;

/**
 * The Lease the replicas elect through, remembering what the elector does not tell: when the Lease was last read or
 * written successfully and why the last attempt failed (a missing namespace, RBAC, an API server that does not answer),
 * so readiness can say why this replica cannot lead.
 */
final class ObservedLease implements Lock {
    private final LeaseLock lease;
    private final Clock clock;
    private volatile Instant lastSuccess;
    private volatile String lastError;

    ObservedLease(String namespace, String name, String identity, Clock clock) {
        this.lease = new LeaseLock(namespace, name, identity);
        this.clock = clock;
    }

    @Override
    public LeaderElectionRecord get(KubernetesClient client) {
        return observe(() -> lease.get(client));
    }

    @Override
    public void create(KubernetesClient client, LeaderElectionRecord record) {
        observe(() -> {
            lease.create(client, record);
            return null;
        });
    }

    @Override
    public void update(KubernetesClient client, LeaderElectionRecord record) {
        observe(() -> {
            lease.update(client, record);
            return null;
        });
    }

    private <T> T observe(java.util.function.Supplier<T> call) {
        try {
            T result = call.get();
            lastSuccess = clock.instant();
            lastError = null;
            return result;
        } catch (RuntimeException e) {
            lastError = e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
            throw e;
        }
    }

    @Override
    public String identity() {
        return lease.identity();
    }

    @Override
    public String describe() {
        return lease.describe();
    }

    /** When the Lease was last read or written; null: never. */
    Instant lastSuccess() {
        return lastSuccess;
    }

    /** Why the last read or write failed; null when it did not. */
    String lastError() {
        return lastError;
    }
}
