package io.colocation.scheduler.framework;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** A plugin's verdict at one extension point, with reasons a user understands. */
public record Status(Code code, List<String> reasons) {
    public enum Code { SUCCESS, UNSCHEDULABLE }

    public static final Status SUCCESS = new Status(Code.SUCCESS, List.of());

    private static final int MAX_SHARED = 1024;
    private static final Map<String, Status> SHARED = new ConcurrentHashMap<>();
    private static final Map<List<String>, Status> SHARED_COMBINED = new ConcurrentHashMap<>();

    public static Status unschedulable(String reason) {
        return new Status(Code.UNSCHEDULABLE, List.of(reason));
    }

    /**
     * The one verdict for this reason: a search counts rejections by verdict, and a filter that rejects many nodes for
     * the same reason hands out one object. Reasons come from pods and nodes, so only the first few are kept.
     */
    public static Status sharedUnschedulable(String reason) {
        Status known = SHARED.get(reason);
        if (known != null) {
            return known;
        }
        Status fresh = unschedulable(reason);
        return SHARED.size() < MAX_SHARED ? SHARED.computeIfAbsent(reason, r -> fresh) : fresh;
    }

    /**
     * The one verdict for these reasons together (a node short of several things): without it every such node hands
     * a search its own verdict, and a search of a full cluster counts thousands of them.
     */
    public static Status sharedUnschedulable(List<String> reasons) {
        if (reasons.size() == 1) {
            return sharedUnschedulable(reasons.get(0));
        }
        Status known = SHARED_COMBINED.get(reasons);
        if (known != null) {
            return known;
        }
        Status fresh = new Status(Code.UNSCHEDULABLE, List.copyOf(reasons));
        return SHARED_COMBINED.size() < MAX_SHARED ? SHARED_COMBINED.computeIfAbsent(fresh.reasons(), r -> fresh) : fresh;
    }

    public boolean success() {
        return code == Code.SUCCESS;
    }

    /** kube-scheduler's wording: {@code Success} or {@code Unschedulable}. */
    public String label() {
        return success() ? "Success" : "Unschedulable";
    }
}
