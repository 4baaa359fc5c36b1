package io.colocation.copilot.api;

import java.util.regex.Pattern;

/**
 * YARN's container id format ({@code ContainerId.toString()}): {@code container_<clusterTimestamp>_<app>_<attempt>_<id>},
 * with {@code e<epoch>_} after {@code container_} once the ResourceManager restarted. A copilot's answer is only a
 * claim: an id that is not of this form (a path, {@code ..}, a slash) names no container and must never become part of
 * a cgroup path.
 */
public final class YarnContainerIds {
    private static final Pattern FORMAT = Pattern.compile("container_(e\\d{1,9}_)?\\d{1,19}_\\d{1,19}_\\d{1,19}_\\d{1,19}");

    private YarnContainerIds() {
    }

    public static boolean isValid(String id) {
        return id != null && id.length() <= 128 && FORMAT.matcher(id).matches();
    }
}
