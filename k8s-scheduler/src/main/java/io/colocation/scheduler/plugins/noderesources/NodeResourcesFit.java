package io.colocation.scheduler.plugins.noderesources;

import io.colocation.scheduler.framework.CycleState;
import io.colocation.scheduler.framework.FilterPlugin;
import io.colocation.scheduler.framework.NodeInfo;
import io.colocation.scheduler.framework.PodInfo;
import io.colocation.scheduler.framework.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * kube-scheduler's {@code NodeResourcesFit} filter over every resource the pod requests, standard and extended alike
 * ({@code kubernetes.io/batch-cpu}, {@code mid-memory}, ...): the node's allocatable, which for batch and mid is the
 * broker's Kubernetes grant, must hold what its pods request plus this pod.
 */
public final class NodeResourcesFit implements FilterPlugin {
    public static final String NAME = "NodeResourcesFit";
    private static final Status TOO_MANY_PODS = Status.unschedulable("Too many pods");
    /** {@code Insufficient <resource>} by resource name: built once, not concatenated for every node a pod does not fit. */
    private static final Map<String, Status> INSUFFICIENT = new ConcurrentHashMap<>();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
        Status rejected = null;
        List<String> reasons = null; // allocated only for a node short of two things or more
        long maxPods = node.allocatable("pods", -1);
        if (maxPods >= 0 && node.podCount() + 1 > maxPods) {
            rejected = TOO_MANY_PODS;
        }
        for (Map.Entry<String, Long> r : pod.requests().entrySet()) {
            if (r.getValue() <= 0) {
                continue;
            }
            long allocatable = node.allocatable(r.getKey(), 0);
            long requested = node.requested(r.getKey());
            if (requested + r.getValue() > allocatable) {
                Status lacking = insufficient(r.getKey());
                if (rejected == null) {
                    rejected = lacking;
                } else {
                    reasons = reasons == null ? new ArrayList<>(rejected.reasons()) : reasons;
                    reasons.addAll(lacking.reasons());
                }
            }
        }
        if (reasons != null) {
            return Status.sharedUnschedulable(reasons);
        }
        return rejected == null ? Status.SUCCESS : rejected;
    }

    /** Resource names come from pods: only the first few are kept. */
    private static Status insufficient(String resource) {
        Status known = INSUFFICIENT.get(resource);
        if (known != null) {
            return known;
        }
        Status s = Status.sharedUnschedulable("Insufficient " + resource);
        if (INSUFFICIENT.size() < 256) {
            INSUFFICIENT.putIfAbsent(resource, s);
        }
        return s;
    }
}
