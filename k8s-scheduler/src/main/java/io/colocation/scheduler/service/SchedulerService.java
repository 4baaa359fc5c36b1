package io.colocation.scheduler.service;

import io.colocation.api.concurrent.Daemons;

import io.colocation.api.InvalidInputException;
import io.colocation.kube.client.ApiServerProbe;
import io.colocation.kube.client.EventRecorder;
import java.util.concurrent.TimeoutException;
import io.colocation.scheduler.framework.NodeSearch;
import io.colocation.scheduler.framework.CycleState;
import io.colocation.scheduler.framework.Handle;
import io.colocation.scheduler.framework.PermitPlugin;
import io.colocation.scheduler.framework.PostFilterPlugin;
import io.colocation.scheduler.framework.PreFilterPlugin;
import io.colocation.scheduler.framework.ReservePlugin;
import io.colocation.scheduler.framework.Status;
import io.colocation.scheduler.framework.WaitingPods;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.Collection;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import io.colocation.scheduler.framework.PodInfo;
import io.colocation.scheduler.framework.Profile;
import io.colocation.scheduler.framework.SchedulingCycle;
import io.colocation.scheduler.framework.Snapshots;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import io.prometheus.client.Collector;
import io.prometheus.client.CollectorRegistry;
import io.prometheus.client.GaugeMetricFamily;
import io.prometheus.client.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler service: informers feed a queue of this scheduler's pending pods; while this replica holds the
 * Lease, one loop takes the next pod, decides it with the same {@link SchedulingCycle} as {@code explain} on the
 * cache's snapshot, assumes it onto the node and binds it, or writes a FailedScheduling Event and backs it off.
 * Lifecycle LATENT → STARTED → CLOSED.
 */
public final class SchedulerService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SchedulerService.class);

    public enum State { LATENT, STARTED, CLOSED }

    static final String FAILED_SCHEDULING = "FailedScheduling";

    private final SchedulerConfig config;
    private final Profile profile;
    private final KubernetesClient client;
    private final Clock clock;
    private final String identity;
    private final ClusterCache cache;
    private final PendingQueue queue;
    private final WriteRate writes;
    private final EventRecorder events;
    private final PermitWaits waits;
    private final ScheduledExecutorService permitTimer;
    /** PodGroup statuses, written by the leader on a thread of their own (a slow API server never delays Permit). */
    private final ScheduledExecutorService podGroupSync;
    private final PodGroupStatusController podGroups;
    static final long POD_GROUP_SYNC_MILLIS = 1_000;
    /** Where the next search of a large cluster starts; only the scheduling loop uses it. */
    private final NodeSearch search = new NodeSearch();
    /** Bindings in flight at once: enough to keep the configured write rate busy while each waits for its answer. */
    private static final int BINDERS = 16;
    private final ExecutorService binding;
    private final AtomicLong attempts = new AtomicLong();
    private final AtomicLong bound = new AtomicLong();
    private final AtomicLong unschedulable = new AtomicLong();
    private final AtomicLong errors = new AtomicLong();
    private final CollectorRegistry registry = new CollectorRegistry();
    private final Histogram attemptSeconds = Histogram.build("koord_scheduler_attempt_duration_seconds",
            "one pod's scheduling attempt (decision and binding), by result").labelNames("result")
            .buckets(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1).register(registry);
    private volatile State state = State.LATENT;
    private volatile boolean leading;
    /** The loop's last round (System.nanoTime); it comes round at least every half second while it leads. */
    private volatile long loopBeat = System.nanoTime();
    private volatile Instant lastBound;
    private final Instant created;
    private ApiServerProbe probe;
    private ObservedLease lease;
    /** A leading loop silent this long is stuck: liveness fails so the kubelet restarts the replica. */
    static final Duration LOOP_STALL = Duration.ofSeconds(60);
    /** An API server silent this long makes the replica unready. */
    static final Duration API_STALE = Duration.ofSeconds(20);
    private volatile Thread loop;
    private volatile CompletableFuture<?> election;

    /** Builds the scheduler's profile for the plugins' handle on the cluster. */
    @FunctionalInterface
    public interface ProfileFactory {
        Profile create(Handle handle) throws InvalidInputException;
    }

    /** @throws InvalidInputException when the profile cannot be built (its configuration is wrong) */
    public SchedulerService(SchedulerConfig config, ProfileFactory profiles, KubernetesClient client, String identity, Clock clock)
            throws InvalidInputException {
        this.config = config;
        this.client = client;
        this.identity = identity;
        this.clock = clock;
        this.created = clock.instant();
        this.cache = new ClusterCache(client, clock);
        // Bindings and Events each have the configured rate, as kube-scheduler's client and event client do.
        this.writes = new WriteRate(config.clientQps, config.clientBurst);
        this.waits = new PermitWaits(this::permitted, this::rejectedWhileWaiting);
        this.profile = profiles.create(new Handle() {
            @Override
            public KubernetesClient client() {
                return client;
            }

            @Override
            public boolean writeToken() {
                return writes.acquire();
            }

            @Override
            public Collection<Pod> pods() {
                return cache.pods();
            }

            @Override
            public boolean assumed(String podKey) {
                return cache.assumed(podKey);
            }

            @Override
            public GenericKubernetesResource podGroup(String namespace, String name) {
                return cache.podGroup(namespace, name);
            }

            @Override
            public WaitingPods waitingPods() {
                return waits;
            }
        });
        if (profile.binds().isEmpty()) {
            throw new InvalidInputException("profile " + profile.schedulerName() + ": no bind plugin enabled (DefaultBinder)");
        }
        this.queue = new PendingQueue(profile.queueSort(), clock, Duration.ofMillis((long) (config.backoffInitialSeconds * 1000)),
                Duration.ofMillis((long) (config.backoffMaxSeconds * 1000)));
        this.permitTimer = Executors.newSingleThreadScheduledExecutor(Daemons.named("k8s-scheduler-permit-timer"));
        this.podGroupSync = Executors.newSingleThreadScheduledExecutor(Daemons.named("k8s-scheduler-podgroup-status"));
        this.podGroups = new PodGroupStatusController(client, cache::pods, clock);
        this.events = new EventRecorder(client, config.schedulerName, clock, new WriteRate(config.clientQps, config.clientBurst)::acquire);
        this.binding = Executors.newFixedThreadPool(BINDERS, Daemons.named("k8s-scheduler-bind"));
        new Collector() {
            @Override
            public List<MetricFamilySamples> collect() {
                return List.of(
                        new GaugeMetricFamily("koord_scheduler_pending_pods", "pods of this scheduler waiting for a node",
                                queue.size()),
                        new GaugeMetricFamily("koord_scheduler_permit_waiting_pods",
                                "pods reserved on a node and waiting at Permit (gang members)", waits.size()),
                        new GaugeMetricFamily("koord_scheduler_leader", "1 while this replica holds the Lease and binds",
                                leading ? 1 : 0));
            }
        }.register(registry);
    }

    /** The Prometheus metrics: attempts by result with their latency, pending pods, leadership. */
    public CollectorRegistry registry() {
        return registry;
    }

    /**
     * Lists the cluster (within {@code kubernetes.startupTimeoutSeconds}), then schedules while it leads.
     *
     * @throws TimeoutException when the API server did not list in time (the message names it and what)
     */
    public synchronized void start() throws TimeoutException {
        if (state != State.LATENT) {
            throw new IllegalStateException("scheduler already " + state);
        }
        probe = new ApiServerProbe(client, Duration.ofSeconds(5), clock).start();
        cache.start(this::changed, p -> {
            queue.remove(Snapshots.key(p));
            waits.reject(Snapshots.key(p), "the pod was deleted");
        }, Duration.ofSeconds(config.kubernetes.startupTimeoutSeconds));
        permitTimer.scheduleWithFixedDelay(() -> {
            try {
                waits.expire(clock.instant());
            } catch (RuntimeException e) {
                LOG.error("Permit waits: unexpected failure while expiring them", e);
            }
        }, 100, 100, TimeUnit.MILLISECONDS);
        podGroupSync.scheduleWithFixedDelay(() -> {
            try {
                if (leading) {
                    podGroups.sync();
                }
            } catch (RuntimeException e) {
                LOG.error("PodGroup status: unexpected failure in a pass", e);
            }
        }, POD_GROUP_SYNC_MILLIS, POD_GROUP_SYNC_MILLIS, TimeUnit.MILLISECONDS);
        state = State.STARTED;
        if (config.leaderElection.enabled) {
            elect();
        } else {
            lead();
        }
        LOG.info("{} ({}) started: plugins {}", config.schedulerName, identity,
                profile.plugins().stream().map(p -> p.name()).toList());
    }

    /** Competes for the Lease; on losing it, stops binding and competes again. */
    private void elect() {
        LeaderElectionConfigBuilder b = new LeaderElectionConfigBuilder()
                .withName(config.leaderElection.leaseName)
                .withLock(lease = new ObservedLease(config.leaderElection.leaseNamespace, config.leaderElection.leaseName, identity,
                        clock))
                .withLeaseDuration(Duration.ofSeconds(config.leaderElection.leaseDurationSeconds))
                .withRenewDeadline(Duration.ofSeconds(config.leaderElection.renewDeadlineSeconds))
                .withRetryPeriod(Duration.ofSeconds(config.leaderElection.retryPeriodSeconds))
                .withReleaseOnCancel(true)
                .withLeaderCallbacks(new LeaderCallbacks(this::lead, this::follow,
                        leader -> LOG.info("{}: the leader is {}", config.schedulerName, leader)));
        election = client.leaderElector().withConfig(b.build()).build().start();
        election.whenComplete((r, e) -> {
            if (state == State.STARTED) {
                elect();
            }
        });
    }

    private synchronized void lead() {
        if (leading || state != State.STARTED) {
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
                && pod.getMetadata().getDeletionTimestamp() == null && !Snapshots.terminated(pod);
        if (pending) {
            queue.add(key, pod);
        } else {
            queue.remove(key);
        }
    }

    private void run() {
        while (leading && state == State.STARTED && Thread.currentThread() == loop) {
            loopBeat = System.nanoTime();
            try {
                Optional<Map.Entry<String, Pod>> next = queue.take(Duration.ofMillis(500));
                if (next.isPresent() && leading) {
                    scheduleOne(next.get().getKey());
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOG.error("scheduling loop: unexpected failure; going on with the next pod", e);
            }
        }
    }

    private void scheduleOne(String key) {
        long start = System.nanoTime();
        String result;
        try {
            result = attempt(key, start);
        } catch (RuntimeException e) {
            result = failed(key, e);
        }
        if (result != null) {
            attemptSeconds.labels(result).observe((System.nanoTime() - start) / 1e9);
        }
    }

    /**
     * An attempt that failed with a bug (a plugin's exception): the pod's room is released, it is told why, backed off
     * and tried again later, like an unschedulable pod; the loop goes on with the next one.
     */
    private String failed(String key, RuntimeException e) {
        LOG.error("pod {}: the scheduling attempt failed; it is backed off and tried again", key, e);
        errors.incrementAndGet();
        Pod pod = cache.current(key);
        if (pod != null && !waits.contains(key)) {
            cache.forget(pod);
        }
        if (pod != null) {
            events.warning(EventRecorder.Involved.of(pod), FAILED_SCHEDULING, "the scheduler failed on this pod (" + e
                    + "); it will try again", null);
        }
        queue.backoff(key);
        return "error";
    }

    /**
     * One attempt; returns its result for the metrics ({@code scheduled}, {@code unschedulable}, {@code error}), null
     * if void or if a binding was started (its end records the result).
     */
    private String attempt(String key, long startNanos) {
        Pod pod = cache.current(key);
        if (pod == null || pod.getSpec().getNodeName() != null && !pod.getSpec().getNodeName().isEmpty()) {
            queue.remove(key);
            return null;
        }
        attempts.incrementAndGet();
        Instant now = clock.instant();
        PodInfo info;
        try {
            info = Snapshots.pod(pod, now, "Pod " + key + ": ");
        } catch (InvalidInputException e) {
            events.warning(EventRecorder.Involved.of(pod), FAILED_SCHEDULING, "cannot read the pod: " + e.getMessage(), null);
            queue.backoff(key);
            return "error";
        }
        CycleState state = new CycleState(cache.snapshot(now));
        for (PreFilterPlugin p : profile.preFilters()) {
            Status s = p.preFilter(state, info);
            if (!s.success()) {
                return unschedulable(key, pod, String.join(", ", s.reasons()));
            }
        }
        String selected = SchedulingCycle.select(profile, state, info, search);
        if (selected == null) {
            // The full cycle, every plugin on every node, only to tell the user why (as explain does).
            String summary = SchedulingCycle.decide(profile, state.snapshot(), info).unavailableSummary();
            for (PostFilterPlugin p : profile.postFilters()) {
                p.postFilter(state, info, summary);
            }
            return unschedulable(key, pod, summary);
        }
        cache.assume(info, selected);
        for (ReservePlugin r : profile.reserves()) {
            Status s = r.reserve(state, info, selected);
            if (!s.success()) {
                release(state, info, selected);
                return unschedulable(key, pod, String.join(", ", s.reasons()));
            }
        }
        Duration wait = null;
        String waitingFor = null;
        for (PermitPlugin p : profile.permits()) {
            PermitPlugin.Permit permit = p.permit(state, info, selected);
            if (!permit.status().success()) {
                release(state, info, selected);
                return unschedulable(key, pod, String.join(", ", permit.status().reasons()));
            }
            if (permit.waiting() && (wait == null || permit.timeout().compareTo(wait) > 0)) {
                wait = permit.timeout();
                waitingFor = p.name() + ": " + permit.waitingFor();
            }
        }
        PermitWaits.Entry entry = new PermitWaits.Entry(info, state, selected, now.plus(wait == null ? Duration.ZERO : wait),
                waitingFor, startNanos);
        if (wait != null) {
            LOG.info("pod {} reserved on {}, waiting up to {} s at Permit ({})", key, selected, wait.toSeconds(), waitingFor);
            waits.add(entry);
            return null;
        }
        // The next pod is decided while this one binds; the assumption keeps its room taken meanwhile.
        permitted(entry);
        return null;
    }

    private String unschedulable(String key, Pod pod, String why) {
        unschedulable.incrementAndGet();
        LOG.info("pod {} is unschedulable: {}", key, why);
        events.warning(EventRecorder.Involved.of(pod), FAILED_SCHEDULING, why, null);
        queue.backoff(key);
        return "unschedulable";
    }

    /** Undoes a reservation: every reserve plugin's unreserve, in reverse, then the assumption. */
    private void release(CycleState state, PodInfo info, String node) {
        List<ReservePlugin> reserves = profile.reserves();
        for (int i = reserves.size() - 1; i >= 0; i--) {
            reserves.get(i).unreserve(state, info, node);
        }
        cache.forget(info.pod());
    }

    private void permitted(PermitWaits.Entry e) {
        binding.execute(() -> bindReserved(e));
    }

    /** A pod waiting at Permit was rejected or its wait ran out: its room is released and it is tried again later. */
    private void rejectedWhileWaiting(PermitWaits.Entry e, String reason) {
        release(e.state(), e.pod(), e.node());
        if (!leading || cache.current(e.pod().key()) == null) {
            queue.backoff(e.pod().key()); // not this replica's to report, or nobody left to tell
            return;
        }
        unschedulable(e.pod().key(), e.pod().pod(), reason);
        attemptSeconds.labels("unschedulable").observe((System.nanoTime() - e.startNanos()) / 1e9);
    }

    private void bindReserved(PermitWaits.Entry e) {
        String key = e.pod().key();
        Pod pod = e.pod().pod();
        if (!leading) {
            // Leadership went while this waited: the new leader decides the pod again.
            release(e.state(), e.pod(), e.node());
            queue.backoff(key);
            return;
        }
        Status s = profile.binds().get(0).bind(e.state(), e.pod(), e.node());
        if (!s.success()) {
            release(e.state(), e.pod(), e.node());
            LOG.warn("pod {}: binding to {} failed: {}", key, e.node(), String.join(", ", s.reasons()));
            queue.backoff(key);
            attemptSeconds.labels("error").observe((System.nanoTime() - e.startNanos()) / 1e9);
            return;
        }
        bound.incrementAndGet();
        lastBound = clock.instant();
        queue.remove(key);
        events.normal(EventRecorder.Involved.of(pod), "Scheduled", "Successfully assigned " + key + " to " + e.node(), null);
        LOG.debug("pod {} bound to {}", key, e.node());
        attemptSeconds.labels("scheduled").observe((System.nanoTime() - e.startNanos()) / 1e9);
    }

    /** Null while this replica works; otherwise why it should be restarted (liveness). */
    public String notLive() {
        if (state == State.CLOSED) {
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
        if (state == State.LATENT) {
            return "starting: the first lists of Nodes, NodeMetrics and Pods are not in yet";
        }
        if (state == State.CLOSED) {
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
        if (config.leaderElection.enabled && !leading) {
            Instant last = lease.lastSuccess();
            Duration limit = Duration.ofSeconds(2L * config.leaderElection.leaseDurationSeconds);
            Instant now = clock.instant();
            if (Duration.between(last == null ? created : last, now).compareTo(limit) > 0) {
                return "cannot lead: the Lease " + config.leaderElection.leaseNamespace + "/" + config.leaderElection.leaseName
                        + (last == null ? " was never read" : " was last read " + Duration.between(last, now).toSeconds() + " s ago")
                        + (lease.lastError() == null ? "" : ": " + lease.lastError());
            }
        }
        return null;
    }

    /** When a pod was last bound by this replica; null: never. */
    public Instant lastBound() {
        return lastBound;
    }

    /** NodeMetrics that exist but cannot be read, and why (their nodes are treated as expired by LoadAware). */
    public Map<String, String> unreadableNodeMetrics() {
        return cache.unreadableMetrics();
    }

    /** Attempts, pods bound, unschedulable outcomes, the queue's length and the pods waiting at Permit now. */
    public Map<String, Long> counts() {
        return Map.of("attempts", attempts.get(), "bound", bound.get(), "unschedulable", unschedulable.get(),
                "errors", errors.get(), "pending", (long) queue.size(), "waiting", (long) waits.size());
    }

    @Override
    public synchronized void close() {
        state = State.CLOSED;
        leading = false;
        if (election != null) {
            election.cancel(true);
        }
        if (loop != null) {
            loop.interrupt();
        }
        permitTimer.shutdownNow();
        podGroupSync.shutdownNow();
        binding.shutdownNow();
        events.close();
        cache.close();
        if (probe != null) {
            probe.close();
        }
    }
}
