package io.colocation.scheduler.framework;

import java.util.List;

/** A plugin's verdict at one extension point, with reasons a user understands. */
public record Status(Code code, List<String> reasons) {
    public enum Code { SUCCESS, UNSCHEDULABLE }

    public static final Status SUCCESS = new Status(Code.SUCCESS, List.of());

    public static Status unschedulable(String reason) {
        return new Status(Code.UNSCHEDULABLE, List.of(reason));
    }

    public boolean success() {
        return code == Code.SUCCESS;
    }

    /** kube-scheduler's wording: {@code Success} or {@code Unschedulable}. */
    public String label() {
        return success() ? "Success" : "Unschedulable";
    }
}
