package io.colocation.api.yarn;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * What each running YARN application holds and still asks for, as the ResourceManager sees it: the YARN half of
 * the broker's "who uses Batch" view (the console's Batch workloads). The largest {@link #LIMIT} applications by
 * allocation are listed, the others counted, so the document stays far below ZooKeeper's 1 MB.
 */
@JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY, getterVisibility = JsonAutoDetect.Visibility.NONE,
        isGetterVisibility = JsonAutoDetect.Visibility.NONE)
public final class YarnApplications {
    public static final int LIMIT = 500;

    private final List<Application> applications;
    private final int omitted;
    private final long reportedAtMillis;

    @JsonCreator
    public YarnApplications(
            @JsonProperty("applications") List<Application> applications,
            @JsonProperty("omitted") int omitted,
            @JsonProperty("reportedAtMillis") long reportedAtMillis) {
        Validation.notNegative("omitted", omitted);
        this.applications = applications == null ? Collections.<Application>emptyList()
                : Collections.unmodifiableList(new ArrayList<>(applications));
        this.omitted = omitted;
        this.reportedAtMillis = reportedAtMillis;
    }

    public List<Application> applications() {
        return applications;
    }

    /** Applications running but not listed (beyond {@link #LIMIT}). */
    public int omitted() {
        return omitted;
    }

    public long reportedAtMillis() {
        return reportedAtMillis;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof YarnApplications && applications.equals(((YarnApplications) o).applications)
                && omitted == ((YarnApplications) o).omitted && reportedAtMillis == ((YarnApplications) o).reportedAtMillis;
    }

    @Override
    public int hashCode() {
        return Objects.hash(applications, omitted, reportedAtMillis);
    }

    @Override
    public String toString() {
        return "YarnApplications[" + applications + ", omitted=" + omitted + ", reportedAtMillis=" + reportedAtMillis + "]";
    }

    /** One application: its current attempt's allocation and outstanding requests, and what the RM preempted of it. */
    @JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY, getterVisibility = JsonAutoDetect.Visibility.NONE,
            isGetterVisibility = JsonAutoDetect.Visibility.NONE)
    public static final class Application {
        private final String applicationId;
        private final String name;
        private final String type;
        private final String queue;
        private final int containers;
        private final int vcores;
        private final long memoryMB;
        private final int pendingVcores;
        private final long pendingMemoryMB;
        private final int preemptedContainers;

        @JsonCreator
        public Application(
                @JsonProperty("applicationId") String applicationId,
                @JsonProperty("name") String name,
                @JsonProperty("type") String type,
                @JsonProperty("queue") String queue,
                @JsonProperty("containers") int containers,
                @JsonProperty("vcores") int vcores,
                @JsonProperty("memoryMB") long memoryMB,
                @JsonProperty("pendingVcores") int pendingVcores,
                @JsonProperty("pendingMemoryMB") long pendingMemoryMB,
                @JsonProperty("preemptedContainers") int preemptedContainers) {
            if (applicationId == null || applicationId.isEmpty()) {
                throw new IllegalArgumentException("applicationId is missing");
            }
            Validation.notNegative("containers", containers);
            Validation.notNegative("vcores", vcores);
            Validation.notNegative("memoryMB", memoryMB);
            Validation.notNegative("pendingVcores", pendingVcores);
            Validation.notNegative("pendingMemoryMB", pendingMemoryMB);
            Validation.notNegative("preemptedContainers", preemptedContainers);
            this.applicationId = applicationId;
            this.name = name == null ? "" : name;
            this.type = type == null ? "" : type;
            this.queue = queue == null ? "" : queue;
            this.containers = containers;
            this.vcores = vcores;
            this.memoryMB = memoryMB;
            this.pendingVcores = pendingVcores;
            this.pendingMemoryMB = pendingMemoryMB;
            this.preemptedContainers = preemptedContainers;
        }

        public String applicationId() {
            return applicationId;
        }

        public String name() {
            return name;
        }

        /** YARN's application type: SPARK, MAPREDUCE, ... */
        public String type() {
            return type;
        }

        public String queue() {
            return queue;
        }

        public int containers() {
            return containers;
        }

        public int vcores() {
            return vcores;
        }

        public long memoryMB() {
            return memoryMB;
        }

        public int pendingVcores() {
            return pendingVcores;
        }

        public long pendingMemoryMB() {
            return pendingMemoryMB;
        }

        /** Containers other than the ApplicationMaster the RM preempted in the current attempt. */
        public int preemptedContainers() {
            return preemptedContainers;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Application)) {
                return false;
            }
            Application a = (Application) o;
            return applicationId.equals(a.applicationId) && name.equals(a.name) && type.equals(a.type) && queue.equals(a.queue)
                    && containers == a.containers && vcores == a.vcores && memoryMB == a.memoryMB
                    && pendingVcores == a.pendingVcores && pendingMemoryMB == a.pendingMemoryMB
                    && preemptedContainers == a.preemptedContainers;
        }

        @Override
        public int hashCode() {
            return Objects.hash(applicationId, name, type, queue, containers, vcores, memoryMB, pendingVcores, pendingMemoryMB,
                    preemptedContainers);
        }

        @Override
        public String toString() {
            return applicationId + " " + type + " '" + name + "' in " + queue + ": " + containers + " containers, " + vcores
                    + " vcores, " + memoryMB + " MiB, pending " + pendingVcores + " vcores/" + pendingMemoryMB
                    + " MiB, preempted " + preemptedContainers;
        }
    }
}
