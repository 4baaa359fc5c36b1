package io.colocation.scheduler.plugins.elasticquota;

import io.colocation.api.InvalidInputException;
import io.colocation.model.pod.PodPhases;
import io.colocation.quota.ElasticQuotaSpec;
import io.colocation.quota.QuotaAdmission;
import io.colocation.quota.QuotaBook;
import io.colocation.quota.QuotaDirectory;
import io.colocation.quota.QuotaForest;
import io.colocation.quota.QuotaPod;
import io.colocation.quota.QuotaRuntime;
import io.colocation.quota.QuotaStatus;
import io.colocation.quota.QuotaUsage;
import io.colocation.quota.ResourceAmounts;
import io.colocation.scheduler.framework.CycleState;
import io.colocation.scheduler.framework.Handle;
import io.colocation.scheduler.framework.PodInfo;
import io.colocation.scheduler.framework.PostFilterPlugin;
import io.colocation.scheduler.framework.PreFilterPlugin;
import io.colocation.scheduler.framework.ReservePlugin;
import io.colocation.scheduler.framework.Snapshots;
import io.colocation.scheduler.framework.Status;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Koordinator's ElasticQuota plugin (docs/koordinator-compatibility.md §15.4): every pod belongs to one quota of the
 * tree; PreFilter admits it only while its quota's used plus its request stays within the quota's runtime (a
 * non-preemptible pod also within min; the ancestors too with {@code enableCheckParentQuota}); Reserve counts the pod
 * as used, Unreserve takes it back; PostFilter preempts lower-priority pods of the pod's own quota. The quotas' runtimes are recomputed when a request, a quota or the cluster's
 * total changes, not for each pod placed: placing a pod changes what is used, not what is asked.
 *
 * <p>A tree with a {@code tree-id} and its root (Koordinator's {@code MultiQuotaTree}; a tree over Batch, docs/quota.md)
 * is not computed here: its runtimes come from both sides' demand, which the broker's leader has, and it writes each
 * of the tree's quotas' {@code runtime} annotation. A pod of such a quota is admitted while its quota's used plus its
 * request stays within that runtime; until the broker has written it, the pod waits.
 */
public final class ElasticQuota implements PreFilterPlugin, PostFilterPlugin, ReservePlugin {
    public static final String NAME = "ElasticQuota";
    private static final Logger LOG = LoggerFactory.getLogger(ElasticQuota.class);

    private final ElasticQuotaArgs args;
    private final Handle.ElasticQuotas source;
    // Guarded by this: the informer's thread charges pods, the scheduling thread reads and reserves.
    private final QuotaBook book;
    private final Set<String> reserved = new HashSet<>();
    private long directoryVersion = -1;
    private Map<String, String> unreadable = Map.of();
    private Map<GenericKubernetesResource, Read> reads = Map.of();
    private QuotaRuntime runtime;
    private Map<String, Long> runtimeTotal;
    // The quotas this plugin computes (the default tree), and each tree quota's runtime as the broker published it
    // (null: not yet), by name.
    private QuotaDirectory computed;
    private Map<String, TreeQuota> treeQuotas = Map.of();
    // Quotas whose objects were read again since the runtime was last brought up to date.
    private final Set<String> respecified = new HashSet<>();

    public ElasticQuota(ElasticQuotaArgs args, Handle handle) {
        this.args = args;
        this.book = new QuotaBook(directory(List.of()));
        this.computed = book.directory();
        // No handle: a profile built for explain without a cluster, whose ElasticQuota never runs.
        this.source = handle == null ? null : handle.elasticQuotas();
        if (handle != null) {
            handle.watchPods(new Handle.PodListener() {
                @Override
                public void changed(Pod pod) {
                    charge(pod);
                }

                @Override
                public void gone(Pod pod) {
                    forget(Snapshots.key(pod));
                }
            });
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    public ElasticQuotaArgs args() {
        return args;
    }

    private QuotaDirectory directory(List<ElasticQuotaSpec> quotas) {
        return QuotaDirectory.of(quotas, args.quotaGroupNamespace(), args.systemQuotaGroupMax(), args.defaultQuotaGroupMax());
    }

    private synchronized void charge(Pod pod) {
        String key = Snapshots.key(pod);
        if (PodPhases.ended(pod)) {
            forget(key);
            return;
        }
        boolean onNode = pod.getSpec() != null && pod.getSpec().getNodeName() != null && !pod.getSpec().getNodeName().isEmpty();
        if (onNode) {
            reserved.remove(key); // bound: the informer has it now
        }
        try {
            book.put(QuotaPod.of(key, pod, onNode || reserved.contains(key)));
        } catch (InvalidInputException e) {
            forget(key);
            LOG.warn("a pod the scheduler cannot read counts in no quota: {}", e.getMessage());
        }
    }

    private synchronized void forget(String key) {
        reserved.remove(key);
        book.remove(key);
    }

    /**
     * The quotas as the source has them now; an unreadable one is left out, named in the log (once per version) and in
     * {@link #view}. An object is read again only when the source hands out another one in its place (an informer's
     * store keeps the same object until it changes), so a change costs one object's reading, not a thousand.
     */
    private void refreshDirectory() {
        if (source == null || source.version() == directoryVersion) {
            return;
        }
        directoryVersion = source.version();
        Collection<GenericKubernetesResource> objects = source.objects();
        List<ElasticQuotaSpec> specs = new ArrayList<>(objects.size());
        Map<String, String> bad = new TreeMap<>();
        Map<GenericKubernetesResource, Read> now = new IdentityHashMap<>(objects.size());
        for (GenericKubernetesResource o : objects) {
            Read r = reads.get(o);
            if (r == null) {
                r = read(o);
                respecified.add(o.getMetadata().getName());
            }
            now.put(o, r);
            if (r.spec() != null) {
                specs.add(r.spec());
            } else {
                bad.put(o.getMetadata().getNamespace() + "/" + o.getMetadata().getName(), r.error());
            }
        }
        reads = now;
        unreadable = bad;
        book.directory(directory(specs)); // pods resolve over every quota; its problems are the tree's too: runtime() logs them
        QuotaForest forest = QuotaForest.of(specs);
        Map<String, TreeQuota> trees = new java.util.HashMap<>();
        for (QuotaForest.Tree t : forest.trees().values()) {
            for (ElasticQuotaSpec q : t.members()) {
                trees.put(q.name(), new TreeQuota(q, t.treeId(), null));
            }
        }
        for (Read r : now.values()) {
            TreeQuota t = r.spec() == null ? null : trees.get(r.spec().name());
            if (t != null && t.spec().equals(r.spec())) {
                trees.put(t.spec().name(), new TreeQuota(t.spec(), t.treeId(), r.runtime()));
            }
        }
        treeQuotas = trees;
        computed = directory(specs.stream().filter(q -> !trees.containsKey(q.name())).toList());
    }

    /** One ElasticQuota object as read: its spec and the runtime annotation written on it (null: none), or why it does not read. */
    private record Read(ElasticQuotaSpec spec, ResourceAmounts runtime, String error) {
    }

    /** A quota of a tree the broker computes: its spec and the runtime it published, null until it has. */
    private record TreeQuota(ElasticQuotaSpec spec, String treeId, ResourceAmounts runtime) {
    }

    private static Read read(GenericKubernetesResource o) {
        String name = o.getMetadata().getNamespace() + "/" + o.getMetadata().getName();
        try {
            com.fasterxml.jackson.databind.JsonNode object = Serialization.jsonMapper().valueToTree(o);
            ElasticQuotaSpec spec = ElasticQuotaSpec.read(object);
            if (spec.sharedWeightNote() != null) {
                LOG.info("ElasticQuota {}: {}", name, spec.sharedWeightNote());
            }
            return new Read(spec, QuotaStatus.runtimeOf(object), null);
        } catch (InvalidInputException e) {
            LOG.warn("an ElasticQuota the scheduler cannot read is left out of the tree (its pods go to {}): {}",
                    QuotaDirectory.DEFAULT, e.getMessage());
            return new Read(null, null, e.getMessage());
        }
    }

    /**
     * The tree on {@code total}, brought up to date only when a quota, a request or the total changed, and then only in
     * what the change affects ({@link QuotaRuntime#updated}).
     */
    private QuotaRuntime runtime(Map<String, Long> total) {
        refreshDirectory();
        Set<String> changed = new HashSet<>(book.takeChangedRequests());
        changed.addAll(respecified);
        respecified.clear();
        boolean any = !changed.isEmpty();
        changed.removeIf(treeQuotas::containsKey); // the broker computes those
        if (runtime == null || any || !total.equals(runtimeTotal)) {
            QuotaRuntime next = runtime == null
                    ? QuotaRuntime.compute(computed, book::usage, ResourceAmounts.of(total), args.enableMinQuotaScale())
                    : runtime.updated(computed, changed, book::usage, ResourceAmounts.of(total));
            if (runtime == null || !next.problems().equals(runtime.problems())) {
                next.problems().forEach((q, why) -> LOG.warn("ElasticQuota {} is left out of the tree: {}", q, why));
            }
            runtime = next;
            runtimeTotal = total;
        }
        return runtime;
    }

    /**
     * The tree on {@code total} as it stands, with each quota's usage now (its subtree's; pods placed since the tree was
     * computed included); for the status writer, the revocation and explain.
     */
    public synchronized View view(Map<String, Long> total) {
        QuotaRuntime tree = runtime(total);
        Map<String, String> problems = new TreeMap<>(unreadable);
        problems.putAll(tree.problems());
        Map<String, QuotaUsage> usage = new LinkedHashMap<>();
        for (QuotaRuntime.Entry e : tree.entries()) {
            usage.put(e.spec().name(), tree.usage(e.spec().name(), book::usage));
        }
        return new View(tree, problems, usage);
    }

    /** The quota's own preemptible pods on nodes now (asked only of a quota due for revocation). */
    public synchronized List<QuotaPod> assignedPreemptible(String quota) {
        return book.assignedPreemptible(quota);
    }

    /** The quota the pod belongs to, as the quotas are now. */
    public synchronized String quotaOf(PodInfo pod) {
        refreshDirectory();
        return book.directory().quotaOf(pod.pod().getMetadata().getNamespace(), pod.pod().getMetadata().getLabels());
    }

    /**
     * The tree and the quotas left out of it, with why.
     *
     * @param usage each quota of the tree's usage now, in tree order
     */
    public record View(QuotaRuntime runtime, Map<String, String> problems, Map<String, QuotaUsage> usage) {
    }

    @Override
    public synchronized Status preFilter(CycleState state, PodInfo pod) {
        QuotaRuntime tree = runtime(state.snapshot().order().allocatableTotal());
        String quota = quotaOf(pod);
        TreeQuota inTree = treeQuotas.get(quota);
        if (inTree != null) {
            if (inTree.spec().yarnQueue() != null) {
                return Status.unschedulable("quota " + quota + " is a YARN leaf of tree " + inTree.treeId() + " (queue "
                        + inTree.spec().yarnQueue() + "): its runtime is YARN's, it admits no pods");
            }
            if (inTree.runtime() == null) {
                return Status.unschedulable("quota " + quota + " is in tree " + inTree.treeId() + ", whose runtimes the broker's "
                        + "leader writes (annotation " + QuotaStatus.RUNTIME + "): none yet");
            }
            String refused = QuotaAdmission.within(quota, inTree.runtime(), inTree.spec().min(), book.usage(quota),
                    ResourceAmounts.of(pod.requests()), QuotaDirectory.nonPreemptible(pod.pod().getMetadata().getLabels()));
            return refused == null ? Status.SUCCESS : Status.unschedulable(refused);
        }
        String refused = QuotaAdmission.check(tree, q -> tree.usage(q, book::usage), quota, ResourceAmounts.of(pod.requests()),
                QuotaDirectory.nonPreemptible(pod.pod().getMetadata().getLabels()), args.enableRuntimeQuota(),
                args.enableCheckParentQuota());
        return refused == null ? Status.SUCCESS : Status.unschedulable(refused);
    }

    /** Preemption within the pod's quota ({@link QuotaPreemption}); none in the default quota with {@code disableDefaultQuotaPreemption}. */
    @Override
    public synchronized Optional<Nomination> postFilter(CycleState state, PodInfo pod, String why) {
        QuotaRuntime tree = runtime(state.snapshot().order().allocatableTotal());
        String quota = quotaOf(pod);
        QuotaRuntime.Entry e = tree.get(quota);
        if (e == null || args.disableDefaultQuotaPreemption() && quota.equals(QuotaDirectory.DEFAULT)) {
            return Optional.empty();
        }
        QuotaDirectory directory = book.directory();
        return QuotaPreemption.nominate(state, pod, quota, p -> directory.quotaOf(p.pod().getMetadata().getNamespace(),
                p.pod().getMetadata().getLabels()), tree.usage(quota, book::usage).used(),
                args.enableRuntimeQuota() ? e.state().runtime() : e.spec().max(), e.spec().max().names());
    }

    @Override
    public synchronized Status reserve(CycleState state, PodInfo pod, String node) {
        reserved.add(pod.key());
        if (!book.assign(pod.key(), true)) {
            book.put(new QuotaPod(pod.key(), pod.pod().getMetadata().getNamespace(), pod.pod().getMetadata().getLabels(),
                    ResourceAmounts.of(pod.requests()), true));
        }
        return Status.SUCCESS;
    }

    @Override
    public synchronized void unreserve(CycleState state, PodInfo pod, String node) {
        if (reserved.remove(pod.key())) {
            book.assign(pod.key(), false);
        }
    }
}
