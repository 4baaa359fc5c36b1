package io.colocation.scheduler.service;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code conf/k8s-scheduler.yml}: the scheduler service's settings, every one with a default. */
public final class SchedulerConfig {
    /** Pods whose spec.schedulerName is this are ours; the profile of this name is used. */
    public String schedulerName = "koord-scheduler";
    /** A KubeSchedulerConfiguration file for the plugins and their args; empty: the default profile. */
    public String profileFile = "";
    public Kubernetes kubernetes = new Kubernetes();
    public LeaderElection leaderElection = new LeaderElection();
    /** Binding and Event writes per second (kube-scheduler's client default, 50/s, caps its throughput). */
    public double clientQps = 200;
    /** Writes allowed at once above clientQps (client-go's burst); bindings and Events each have this rate. */
    public int clientBurst = 200;
    /** Retry of an unschedulable pod: first after this many seconds, doubling up to backoffMaxSeconds. */
    public double backoffInitialSeconds = 1;
    public double backoffMaxSeconds = 10;
    public Status status = new Status();

    /** /healthz and /metrics (Prometheus); all interfaces, for the cluster's Prometheus and the kubelet's probes. */
    public static final class Status {
        public String bindAddress = "0.0.0.0";
        /** 0 picks a free port. */
        public int port = 10261;
    }

    public static final class Kubernetes {
        /** A kubeconfig file; empty: in-cluster service account, else ~/.kube/config. */
        public String kubeconfig = "";
        public String masterUrl = "";
    }

    /** One replica binds at a time: a coordination.k8s.io Lease, as kube-scheduler's. */
    public static final class LeaderElection {
        public boolean enabled = true;
        public String leaseNamespace = "koordinator-system";
        public String leaseName = "koord-scheduler";
        public int leaseDurationSeconds = 15;
        public int renewDeadlineSeconds = 10;
        public int retryPeriodSeconds = 2;
    }

    /** Reads the file; a bad file or value is one message naming the file and the setting. */
    public static SchedulerConfig load(Path file) throws IOException {
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory()).enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        SchedulerConfig c;
        try {
            c = Files.size(file) == 0 ? new SchedulerConfig() : yaml.readValue(file.toFile(), SchedulerConfig.class);
        } catch (JsonMappingException e) {
            String field = e.getPath().stream().map(r -> r.getFieldName() == null ? "[" + r.getIndex() + "]" : r.getFieldName())
                    .reduce((a, b) -> a + "." + b).orElse("");
            throw new IOException(file + ": " + (field.isEmpty() ? "" : "setting '" + field + "': ")
                    + e.getOriginalMessage().lines().findFirst().orElse(""));
        }
        List<String> problems = c.validate();
        if (!problems.isEmpty()) {
            throw new IOException(file + ": " + String.join("; ", problems));
        }
        return c;
    }

    List<String> validate() {
        List<String> p = new ArrayList<>();
        if (schedulerName == null || schedulerName.isBlank()) {
            p.add("schedulerName is empty");
        }
        if (clientBurst < 1) {
            p.add("clientBurst must be at least 1, got " + clientBurst);
        }
        if (clientQps <= 0) {
            p.add("clientQps must be positive, got " + clientQps);
        }
        if (backoffInitialSeconds <= 0 || backoffMaxSeconds < backoffInitialSeconds) {
            p.add("backoffInitialSeconds must be positive and at most backoffMaxSeconds");
        }
        LeaderElection l = leaderElection;
        if (l.enabled && !(l.leaseDurationSeconds > l.renewDeadlineSeconds && l.renewDeadlineSeconds > l.retryPeriodSeconds
                && l.retryPeriodSeconds > 0)) {
            p.add("leaderElection: leaseDurationSeconds > renewDeadlineSeconds > retryPeriodSeconds > 0 is required");
        }
        return p;
    }
}
