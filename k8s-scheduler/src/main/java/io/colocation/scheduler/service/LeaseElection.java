package io.colocation.scheduler.service;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replicas' election through a Lease (kube-scheduler's {@code leaderElection} settings): competes while open,
 * calls {@code onLead} and {@code onFollow}, competes again after losing, and tells readiness why it cannot lead.
 */
final class LeaseElection implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LeaseElection.class);

    private final KubernetesClient client;
    private final SchedulerSettings config;
    private final String identity;
    private final Clock clock;
    private final Runnable onLead;
    private final Runnable onFollow;
    private final Instant created;
    private volatile ObservedLease lease;
    private volatile CompletableFuture<?> election;
    private volatile boolean closed;

    LeaseElection(KubernetesClient client, SchedulerSettings config, String identity, Clock clock, Runnable onLead, Runnable onFollow) {
        this.client = client;
        this.config = config;
        this.identity = identity;
        this.clock = clock;
        this.onLead = onLead;
        this.onFollow = onFollow;
        this.created = clock.instant();
    }

    /** Competes for the Lease; on losing it, competes again until closed. */
    synchronized void start() {
        if (closed) {
            return;
        }
        SchedulerSettings.LeaderElection le = config.leaderElection;
        lease = new ObservedLease(le.leaseNamespace, le.leaseName, identity, clock);
        LeaderElectionConfigBuilder b = new LeaderElectionConfigBuilder()
                .withName(le.leaseName)
                .withLock(lease)
                .withLeaseDuration(Duration.ofSeconds(le.leaseDurationSeconds))
                .withRenewDeadline(Duration.ofSeconds(le.renewDeadlineSeconds))
                .withRetryPeriod(Duration.ofSeconds(le.retryPeriodSeconds))
                .withReleaseOnCancel(true)
                .withLeaderCallbacks(new LeaderCallbacks(onLead, onFollow,
                        leader -> LOG.info("{}: the leader is {}", config.schedulerName, leader)));
        election = client.leaderElector().withConfig(b.build()).build().start();
        election.whenComplete((r, e) -> start());
    }

    /** Null when this replica could lead; otherwise why not: the Lease has not been read or written for two lease durations. */
    String cannotLead() {
        ObservedLease l = lease;
        Instant last = l == null ? null : l.lastSuccess();
        Duration limit = Duration.ofSeconds(2L * config.leaderElection.leaseDurationSeconds);
        Instant now = clock.instant();
        if (Duration.between(last == null ? created : last, now).compareTo(limit) <= 0) {
            return null;
        }
        return "cannot lead: the Lease " + config.leaderElection.leaseNamespace + "/" + config.leaderElection.leaseName
                + (last == null ? " was never read" : " was last read " + Duration.between(last, now).toSeconds() + " s ago")
                + (l == null || l.lastError() == null ? "" : ": " + l.lastError());
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (election != null) {
            election.cancel(true);
        }
    }
}
