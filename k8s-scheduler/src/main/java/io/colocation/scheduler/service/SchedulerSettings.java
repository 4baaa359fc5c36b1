package io.colocation.scheduler.service;

import io.colocation.runtime.YamlConfigLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code conf/k8s-scheduler.yml}: the scheduler service's settings, every one with a default. */
public final class SchedulerSettings {
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

    /** /livez, /readyz, /healthz and /metrics (Prometheus); all interfaces, for the cluster's Prometheus and the kubelet's probes. */
    public static final class Status {
        public String bindAddress = "0.0.0.0";
        /** 0 picks a free port. */
        public int port = 10261;
    }

    public static final class Kubernetes {
        /** A kubeconfig file; empty: in-cluster service account, else ~/.kube/config. */
        public String kubeconfig = "";
        public String masterUrl = "";
        /** How long to wait at start for the API server to list Nodes, NodeMetrics and Pods once. */
        public int startupTimeoutSeconds = 60;
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

    public static final String OVERRIDE_PREFIX = "k8s-scheduler.";

    /**
     * Reads the file by the parts' one convention ({@code ${VAR:-default}}, {@code -Dk8s-scheduler.<path>=value}); a bad
     * file or value is one message naming the file and the setting.
     */
    public static SchedulerSettings load(Path file) throws YamlConfigLoader.ConfigException {
        return YamlConfigLoader.fromProcess(SchedulerSettings.class, OVERRIDE_PREFIX, SchedulerSettings::validate).load(file);
    }

    public List<String> validate() {
        List<String> p = new ArrayList<>();
        if (schedulerName == null || schedulerName.isBlank()) {
            p.add("schedulerName is empty");
        }
        if (kubernetes.startupTimeoutSeconds < 1) {
            p.add("kubernetes.startupTimeoutSeconds must be at least 1, got " + kubernetes.startupTimeoutSeconds);
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
