package io.colocation.scheduler.plugins.coscheduling;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The next {@code status} of a PodGroup from its members, as koord-scheduler's PodGroup controller writes it
 * (docs/koordinator-compatibility.md §10.4): {@code ""} → {@code Pending}; {@code Pending} → {@code PreScheduling} once
 * {@code minMember} members exist (and {@code occupiedBy} names the owners of one of them); from then on the
 * counts of the members' phases and bound members decide {@code Scheduling}, {@code Scheduled}, {@code Running},
 * {@code Failed}, {@code Finished}, and no members at all means {@code Pending} again. {@code scheduleStartTime} is
 * set by the first pass past {@code PreScheduling} (when the group enters {@code Scheduling}, or later phases if its
 * members were bound between two passes).
 */
public final class PodGroupStatus {
    public static final String PENDING = "Pending";
    public static final String PRE_SCHEDULING = "PreScheduling";
    public static final String SCHEDULING = "Scheduling";
    public static final String SCHEDULED = "Scheduled";
    public static final String RUNNING = "Running";
    public static final String FINISHED = "Finished";
    public static final String FAILED = "Failed";

    private PodGroupStatus() {
    }

    /**
     * A PodGroup's {@code spec.minMember} (an int32 in the CRD, whose schema a cluster may not enforce): the whole number
     * it is, or 0 when it is none, a fraction, or beyond an int32 (4294967297 must not wrap to 1 and let one pod through).
     */
    public static int minMember(Object value) {
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof java.math.BigInteger) {
            long v = value instanceof java.math.BigInteger b ? (b.bitLength() < 63 ? b.longValue() : Long.MAX_VALUE) : ((Number) value).longValue();
            return v >= 1 && v <= Integer.MAX_VALUE ? (int) v : 0;
        }
        return 0;
    }

    /**
     * @param status    the PodGroup's current {@code status} (empty when it has none)
     * @param minMember its {@code spec.minMember}
     * @param members   the pods labelled with it in its namespace
     * @return the status to write (the same content when nothing changes)
     */
    public static Map<String, Object> next(Map<String, Object> status, int minMember, List<Pod> members, Instant now) {
        Map<String, Object> next = new LinkedHashMap<>(status);
        String phase = status.get("phase") instanceof String p ? p : "";
        switch (phase) {
            case "" -> next.put("phase", PENDING);
            case PENDING -> {
                if (minMember > 0 && members.size() >= minMember) {
                    next.put("phase", PRE_SCHEDULING);
                    next.put("occupiedBy", occupiedBy(members.get(0)));
                }
            }
            default -> {
                if (members.isEmpty()) {
                    next.put("phase", PENDING);
                    break;
                }
                int running = 0;
                int succeeded = 0;
                int failed = 0;
                int scheduled = 0;
                for (Pod pod : members) {
                    String podPhase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
                    running += "Running".equals(podPhase) ? 1 : 0;
                    succeeded += "Succeeded".equals(podPhase) ? 1 : 0;
                    failed += "Failed".equals(podPhase) ? 1 : 0;
                    scheduled += pod.getSpec() != null && pod.getSpec().getNodeName() != null
                            && !pod.getSpec().getNodeName().isEmpty() ? 1 : 0;
                }
                next.put("scheduled", scheduled);
                next.put("running", running);
                next.put("succeeded", succeeded);
                next.put("failed", failed);
                String p = scheduled < minMember ? SCHEDULING : SCHEDULED;
                if (p.equals(SCHEDULED) && running + succeeded >= minMember) {
                    p = RUNNING;
                }
                if (failed > 0 && failed + running + succeeded >= minMember) {
                    p = FAILED;
                }
                if (succeeded >= minMember) {
                    p = FINISHED;
                }
                next.put("phase", p);
                // Koordinator's scheduler stamps it when the gang's scheduling starts; a pass that finds the members
                // already bound (Scheduled or later) stamps it then.
                if (next.get("scheduleStartTime") == null) {
                    next.put("scheduleStartTime", now.truncatedTo(ChronoUnit.SECONDS).toString()); // a metav1.Time
                }
            }
        }
        return next;
    }

    /** The members of every PodGroup among {@code pods} (labelled with it in its namespace), by {@code namespace/name}. */
    public static Map<String, List<Pod>> membersByGroup(Collection<Pod> pods) {
        return pods.stream().filter(p -> p.getMetadata().getLabels() != null
                        && p.getMetadata().getLabels().get(Gang.LABEL_POD_GROUP) != null)
                .collect(Collectors.groupingBy(p -> p.getMetadata().getNamespace() + "/"
                        + p.getMetadata().getLabels().get(Gang.LABEL_POD_GROUP)));
    }

    /** The owners of {@code pod} as sorted {@code ns/ownerName}, comma-joined (empty for a pod without owners). */
    static String occupiedBy(Pod pod) {
        TreeSet<String> owners = new TreeSet<>();
        List<OwnerReference> refs = pod.getMetadata().getOwnerReferences();
        if (refs != null) {
            for (OwnerReference ref : refs) {
                owners.add(pod.getMetadata().getNamespace() + "/" + ref.getName());
            }
        }
        return String.join(",", owners);
    }
}
