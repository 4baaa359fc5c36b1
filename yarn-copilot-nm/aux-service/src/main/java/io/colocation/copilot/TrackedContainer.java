package io.colocation.copilot;

import java.util.LinkedHashMap;
import java.util.Collections;
import io.colocation.copilot.api.ContainerInfo;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** What the copilot knows of one container; changed only under the registry's lock. */
final class TrackedContainer {
    enum State { NEW, RUNNING, EXITED, DONE }

    final String containerId;
    final String applicationId;
    final String user;
    final int vcores;
    final long memoryMB;
    final boolean applicationMaster;
    final long startTime;
    State state = State.NEW;
    Integer pid;
    List<Integer> pids = Collections.emptyList();
    Integer exitStatus;
    long finishedAt;

    TrackedContainer(String containerId, String applicationId, String user, int vcores, long memoryMB,
            boolean applicationMaster, long startTime) {
        this.containerId = containerId;
        this.applicationId = applicationId;
        this.user = user;
        this.vcores = vcores;
        this.memoryMB = memoryMB;
        this.applicationMaster = applicationMaster;
        this.startTime = startTime;
    }

    boolean isLive() {
        return state == State.NEW || state == State.RUNNING;
    }

    ContainerInfo toInfo(String cgroupParent) {
        Map<String, String> quantities = new LinkedHashMap<>();
        quantities.put("cpu", Integer.toString(vcores));
        quantities.put("memory", Long.toString(memoryMB * 1024 * 1024));
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("yarn.hadoop.apache.org/application-id", applicationId);
        labels.put("yarn.hadoop.apache.org/user", user);
        return new ContainerInfo(containerId, "yarn", containerId,
                labels, Collections.emptyMap(), 1, Instant.ofEpochMilli(startTime).toString(), cgroupParent + "/" + containerId, true,
                new ContainerInfo.ResourceRequirements(quantities, quantities),
                containerId, applicationId, user, vcores, memoryMB, applicationMaster ? "APPLICATION_MASTER" : "TASK",
                state.name(), startTime, pid, pids, exitStatus);
    }
}
