package io.colocation.scheduler.service;

import io.colocation.api.InvalidInputException;
import io.colocation.scheduler.framework.NodeSearch;
import io.colocation.scheduler.framework.PodInfo;
import io.colocation.scheduler.framework.Profile;
import io.colocation.scheduler.framework.SchedulingCycle;
import io.colocation.scheduler.framework.Snapshots;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
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

    private final SchedulerConfig config;
    private final Profile profile;
    private final KubernetesClient client;
    private final Clock clock;
    private final String identity;
    private final ClusterCache cache;
    private final PendingQueue queue;
    private final Binder binder;
    private final EventRecorder events;
    /** Where the next search of a large cluster starts; only the scheduling loop uses it. */
    private final NodeSearch search = new NodeSearch();
    /** Bindings in flight at once: enough to keep the configured write rate busy while each waits for its answer. */
    private static final int BINDERS = 16;
    private final ExecutorService binding;
    private final AtomicLong attempts = new AtomicLong();
    private final AtomicLong bound = new AtomicLong();
    private final AtomicLong unschedulable = new AtomicLong();
    private final CollectorRegistry registry = new CollectorRegistry();
    private final Histogram attemptSeconds = Histogram.build("koord_scheduler_attempt_duration_seconds",
            "one pod's scheduling attempt (decision and binding), by result").labelNames("result")
            .buckets(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1).register(registry);
    private volatile State state = State.LATENT;
    private volatile boolean leading;
    private volatile Thread loop;
    private volatile CompletableFuture<?> election;

    public SchedulerService(SchedulerConfig config, Profile profile, KubernetesClient client, String identity, Clock clock) {
        this.config = config;
        this.profile = profile;
        this.client = client;
        this.identity = identity;
        this.clock = clock;
        this.cache = new ClusterCache(client, clock);
        this.queue = new PendingQueue(clock, Duration.ofMillis((long) (config.backoffInitialSeconds * 1000)),
                Duration.ofMillis((long) (config.backoffMaxSeconds * 1000)));
        // Bindings and Events each have the configured rate, as kube-scheduler's client and event client do.
        this.binder = new Binder(client, new WriteRate(config.clientQps, config.clientBurst));
        this.events = new EventRecorder(client, config.schedulerName, new WriteRate(config.clientQps, config.clientBurst), clock);
        this.binding = Executors.newFixedThreadPool(BINDERS, r -> {
            Thread t = new Thread(r, "k8s-scheduler-bind");
            t.setDaemon(true);
            return t;
        });
        new Collector() {
            @Override
            public List<MetricFamilySamples> collect() {
                return List.of(
                        new GaugeMetricFamily("koord_scheduler_pending_pods", "pods of this scheduler waiting for a node",
                                queue.size()),
                        new GaugeMetricFamily("koord_scheduler_leader", "1 while this replica holds the Lease and binds",
                                leading ? 1 : 0));
            }
        }.register(registry);
    }

    /** The Prometheus metrics: attempts by result with their latency, pending pods, leadership. */
    public CollectorRegistry registry() {
        return registry;
    }

    public synchronized void start() {
        if (state != State.LATENT) {
            throw new IllegalStateException("scheduler already " + state);
        }
        cache.start(this::changed, p -> queue.remove(Snapshots.key(p)));
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
                .withLock(new LeaseLock(config.leaderElection.leaseNamespace, config.leaderElection.leaseName, identity))
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
        Thread t = new Thread(this::run, "k8s-scheduler-loop");
        t.setDaemon(true);
        loop = t;
        t.start();
        LOG.info("{} ({}) leads: binding pods", config.schedulerName, identity);
    }

    private synchronized void follow() {
        leading = false;
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
        String result = attempt(key, start);
        if (result != null) {
            attemptSeconds.labels(result).observe((System.nanoTime() - start) / 1e9);
        }
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
        Optional<Gang> gang;
        try {
            gang = Gang.of(pod, cache::podGroup);
        } catch (Gang.Unusable e) {
            events.failed(pod, "gang: " + e.getMessage());
            queue.backoff(key);
            return "unschedulable";
        }
        if (gang.isPresent()) {
            return attemptGang(gang.get());
        }
        Instant now = clock.instant();
        PodInfo info;
        try {
            info = Snapshots.pod(pod, now, "Pod " + key + ": ");
        } catch (InvalidInputException e) {
            events.failed(pod, "cannot read the pod: " + e.getMessage());
            queue.backoff(key);
            return "error";
        }
        String selected = SchedulingCycle.select(profile, cache.snapshot(now), info, search);
        if (selected == null) {
            // The full cycle, every plugin on every node, only to tell the user why (as explain does).
            String summary = SchedulingCycle.decide(profile, cache.snapshot(now), info).unavailableSummary();
            unschedulable.incrementAndGet();
            LOG.info("pod {} is unschedulable: {}", key, summary);
            events.failed(pod, summary);
            queue.backoff(key);
            return "unschedulable";
        }
        try {
            cache.assume(pod, selected);
        } catch (InvalidInputException e) {
            events.failed(pod, "cannot read the pod: " + e.getMessage());
            queue.backoff(key);
            return "error";
        }
        // The next pod is decided while this one binds; the assumption keeps its room taken meanwhile.
        binding.execute(() -> bindAssumed(key, pod, selected, startNanos));
        return null;
    }

    private void bindAssumed(String key, Pod pod, String node, long startNanos) {
        if (!leading) {
            // Leadership went while this waited: the new leader decides the pod again.
            cache.forget(pod);
            queue.backoff(key);
            return;
        }
        Optional<String> failure = binder.bind(pod, node);
        if (failure.isPresent()) {
            cache.forget(pod);
            LOG.warn("pod {}: binding to {} failed: {}", key, node, failure.get());
            queue.backoff(key);
            attemptSeconds.labels("error").observe((System.nanoTime() - startNanos) / 1e9);
            return;
        }
        bound.incrementAndGet();
        queue.remove(key);
        events.scheduled(pod, node);
        LOG.debug("pod {} bound to {}", key, node);
        attemptSeconds.labels("scheduled").observe((System.nanoTime() - startNanos) / 1e9);
    }

    /**
     * A gang is placed whole in one go: every waiting member is decided on the snapshot with the members before it
     * assumed; only when at least minMember (less those already bound) fit are they bound, else every assumption is
     * released and each member says why. Strict and NonStrict behave alike here: nothing is bound for a gang that
     * does not fit, so nothing has to be taken back.
     */
    private String attemptGang(Gang gang) {
        ClusterCache.Members members = cache.members(gang, config.schedulerName);
        int need = Math.max(0, gang.minMember() - members.placed());
        if (members.pending().size() < need) {
            for (Pod p : members.pending()) {
                events.failed(p, "gang " + gang.id() + ": " + (members.pending().size() + members.placed()) + " of its "
                        + gang.minMember() + " members exist; waiting for the rest");
                queue.backoff(Snapshots.key(p));
            }
            return "unschedulable";
        }
        Instant now = clock.instant();
        List<Map.Entry<Pod, String>> placed = new java.util.ArrayList<>();
        String why = null;
        for (Pod p : members.pending()) {
            try {
                PodInfo info = Snapshots.pod(p, now, "Pod " + Snapshots.key(p) + ": ");
                String selected = SchedulingCycle.select(profile, cache.snapshot(now), info, search);
                if (selected != null) {
                    cache.assume(p, selected);
                    placed.add(Map.entry(p, selected));
                } else if (why == null) {
                    why = SchedulingCycle.decide(profile, cache.snapshot(now), info).unavailableSummary();
                }
            } catch (InvalidInputException e) {
                why = e.getMessage();
            }
        }
        if (placed.size() < need) {
            placed.forEach(e -> cache.forget(e.getKey()));
            unschedulable.incrementAndGet();
            String message = "gang " + gang.id() + " cannot be placed whole: " + placed.size() + " of the " + need
                    + " members it needs fit now; nothing is bound (" + why + ")";
            LOG.info("{}", message);
            for (Pod p : members.pending()) {
                events.failed(p, message);
                queue.backoff(Snapshots.key(p));
            }
            return "unschedulable";
        }
        for (Map.Entry<Pod, String> e : placed) {
            String k = Snapshots.key(e.getKey());
            Optional<String> failure = binder.bind(e.getKey(), e.getValue());
            if (failure.isPresent()) {
                cache.forget(e.getKey());
                LOG.warn("gang {}: binding {} to {} failed: {}", gang.id(), k, e.getValue(), failure.get());
                queue.backoff(k);
            } else {
                bound.incrementAndGet();
                queue.remove(k);
                events.scheduled(e.getKey(), e.getValue());
            }
        }
        LOG.info("gang {}: {} members bound together", gang.id(), placed.size());
        return "scheduled";
    }

    /** Attempts, pods bound, unschedulable outcomes, and the queue's length now. */
    public Map<String, Long> counts() {
        return Map.of("attempts", attempts.get(), "bound", bound.get(), "unschedulable", unschedulable.get(),
                "pending", (long) queue.size());
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
        binding.shutdownNow();
        events.close();
        cache.close();
    }
}
