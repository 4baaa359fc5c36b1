package io.colocation.copilot.api;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;

/**
 * One YARN container as the copilot serves it. The first fields are those of Koordinator's
 * yarn-copilot-agent {@code ContainerInfo} (name, namespace "yarn", uid, labels, annotations, priority,
 * createTimestamp, cgroupDir, hostNetwork, resources); the rest are ours.
 *
 * @param cgroupDir  where the container's cgroup is or should be, relative to the cgroup root
 *                   ({@code kubepods/besteffort/hadoop-yarn/<container_id>} by default)
 * @param type       {@code APPLICATION_MASTER} or {@code TASK}
 * @param state      {@code NEW} (no process yet), {@code RUNNING}, {@code EXITED} (process ended), {@code DONE}
 *                   (the NodeManager finished with it)
 * @param pid        the container's root process, from the NodeManager's pid file; null before launch
 * @param pids       every process of the container's tree (descendants and its session)
 * @param exitStatus the process's exit code once known, else null
 */
@JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY, getterVisibility = JsonAutoDetect.Visibility.NONE,
        isGetterVisibility = JsonAutoDetect.Visibility.NONE)
public final class ContainerInfo {
    private final String name;
    private final String namespace;
    private final String uid;
    private final Map<String, String> labels;
    private final Map<String, String> annotations;
    private final int priority;
    private final String createTimestamp;
    private final String cgroupDir;
    private final boolean hostNetwork;
    private final ResourceRequirements resources;
    private final String containerID;
    private final String applicationID;
    private final String user;
    private final int vcores;
    private final long memoryMB;
    private final String type;
    private final String state;
    private final long startTime;
    private final Integer pid;
    private final List<Integer> pids;
    private final Integer exitStatus;

    @JsonCreator
    public ContainerInfo(
            @JsonProperty("name") String name,
            @JsonProperty("namespace") String namespace,
            @JsonProperty("uid") String uid,
            @JsonProperty("labels") Map<String, String> labels,
            @JsonProperty("annotations") Map<String, String> annotations,
            @JsonProperty("priority") int priority,
            @JsonProperty("createTimestamp") String createTimestamp,
            @JsonProperty("cgroupDir") String cgroupDir,
            @JsonProperty("hostNetwork") boolean hostNetwork,
            @JsonProperty("resources") ResourceRequirements resources,
            @JsonProperty("containerID") String containerID,
            @JsonProperty("applicationID") String applicationID,
            @JsonProperty("user") String user,
            @JsonProperty("vcores") int vcores,
            @JsonProperty("memoryMB") long memoryMB,
            @JsonProperty("type") String type,
            @JsonProperty("state") String state,
            @JsonProperty("startTime") long startTime,
            @JsonProperty("pid") Integer pid,
            @JsonProperty("pids") List<Integer> pids,
            @JsonProperty("exitStatus") Integer exitStatus) {
        this.name = name;
        this.namespace = namespace;
        this.uid = uid;
        this.labels = labels;
        this.annotations = annotations;
        this.priority = priority;
        this.createTimestamp = createTimestamp;
        this.cgroupDir = cgroupDir;
        this.hostNetwork = hostNetwork;
        this.resources = resources;
        this.containerID = containerID;
        this.applicationID = applicationID;
        this.user = user;
        this.vcores = vcores;
        this.memoryMB = memoryMB;
        this.type = type;
        this.state = state;
        this.startTime = startTime;
        this.pid = pid;
        this.pids = pids;
        this.exitStatus = exitStatus;
    }

    public String name() {
        return name;
    }

    public String namespace() {
        return namespace;
    }

    public String uid() {
        return uid;
    }

    public Map<String, String> labels() {
        return labels;
    }

    public Map<String, String> annotations() {
        return annotations;
    }

    public int priority() {
        return priority;
    }

    public String createTimestamp() {
        return createTimestamp;
    }

    public String cgroupDir() {
        return cgroupDir;
    }

    public boolean hostNetwork() {
        return hostNetwork;
    }

    public ResourceRequirements resources() {
        return resources;
    }

    public String containerID() {
        return containerID;
    }

    public String applicationID() {
        return applicationID;
    }

    public String user() {
        return user;
    }

    public int vcores() {
        return vcores;
    }

    public long memoryMB() {
        return memoryMB;
    }

    public String type() {
        return type;
    }

    public String state() {
        return state;
    }

    public long startTime() {
        return startTime;
    }

    public Integer pid() {
        return pid;
    }

    public List<Integer> pids() {
        return pids;
    }

    public Integer exitStatus() {
        return exitStatus;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof ContainerInfo)) {
            return false;
        }
        ContainerInfo other = (ContainerInfo) o;
        return java.util.Objects.equals(name, other.name)
                && java.util.Objects.equals(namespace, other.namespace)
                && java.util.Objects.equals(uid, other.uid)
                && java.util.Objects.equals(labels, other.labels)
                && java.util.Objects.equals(annotations, other.annotations)
                && priority == other.priority
                && java.util.Objects.equals(createTimestamp, other.createTimestamp)
                && java.util.Objects.equals(cgroupDir, other.cgroupDir)
                && hostNetwork == other.hostNetwork
                && java.util.Objects.equals(resources, other.resources)
                && java.util.Objects.equals(containerID, other.containerID)
                && java.util.Objects.equals(applicationID, other.applicationID)
                && java.util.Objects.equals(user, other.user)
                && vcores == other.vcores
                && memoryMB == other.memoryMB
                && java.util.Objects.equals(type, other.type)
                && java.util.Objects.equals(state, other.state)
                && startTime == other.startTime
                && java.util.Objects.equals(pid, other.pid)
                && java.util.Objects.equals(pids, other.pids)
                && java.util.Objects.equals(exitStatus, other.exitStatus);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(name, namespace, uid, labels, annotations, priority, createTimestamp, cgroupDir, hostNetwork, resources, containerID, applicationID, user, vcores, memoryMB, type, state, startTime, pid, pids, exitStatus);
    }

    @Override
    public String toString() {
        return "ContainerInfo[name=" + name
                + ", namespace=" + namespace
                + ", uid=" + uid
                + ", labels=" + labels
                + ", annotations=" + annotations
                + ", priority=" + priority
                + ", createTimestamp=" + createTimestamp
                + ", cgroupDir=" + cgroupDir
                + ", hostNetwork=" + hostNetwork
                + ", resources=" + resources
                + ", containerID=" + containerID
                + ", applicationID=" + applicationID
                + ", user=" + user
                + ", vcores=" + vcores
                + ", memoryMB=" + memoryMB
                + ", type=" + type
                + ", state=" + state
                + ", startTime=" + startTime
                + ", pid=" + pid
                + ", pids=" + pids
                + ", exitStatus=" + exitStatus + "]";
    }

    /** Kubernetes-style requests and limits (equal for YARN containers): cpu in cores, memory in bytes. */
    @JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY, getterVisibility = JsonAutoDetect.Visibility.NONE,
            isGetterVisibility = JsonAutoDetect.Visibility.NONE)
    public static final class ResourceRequirements {
        private final Map<String, String> limits;
        private final Map<String, String> requests;

        @JsonCreator
        public ResourceRequirements(
                @JsonProperty("limits") Map<String, String> limits,
                @JsonProperty("requests") Map<String, String> requests) {
            this.limits = limits;
            this.requests = requests;
        }

        public Map<String, String> limits() {
            return limits;
        }

        public Map<String, String> requests() {
            return requests;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) {
                return true;
            }
            if (!(o instanceof ResourceRequirements)) {
                return false;
            }
            ResourceRequirements other = (ResourceRequirements) o;
            return java.util.Objects.equals(limits, other.limits)
                    && java.util.Objects.equals(requests, other.requests);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(limits, requests);
        }

        @Override
        public String toString() {
            return "ResourceRequirements[limits=" + limits
                    + ", requests=" + requests + "]";
        }
    }
}
