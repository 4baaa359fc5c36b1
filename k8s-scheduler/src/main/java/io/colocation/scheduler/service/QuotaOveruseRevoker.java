package io.colocation.scheduler.service;

import io.colocation.kube.client.EventRecorder;
import io.colocation.model.pod.PodImportance;
import io.colocation.quota.QuotaAdmission;
import io.colocation.quota.QuotaDirectory;
import io.colocation.quota.QuotaOveruse;
import io.colocation.quota.QuotaPod;
import io.colocation.quota.QuotaRevocation;
import io.colocation.quota.QuotaRuntime;
import io.colocation.quota.QuotaTree;
import io.colocation.quota.ResourceAmounts;
import io.colocation.scheduler.plugins.elasticquota.ElasticQuota;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Koordinator's QuotaOverUsedRevokeController (docs/koordinator-compatibility.md §15.4), run by the leader every
 * {@code revokePodInterval} when {@code monitorAllQuotas} and {@code enableRuntimeQuota} are on: a quota (not the root,
 * not the system quota) whose used has exceeded its runtime for longer than {@code delayEvictTime} loses its least
 * important preemptible pods ({@link QuotaRevocation}) through the Eviction API, so PodDisruptionBudgets hold; a
 * refused eviction is retried after the next delay. Each evicted pod gets a Warning Event saying why. A pod already
 * terminating still counts as used (as in Koordinator) but is taken as gone when choosing victims, so a slow graceful
 * stop does not make the next round evict a more important pod in its place (Koordinator would).
 */
final class QuotaOveruseRevoker {
    private static final Logger LOG = LoggerFactory.getLogger(QuotaOveruseRevoker.class);

    private final ElasticQuota plugin;
    private final Supplier<Map<String, Long>> clusterTotal;
    private final Function<String, Pod> currentPod;
    private final Evict evict;
    private final EventRecorder events;
    private final Clock clock;
    private final QuotaOveruse timers;

    /** Evicts one pod: empty when done, else why not. */
    @FunctionalInterface
    interface Evict {
        Optional<String> evict(String namespace, String name);
    }

    QuotaOveruseRevoker(ElasticQuota plugin, Supplier<Map<String, Long>> clusterTotal, Function<String, Pod> currentPod, Evict evict,
            EventRecorder events, Clock clock) {
        this.plugin = plugin;
        this.clusterTotal = clusterTotal;
        this.currentPod = currentPod;
        this.evict = evict;
        this.events = events;
        this.clock = clock;
        this.timers = new QuotaOveruse(plugin.args().delayEvictTime());
    }

    /** Whether the args ask for revocation at all (Koordinator starts the controller only then). */
    static boolean enabled(ElasticQuota plugin) {
        return plugin.args().monitorAllQuotas() && plugin.args().enableRuntimeQuota();
    }

    /** {@code revokePodInterval}: how often a round runs. */
    long intervalMillis() {
        return plugin.args().revokePodInterval().toMillis();
    }

    /** One round; returns the pods evicted. */
    List<String> revoke() {
        ElasticQuota.View view = plugin.view(clusterTotal.get());
        Instant now = clock.instant();
        Set<String> seen = new HashSet<>();
        List<String> evicted = new ArrayList<>();
        for (QuotaRuntime.Entry e : view.runtime().entries()) {
            String quota = e.spec().name();
            if (quota.equals(QuotaTree.ROOT) || quota.equals(QuotaDirectory.SYSTEM)) {
                continue;
            }
            seen.add(quota);
            ResourceAmounts used = view.usage().get(quota).used();
            ResourceAmounts runtime = e.state().runtime();
            if (!timers.due(quota, QuotaOveruse.overused(used, runtime), now)) {
                continue;
            }
            Map<String, Pod> pods = new HashMap<>();
            List<QuotaRevocation.Candidate> candidates = new ArrayList<>();
            ResourceAmounts staying = used;
            for (QuotaPod p : plugin.assignedPreemptible(quota)) {
                Pod pod = currentPod.apply(p.key());
                if (pod == null) {
                    continue;
                }
                if (pod.getMetadata().getDeletionTimestamp() != null) {
                    staying = staying.minus(p.request().masked(runtime.names())); // already going: no second victim for it
                } else {
                    pods.put(p.key(), pod);
                    candidates.add(candidate(p, pod, now));
                }
            }
            List<QuotaRevocation.Candidate> victims = QuotaRevocation.victims(staying, runtime, candidates);
            String why = "ElasticQuota " + quota + " has used " + QuotaAdmission.print(used) + " over its runtime "
                    + QuotaAdmission.print(runtime) + " for longer than delayEvictTime " + plugin.args().delayEvictTime().toSeconds() + "s";
            LOG.info("{}: revoking {} of its {} preemptible pods on nodes", why, victims.size(), candidates.size());
            for (QuotaRevocation.Candidate v : victims) {
                Pod pod = pods.get(v.key());
                Optional<String> refused = evict.evict(pod.getMetadata().getNamespace(), pod.getMetadata().getName());
                if (refused.isPresent()) {
                    LOG.warn("{}: pod {} not revoked: {} (tried again after the next delay)", why, v.key(), refused.get());
                } else {
                    evicted.add(v.key());
                    events.warning(EventRecorder.Involved.of(pod), QuotaRevocation.EVENT_REASON, "evicted by the scheduler: " + why, null);
                }
            }
        }
        timers.retain(seen);
        return evicted;
    }

    private static QuotaRevocation.Candidate candidate(QuotaPod p, Pod pod, Instant now) {
        return new QuotaRevocation.Candidate(p.key(), PodImportance.priority(pod), PodImportance.started(pod, now), p.request());
    }
}
