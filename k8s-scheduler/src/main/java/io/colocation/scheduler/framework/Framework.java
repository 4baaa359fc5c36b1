package io.colocation.scheduler.framework;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one runtime of a profile's extension points (kube-scheduler's {@code frameworkImpl} and the scheduling cycle of
 * {@code schedule_one.go}): PreFilter, Filter and Score (through a {@link NodeSelector}), PostFilter when no node fits,
 * the assumption, Reserve, Permit, and after the wait Bind, with Unreserve undoing a reservation. The running scheduler
 * and {@code explain} both run it; only their selector and assumption differ.
 */
public final class Framework {
    /**
     * How a cycle finds its node: the running scheduler samples large clusters, explain judges every node. Either
     * way the answer is the node or, when none fits, kube-scheduler's summary ({@code 0/3 nodes are available: ...}).
     */
    @FunctionalInterface
    public interface NodeSelector {
        SchedulingCycle.Selection select(CycleState state, PodInfo pod);
    }

    /** Holds a reserved pod's room on its node (the scheduler's cache) until it is bound or released. */
    public interface Assumption {
        void assume(PodInfo pod, String node);

        void forget(PodInfo pod);
    }

    /** Where a scheduling cycle stopped. */
    public enum Point { PRE_FILTER, FILTER, RESERVE, PERMIT }

    /**
     * Permit's verdict for the reserved pod, from every permit plugin: rejected (the first rejection), waiting (up to the
     * longest timeout asked, for what the plugin that asked it says) or allowed.
     */
    public record PermitVerdict(Map<String, PermitPlugin.Permit> plugins, Status status, Duration timeout, String waitingFor) {
        public boolean waiting() {
            return status.success() && timeout != null;
        }
    }

    /**
     * What a scheduling cycle decided. {@code rejectedAt} null: the pod is reserved on {@code node} and either goes on
     * to binding or waits at Permit ({@code permit.waiting()}); otherwise the point that rejected it and why
     * ({@code status}), its reservation already undone, and, when rejected at PreFilter or Filter, the PostFilter's
     * nomination (null: none; the pod may take its node once the victims are gone).
     */
    public record CycleResult(Map<String, Status> preFilter, String node, Point rejectedAt, Status status, PermitVerdict permit,
            PostFilterPlugin.Nomination nomination) {
        public boolean reserved() {
            return rejectedAt == null;
        }

        /** The reasons, as one line. */
        public String reason() {
            return String.join(", ", status.reasons());
        }
    }

    private final Profile profile;

    public Framework(Profile profile) {
        this.profile = profile;
    }

    public Profile profile() {
        return profile;
    }

    /**
     * The running scheduler's selector: it searches a large cluster only as far as {@code search} allows
     * (percentageOfNodesToScore), each node's filters stopping at the first that rejects it.
     */
    public NodeSelector searching(NodeSearch search) {
        return (state, pod) -> SchedulingCycle.select(profile, state, pod, search);
    }

    /** The scheduling cycle, up to Permit. */
    public CycleResult schedulingCycle(CycleState state, PodInfo pod, NodeSelector selector, Assumption assumption) {
        Map<String, Status> preFilter = runPreFilter(state, pod);
        Status rejected = firstRejection(preFilter);
        if (rejected != null) {
            // kube-scheduler runs PostFilter after a PreFilter rejection too: a quota's preemption frees quota, not a node.
            return new CycleResult(preFilter, null, Point.PRE_FILTER, rejected, null, runPostFilter(state, pod, String.join(", ",
                    rejected.reasons())));
        }
        SchedulingCycle.Selection selection = selector.select(state, pod);
        String node = selection.node();
        if (node == null) {
            String why = selection.unavailable();
            return new CycleResult(preFilter, null, Point.FILTER, Status.unschedulable(why), null, runPostFilter(state, pod, why));
        }
        assumption.assume(pod, node);
        Status reserve = runReserve(state, pod, node);
        if (!reserve.success()) {
            unreserve(state, pod, node, assumption);
            return new CycleResult(preFilter, node, Point.RESERVE, reserve, null, null);
        }
        PermitVerdict permit = runPermit(state, pod, node);
        if (!permit.status().success()) {
            unreserve(state, pod, node, assumption);
            return new CycleResult(preFilter, node, Point.PERMIT, permit.status(), permit, null);
        }
        return new CycleResult(preFilter, node, null, Status.SUCCESS, permit, null);
    }

    /** PreFilter, plugin by plugin until the first rejects (kube-scheduler stops there too). */
    public Map<String, Status> runPreFilter(CycleState state, PodInfo pod) {
        Map<String, Status> out = new LinkedHashMap<>();
        for (PreFilterPlugin p : profile.preFilters()) {
            Status s = p.preFilter(state, pod);
            out.put(p.name(), s);
            if (!s.success()) {
                break;
            }
        }
        return out;
    }

    /** Every post-filter plugin, in order; the first nomination is the answer (null: none). */
    public PostFilterPlugin.Nomination runPostFilter(CycleState state, PodInfo pod, String why) {
        PostFilterPlugin.Nomination first = null;
        state.profile(profile);
        for (PostFilterPlugin p : profile.postFilters()) {
            java.util.Optional<PostFilterPlugin.Nomination> n = p.postFilter(state, pod, why);
            if (first == null && n.isPresent()) {
                first = n.get();
            }
        }
        return first;
    }

    /** Reserve, plugin by plugin until one fails. */
    public Status runReserve(CycleState state, PodInfo pod, String node) {
        for (ReservePlugin r : profile.reserves()) {
            Status s = r.reserve(state, pod, node);
            if (!s.success()) {
                return s;
            }
        }
        return Status.SUCCESS;
    }

    /** Undoes a reservation: every reserve plugin's unreserve, in reverse order, then the assumption. */
    public void unreserve(CycleState state, PodInfo pod, String node, Assumption assumption) {
        List<ReservePlugin> reserves = profile.reserves();
        for (int i = reserves.size() - 1; i >= 0; i--) {
            reserves.get(i).unreserve(state, pod, node);
        }
        assumption.forget(pod);
    }

    public PermitVerdict runPermit(CycleState state, PodInfo pod, String node) {
        Map<String, PermitPlugin.Permit> answers = new LinkedHashMap<>();
        Duration wait = null;
        String waitingFor = null;
        for (PermitPlugin p : profile.permits()) {
            PermitPlugin.Permit permit = p.permit(state, pod, node);
            answers.put(p.name(), permit);
            if (!permit.status().success()) {
                return new PermitVerdict(answers, permit.status(), null, null);
            }
            if (permit.waiting() && (wait == null || permit.timeout().compareTo(wait) > 0)) {
                wait = permit.timeout();
                waitingFor = p.name() + ": " + permit.waitingFor();
            }
        }
        return new PermitVerdict(answers, Status.SUCCESS, wait, waitingFor);
    }

    /** The binding cycle: the first bind plugin binds. */
    public Status runBind(CycleState state, PodInfo pod, String node) {
        return profile.binds().get(0).bind(state, pod, node);
    }

    private static Status firstRejection(Map<String, Status> statuses) {
        return statuses.values().stream().filter(s -> !s.success()).findFirst().orElse(null);
    }
}
