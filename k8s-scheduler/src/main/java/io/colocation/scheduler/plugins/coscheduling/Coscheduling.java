package io.colocation.scheduler.plugins.coscheduling;

import io.colocation.model.pod.PodPhases;
import io.colocation.scheduler.framework.CycleState;
import io.colocation.scheduler.framework.Handle;
import io.colocation.scheduler.framework.PermitPlugin;
import io.colocation.scheduler.framework.PodInfo;
import io.colocation.scheduler.framework.PostFilterPlugin;
import io.colocation.scheduler.framework.PreFilterPlugin;
import io.colocation.scheduler.framework.ReservePlugin;
import io.colocation.scheduler.framework.Snapshots;
import io.colocation.scheduler.framework.Status;
import io.colocation.scheduler.framework.WaitingPods;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Gang scheduling with Koordinator's conventions (docs/koordinator-compatibility.md §10): a member is scheduled like any pod,
 * then waits at Permit, its room reserved, until enough members wait (the gang's match policy) and all go on to
 * binding together, or until its waiting time runs out and its room is released. PreFilter holds members back while
 * fewer than minMember exist; when a member finds no node (PostFilter) or is unreserved, a Strict gang releases every
 * waiting member at once, a NonStrict gang lets them wait out their time. Nothing of a gang is bound before the gang
 * is satisfied. Gangs named together in {@code gang.scheduling.koordinator.sh/groups} form a group: each must exist
 * with minMember members and pass its own match policy before any of them binds, and a Strict member's failure
 * releases the waiting members of every gang of the group.
 */
public final class Coscheduling implements PreFilterPlugin, PostFilterPlugin, ReservePlugin, PermitPlugin {
    public static final String NAME = "Coscheduling";
    private static final String GANG_KEY = NAME + "/gang";

    private final CoschedulingArgs args;
    private final Handle handle;
    /** The pods of each gang, by {@link Gang#idOf}. */
    private final Handle.PodIndex byGang;
    /** Gang groups whose waiting members are being let go now: their own unreserve does not start another round. */
    private final Set<String> releasing = ConcurrentHashMap.newKeySet();

    public Coscheduling(CoschedulingArgs args, Handle handle) {
        this.args = args;
        this.handle = handle;
        // No handle: a profile built for explain without a cluster, whose Coscheduling never runs.
        this.byGang = handle == null ? null : handle.podIndex("gang", Gang::idOf);
    }

    @Override
    public String name() {
        return NAME;
    }

    /** The pod's gang, or why it cannot be used (then {@code gang} is empty). */
    private record Lookup(Optional<Gang> gang, String unusable) {
    }

    /** Read once a cycle. */
    private Lookup lookup(CycleState state, PodInfo pod) {
        return state.computeIfAbsent(GANG_KEY, k -> {
            try {
                return new Lookup(Gang.of(pod.pod(), handle::podGroup), null);
            } catch (Gang.Unusable e) {
                return new Lookup(Optional.empty(), e.getMessage());
            }
        });
    }

    private record Members(int all, int bound) {
    }

    /** The gang's members that count: every live member pod, and those bound or binding. */
    private Members members(Gang gang) {
        int all = 0;
        int bound = 0;
        for (Pod p : byGang.pods(gang.id())) {
            if (PodPhases.ended(p) || p.getMetadata().getDeletionTimestamp() != null) {
                continue;
            }
            all++;
            boolean onNode = p.getSpec().getNodeName() != null && !p.getSpec().getNodeName().isEmpty();
            String key = Snapshots.key(p);
            if (onNode || handle.assumed(key) && !waiting(key)) {
                bound++;
            }
        }
        return new Members(all, bound);
    }

    private boolean waiting(String key) {
        return handle.waitingPods().list().stream().anyMatch(w -> w.pod().key().equals(key));
    }

    private List<WaitingPods.Waiting> waitingMembers(Gang gang) {
        return handle.waitingPods().list().stream().filter(w -> gang.member(w.pod().pod())).toList();
    }

    private String policy(Gang gang) {
        return gang.matchPolicy() != null ? gang.matchPolicy() : args.defaultMatchPolicy();
    }

    /** once-satisfied and a member already bound: the gang is done waiting for itself. */
    private boolean onceSatisfied(Gang gang, Members m) {
        return policy(gang).equals(Gang.ONCE_SATISFIED) && m.bound() > 0;
    }

    @Override
    public Status preFilter(CycleState state, PodInfo pod) {
        Lookup lookup = lookup(state, pod);
        if (lookup.unusable() != null) {
            return Status.unschedulable("gang: " + lookup.unusable());
        }
        Optional<Gang> gang = lookup.gang();
        if (gang.isEmpty()) {
            return Status.SUCCESS;
        }
        Members own = members(gang.get());
        if (onceSatisfied(gang.get(), own)) {
            return Status.SUCCESS;
        }
        Group group = group(gang.get());
        if (!group.missing().isEmpty()) {
            return Status.unschedulable("gang group " + gang.get().groupId() + ": gang " + group.missing().get(0)
                    + " has no members yet");
        }
        for (Gang g : group.gangs()) {
            Members m = g == gang.get() ? own : members(g);
            if (m.all() < g.minMember()) {
                return Status.unschedulable("gang " + g.id() + ": " + m.all() + " of its " + g.minMember()
                        + " members exist; waiting for the rest");
            }
        }
        return Status.SUCCESS;
    }

    /** The gangs placed together with {@code own} (it first), and the IDs of those with no member to read yet. */
    private record Group(List<Gang> gangs, List<String> missing) {
    }

    private Group group(Gang own) {
        List<Gang> gangs = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        gangs.add(own);
        for (String id : own.group()) {
            if (id.equals(own.id())) {
                continue;
            }
            Optional<Gang> other = find(id);
            if (other.isPresent()) {
                gangs.add(other.get());
            } else {
                missing.add(id);
            }
        }
        return new Group(gangs, missing);
    }

    /** A gang of the group, read from any of its live member pods (as Koordinator reads it from the first seen). */
    private Optional<Gang> find(String id) {
        for (Pod p : byGang.pods(id)) {
            if (!PodPhases.ended(p)) {
                try {
                    return Gang.of(p, handle::podGroup);
                } catch (Gang.Unusable e) {
                    return Optional.empty();
                }
            }
        }
        return Optional.empty();
    }

    @Override
    public Optional<Nomination> postFilter(CycleState state, PodInfo pod, String why) {
        release(state, pod, "member " + pod.key() + " is unschedulable: " + why);
        return Optional.empty();
    }

    @Override
    public Status reserve(CycleState state, PodInfo pod, String node) {
        return Status.SUCCESS;
    }

    @Override
    public void unreserve(CycleState state, PodInfo pod, String node) {
        release(state, pod, "member " + pod.key() + " gave up its place on " + node);
    }

    /** A Strict gang not yet satisfied lets every waiting member go: nothing of it is bound piecemeal. */
    private void release(CycleState state, PodInfo pod, String why) {
        Optional<Gang> gang = lookup(state, pod).gang();
        if (gang.isEmpty() || !gang.get().strict() || onceSatisfied(gang.get(), members(gang.get()))
                || !releasing.add(gang.get().groupId())) {
            return;
        }
        try {
            for (Gang g : group(gang.get()).gangs()) {
                for (WaitingPods.Waiting w : waitingMembers(g)) {
                    if (!w.pod().key().equals(pod.key())) {
                        handle.waitingPods().reject(w.pod().key(), "gang " + g.id() + " gets rejected: " + why);
                    }
                }
            }
        } finally {
            releasing.remove(gang.get().groupId());
        }
    }

    @Override
    public Permit permit(CycleState state, PodInfo pod, String node) {
        Lookup lookup = lookup(state, pod);
        if (lookup.unusable() != null) {
            return Permit.reject("gang: " + lookup.unusable());
        }
        Optional<Gang> gang = lookup.gang();
        if (gang.isEmpty()) {
            return Permit.ALLOW;
        }
        Gang own = gang.get();
        Duration timeout = own.waitingTime() != null ? own.waitingTime() : args.defaultTimeout();
        Group group = group(own);
        if (!group.missing().isEmpty()) {
            return Permit.waitFor(timeout, "gang group " + own.groupId() + ": gang " + group.missing().get(0)
                    + " has no members yet");
        }
        // Every gang of the group must pass its own match policy; then all of them go on together.
        List<WaitingPods.Waiting> others = new ArrayList<>();
        for (Gang g : group.gangs()) {
            List<WaitingPods.Waiting> waitingOthers = waitingMembers(g).stream()
                    .filter(w -> !w.pod().key().equals(pod.key())).toList();
            boolean self = g == own;
            int waiting = waitingOthers.size() + (self ? 1 : 0);
            int boundOthers = members(g).bound() - (self && handle.assumed(pod.key()) ? 1 : 0); // this pod is assumed
            boolean satisfied = switch (policy(g)) {
                case Gang.ONLY_WAITING -> waiting >= g.minMember();
                case Gang.WAITING_AND_RUNNING -> waiting + boundOthers >= g.minMember();
                default -> waiting >= g.minMember() || boundOthers > 0;
            };
            if (!satisfied) {
                return Permit.waitFor(timeout, "gang " + g.id() + ": " + waiting + " of the " + g.minMember()
                        + " members it needs are placed");
            }
            others.addAll(waitingOthers);
        }
        others.forEach(w -> handle.waitingPods().allow(w.pod().key()));
        return Permit.ALLOW;
    }
}
