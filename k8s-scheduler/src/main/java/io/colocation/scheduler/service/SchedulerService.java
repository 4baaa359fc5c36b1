package io.colocation.scheduler.service;

import io.colocation.api.InvalidInputException;
import io.colocation.helpers.concurrent.Daemons;
import io.colocation.helpers.lifecycle.Lifecycle;
import io.colocation.kube.client.ApiServerProbe;
import io.colocation.kube.client.EventRecorder;
import io.colocation.kube.client.Evictions;
import io.colocation.kube.client.KubernetesClients;
import io.colocation.model.pod.PodPhases;
import io.colocation.scheduler.framework.ClusterSnapshot;
import io.colocation.scheduler.framework.Framework;
import io.colocation.scheduler.framework.Handle;
import io.colocation.scheduler.framework.Profile;
import io.colocation.scheduler.framework.Snapshots;
import io.colocation.scheduler.plugins.elasticquota.ElasticQuota;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.prometheus.client.CollectorRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler service: informers feed a queue of this scheduler's pending pods; while this replica holds the
 * Lease, one loop takes the next pod and hands it to {@link PodScheduling} (the profile's {@link Framework} on the
 * cache's snapshot, the runtime {@code explain} runs too, then the binding); pods a node change may now place come back
 * through {@link NodeChangeRequeue}. It also answers for the replica's health. Lifecycle LATENT → STARTED → CLOSED.
 */
public final class SchedulerService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SchedulerService.class);

    static final long POD_GROUP_SYNC_MILLIS = 1_000;
    /** Koordinator's ElasticQuotaController writes every second. */
    static final long QUOTA_STATUS_SYNC_MILLIS = 1_000;
    /** Bindings in flight at once: enough to keep the configured write rate busy while each waits for its answer. */
    private static final int BINDERS = 16;
    /** A leading loop silent this long is stuck: liveness fails so the kubelet restarts the replica. */
    static final Duration LOOP_STALL = Duration.ofSeconds(60);
    /** How long a closing replica lets the bindings in flight finish. */
    private static final Duration BIND_DRAIN = Duration.ofSeconds(5);
    /** An API server silent this long makes the replica unready. */
    static final Duration API_STALE = Duration.ofSeconds(20);

    private final SchedulerSettings config;
    private final Framework framework;
    private final KubernetesClient client;
    /** The decisions' clock (backoff, NodeMetric expiry, gang timeouts); a simulation's scaled clock there. */
    private final Clock clock;
    /** Liveness stays on the wall clock: the Lease, the API server probe, Events' rate and health. */
    private final Clock wall = Clock.systemUTC();
    private final String identity;
    private final ClusterCache cache;
    private final PendingQueue queue;
    private final NodeChangeRequeue requeue;
    private final EventRecorder events;
    private final PermitWaits waits;
    private final SchedulerMetrics metrics;
    private final Lifecycle lifecycle = new Lifecycle("scheduler");
    private final ScheduledExecutorService permitTimer;
    /** PodGroup statuses, written by the leader on a thread of their own (a slow API server never delays Permit). */
    private final ScheduledExecutorService podGroupSync;
    private final PodGroupStatusController podGroups;
    /** ElasticQuota status and revocation, by the leader on a thread of their own; null without the plugin. */
    private final ScheduledExecutorService quotaSync;
    private final ElasticQuotaStatusController quotaStatus;
    private final QuotaOveruseRevoker quotaRevoker;
    /** The revoker's: a budget's 429 is an answer to report, not a failure for fabric8 to retry for 15 s. */
    private final KubernetesClient evictionClient;
    private final ExecutorService binding;
    private final PodScheduling scheduling;
    private volatile boolean leading;
    /** The loop's last round (System.nanoTime); it comes round at least every half second while it leads. */
    private volatile long loopBeat = System.nanoTime();
    private ApiServerProbe probe;
    private volatile LeaseElection election;
    private volatile Thread loop;

    /** Builds the scheduler's profile for the plugins' handle on the cluster. */
    @FunctionalInterface
    public interface ProfileFactory {
        Profile create(Handle handle) throws InvalidInputException;
    }

    /** @throws InvalidInputException when the profile cannot be built (its configuration is wrong) */
    public SchedulerService(SchedulerSettings config, ProfileFactory profiles, KubernetesClient client, String identity, Clock clock)
            throws InvalidInputException {
        this.config = config;
        this.client = client;
        this.identity = identity;
        this.clock = clock;
        this.cache = new ClusterCache(client, clock);
        this.waits = new PermitWaits(this::permitted, this::rejectedWhileWaiting);
        // Bindings and Events each have the configured rate, as kube-scheduler's client and event client do.
        Profile profile = profiles.create(new CacheHandle(client, new WriteRate(config.clientQps, config.clientBurst), cache, waits));
        if (profile.binds().isEmpty()) {
            throw new InvalidInputException("profile " + profile.schedulerName() + ": no bind plugin enabled (DefaultBinder)");
        }
        this.framework = new Framework(profile);
        this.queue = new PendingQueue(profile.queueSort(), clock, Duration.ofMillis((long) (config.backoffInitialSeconds * 1000)),
                Duration.ofMillis((long) (config.backoffMaxSeconds * 1000)));
        this.requeue = new NodeChangeRequeue(cache, queue, profile, clock);
        this.permitTimer = Executors.newSingleThreadScheduledExecutor(Daemons.named("k8s-scheduler-permit-timer"));
        this.podGroupSync = Executors.newSingleThreadScheduledExecutor(Daemons.named("k8s-scheduler-podgroup-status"));
        this.podGroups = new PodGroupStatusController(client, cache::pods, clock);
        this.events = new EventRecorder(client, config.schedulerName, wall, new WriteRate(config.clientQps, config.clientBurst)::acquire);
        ElasticQuota quotas = profile.plugins().stream().filter(ElasticQuota.class::isInstance).map(ElasticQuota.class::cast)
                .findFirst().orElse(null);
        Supplier<Map<String, Long>> total = () -> cache.snapshot(clock.instant()).order().allocatableTotal();
        this.quotaSync = quotas == null ? null : Executors.newSingleThreadScheduledExecutor(Daemons.named("k8s-scheduler-quota"));
        this.quotaStatus = quotas == null ? null : new ElasticQuotaStatusController(client, quotas, cache.elasticQuotas(), total);
        this.evictionClient = quotas == null || !QuotaOveruseRevoker.enabled(quotas) ? null
                : new KubernetesClientBuilder().withConfig(KubernetesClients.withoutRetries(client.getConfiguration())).build();
        this.quotaRevoker = evictionClient == null ? null : new QuotaOveruseRevoker(quotas, total, cache::current,
                (ns, name) -> Evictions.evict(evictionClient, ns, name), events, clock);
        this.binding = Executors.newFixedThreadPool(BINDERS, Daemons.named("k8s-scheduler-bind"));
        this.metrics = new SchedulerMetrics(queue::sizes, waits::size, () -> leading);
        this.scheduling = new PodScheduling(framework, cache, queue, waits, events, metrics, binding, clock, wall, () -> leading,
                new Preemptions(client, events));
    }

    /** The Prometheus metrics: attempts by result with their latency, pending pods, leadership. */
    public CollectorRegistry registry() {
        return metrics.registry();
    }

    /**
     * Lists the cluster (within {@code kubernetes.startupTimeoutSeconds}), then schedules while it leads.
     *
     * @throws TimeoutException when the API server did not list in time (the message names it and what)
     */
    public synchronized void start() throws TimeoutException {
        lifecycle.start(this::listAndStartTimers);
        if (config.leaderElection.enabled) {
            election = new LeaseElection(client, config, identity, wall, this::lead, this::follow);
            election.start();
        } else {
            lead();
        }
        LOG.info("{} ({}) started: plugins {}", config.schedulerName, identity,
                framework.profile().plugins().stream().map(p -> p.name()).toList());
    }

    private void listAndStartTimers() throws TimeoutException {
        probe = new ApiServerProbe(client, Duration.ofSeconds(5), wall).start();
        cache.start(this::changed, p -> {
            queue.remove(Snapshots.key(p));
            waits.reject(Snapshots.key(p), "the pod was deleted");
        }, Duration.ofSeconds(config.kubernetes.startupTimeoutSeconds));
        Daemons.every(permitTimer, 100, () -> waits.expire(clock.instant()),
                e -> LOG.error("Permit waits: unexpected failure while expiring them", e));
        Daemons.every(podGroupSync, POD_GROUP_SYNC_MILLIS, () -> {
            if (leading) {
                podGroups.sync();
            }
        }, e -> LOG.error("PodGroup status: unexpected failure in a pass", e));
        if (quotaStatus != null) {
            Daemons.every(quotaSync, QUOTA_STATUS_SYNC_MILLIS, () -> {
                if (leading) {
                    quotaStatus.sync();
                }
            }, e -> LOG.error("ElasticQuota status: unexpected failure in a pass", e));
        }
        if (quotaRevoker != null) {
            Daemons.every(quotaSync, quotaRevoker.intervalMillis(), () -> {
                if (leading) {
                    quotaRevoker.revoke();
                }
            }, e -> LOG.error("ElasticQuota revocation: unexpected failure in a round", e));
        }
    }

    private synchronized void lead() {
        if (leading || !lifecycle.started()) {
            return;
        }
        leading = true;
        loopBeat = System.nanoTime();
        Thread t = Daemons.named("k8s-scheduler-loop").newThread(this::run);
        loop = t;
        t.start();
        LOG.info("{} ({}) leads: binding pods", config.schedulerName, identity);
    }

    private synchronized void follow() {
        leading = false;
        waits.rejectAll("this replica no longer leads");
        LOG.info("{} ({}) no longer leads: not binding", config.schedulerName, identity);
    }

    public boolean leading() {
        return leading;
    }

    private void changed(Pod pod) {
        String key = Snapshots.key(pod);
        boolean pending = config.schedulerName.equals(pod.getSpec() == null ? null : pod.getSpec().getSchedulerName())
                && (pod.getSpec().getNodeName() == null || pod.getSpec().getNodeName().isEmpty())
                && pod.getMetadata().getDeletionTimestamp() == null && !PodPhases.ended(pod);
        if (pending) {
            queue.add(key, pod);
        } else {
            queue.remove(key);
        }
    }

    private void run() {
        while (leading && lifecycle.started() && Thread.currentThread() == loop) {
            loopBeat = System.nanoTime();
            try {
                requeue.run();
                // While pods wait for a change, look for one often: a node freed room meanwhile.
                Optional<Map.Entry<String, Pod>> next = queue.take(Duration.ofMillis(queue.anyUnschedulable() ? 50 : 500));
                if (next.isPresent() && leading) {
                    scheduling.scheduleOne(next.get().getKey());
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOG.error("scheduling loop: unexpected failure; going on with the next pod", e);
            }
        }
    }

    /** The cluster as this scheduler sees it now: its informers' Nodes, pods and NodeMetrics and its assumptions. */
    ClusterSnapshot observed() {
        return cache.snapshot(clock.instant());
    }

    private void permitted(PermitWaits.Entry e) {
        scheduling.permitted(e);
    }

    private void rejectedWhileWaiting(PermitWaits.Entry e, String reason) {
        scheduling.rejectedWhileWaiting(e, reason);
    }

    /** Null while this replica works; otherwise why it should be restarted (liveness). */
    public String notLive() {
        if (lifecycle.state() == Lifecycle.State.CLOSED) {
            return "the scheduler is closed";
        }
        long silent = System.nanoTime() - loopBeat;
        if (leading && silent > LOOP_STALL.toNanos()) {
            return "the scheduling loop has not come round for " + Duration.ofNanos(silent).toSeconds() + " s while leading ("
                    + queue.size() + " pods pending): a plugin or a binding hangs";
        }
        return null;
    }

    /**
     * Null while this replica can do its work; otherwise why not (readiness): still listing, the API server not
     * answering or not watched, or the Lease out of reach so that it cannot lead.
     */
    public String notReady() {
        if (lifecycle.state() == Lifecycle.State.LATENT) {
            return "starting: the first lists of Nodes, NodeMetrics and Pods are not in yet";
        }
        if (lifecycle.state() == Lifecycle.State.CLOSED) {
            return "the scheduler is closed";
        }
        String api = probe.problem(API_STALE);
        if (api != null) {
            return api;
        }
        List<String> down = cache.notWatching();
        if (!down.isEmpty()) {
            return "not watching " + String.join(", ", down) + " on " + client.getMasterUrl() + " (reconnecting)";
        }
        return election != null && !leading ? election.cannotLead() : null;
    }

    /** When a pod was last bound by this replica; null: never. */
    public Instant lastBound() {
        return scheduling.lastBound();
    }

    /** NodeMetrics that exist but cannot be read, and why (their nodes are treated as expired by LoadAware). */
    public Map<String, String> unreadableNodeMetrics() {
        return cache.unreadableMetrics();
    }

    /** Attempts, pods bound, unschedulable outcomes, the queue's length and the pods waiting at Permit now. */
    public Map<String, Long> counts() {
        return metrics.counts();
    }

    @Override
    public synchronized void close() {
        lifecycle.close();
        leading = false;
        if (election != null) {
            election.close();
        }
        if (loop != null) {
            loop.interrupt();
        }
        permitTimer.shutdownNow();
        podGroupSync.shutdownNow();
        if (quotaSync != null) {
            quotaSync.shutdownNow();
        }
        // A binding the API server is answering finishes and records its Event before the recorder closes (the waiting
        // ones see leading false and give their pods back); the pod is bound either way, its Event would be lost.
        binding.shutdown();
        try {
            if (!binding.awaitTermination(BIND_DRAIN.toMillis(), TimeUnit.MILLISECONDS)) {
                binding.shutdownNow();
            }
        } catch (InterruptedException e) {
            binding.shutdownNow();
            Thread.currentThread().interrupt();
        }
        events.close();
        if (evictionClient != null) {
            evictionClient.close();
        }
        cache.close();
        if (probe != null) {
            probe.close();
        }
    }
}
