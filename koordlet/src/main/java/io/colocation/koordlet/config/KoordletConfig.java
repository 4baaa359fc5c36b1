package io.colocation.koordlet.config;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.colocation.api.InvalidInputException;
import io.colocation.model.GoDuration;
import io.colocation.runtime.YamlConfigLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code conf/koordlet.yml}: every setting of the node agent with its default. Loaded by {@link #loader()} (the parts'
 * one convention: {@code ${VAR:-default}} and {@code -Dkoordlet.<path>=value}), which names the field of any bad value.
 */
@JsonIgnoreProperties(ignoreUnknown = false)
public final class KoordletConfig {
    /** This host's Node name; in the DaemonSet the downward API sets {@code NODE_NAME}. */
    public String nodeName = "";
    public Kubernetes kubernetes = new Kubernetes();
    public Host host = new Host();
    public Collect collect = new Collect();
    public Yarn yarn = new Yarn();
    public Prediction prediction = new Prediction();
    public Qos qos = new Qos();
    public Status status = new Status();

    public static final class Kubernetes {
        /** Empty: the in-cluster service account, else ~/.kube/config. */
        public String kubeconfig = "";
        /** Overrides the kubeconfig's API server URL. */
        public String masterUrl = "";
        /** How long to wait at start for the API server to answer and the informers to list once. */
        public int startupTimeoutSeconds = 60;
    }

    public static final class Host {
        /** The host's /proc (in the DaemonSet the host's is mounted, with hostPID). */
        public String procRoot = "/proc";
        /** The host's cgroup mount. */
        public String cgroupRoot = "/sys/fs/cgroup";
        /** auto (detect kubepods.slice or kubepods), cgroupfs or systemd. */
        public String cgroupDriver = "auto";
        /** auto (cgroup.controllers at the root means v2), v1 or v2. */
        public String cgroupVersion = "auto";
        /** The host's /sys, for the CPU topology CPU suppress picks CPUs by. */
        public String sysRoot = "/sys";
    }

    public static final class Collect {
        /** Sampling interval of node, pod, host-application and YARN usage. */
        public int intervalSeconds = 1;
        /**
         * Longest window kept in memory. The collect policy's aggregate durations and the training interval
         * are capped to it; 30 minutes covers Koordinator's defaults.
         */
        public int retentionSeconds = 1800;
        /**
         * Containers are sampled less often than pods: nothing in the report needs them, and they double the files
         * read per sample. 0 turns them off; otherwise a multiple of intervalSeconds.
         */
        public int containerIntervalSeconds = 10;
    }

    public static final class Yarn {
        /** The copilot's local API (yarn-copilot-nm), a loopback http URL; empty turns YARN collection off. */
        public String copilotUrl = "http://127.0.0.1:8049";
        /**
         * The copilot's token file, as the NodeManager sees it; empty: the file the copilot names in /information. Either
         * way it is read through the verified NodeManager's /proc/PID/root and sent only to that process.
         */
        public String tokenFile = "";
        /**
         * Who may run the NodeManager whose copilot this agent trusts (user names, or uids where this agent's image has no
         * passwd entry); root always may. The socket on the copilot's port must belong to one of them.
         */
        public List<String> nodeManagerUsers = new ArrayList<>(List.of("yarn"));
        /** How often the container list is fetched; usage itself is sampled every collect interval. */
        public int refreshSeconds = 5;
        /** The host application all YARN containers are reported as. */
        public String hostApplicationName = "hadoop-yarn";
    }

    /** Koordinator's koordlet prediction flags (docs/koordinator-compatibility.md §3.2, §13). */
    public static final class Prediction {
        public String checkpointDir = "/var/lib/koordlet/prediction-checkpoints";
        public String coldStartDuration = "24h";
        public int safetyMarginPercent = 10;
        public String cpuHistogramDecayHalfLife = "12h";
        public String memoryHistogramDecayHalfLife = "24h";
        public String trainingInterval = "1m";
        public String modelExpirationDuration = "30m";
        public String modelCheckpointInterval = "10m";
        public int modelCheckpointMaxPerStep = 12;
    }

    /** The BE tier's QoS strategies (docs/koordinator-compatibility.md §5): which run and how. */
    public static final class Qos {
        /** Run the strategies each second; false leaves the BE cgroups alone. */
        public boolean enabled = true;
        /** Koordinator's --feature-gates syntax, e.g. "BEMemoryEvict=true,BECPUEvict=true"; the flag overrides it. */
        public String featureGates = "";
        /**
         * Mark the BE cgroup idle for the kernel scheduler (cpu.idle=1, cgroup v2 or v1 from kernel 5.15), so online
         * tasks preempt batch at every wake-up instead of waiting for the next suppress round. Beyond Koordinator.
         */
        public boolean beCpuIdle = false;
        /**
         * Where YARN containers that YARN put in no cgroup (DefaultContainerExecutor) are placed, one cgroup each;
         * empty: hadoop-yarn under the kubelet's besteffort cgroup. Containers YARN placed itself are left alone.
         */
        public String yarnCgroupParent = "";
        /**
         * memory.high on the BE cgroup (cgroup v2): capacity × memoryEvictThresholdPercent − non-BE use, so batch is
         * throttled before the node reaches the eviction threshold. Beyond Koordinator.
         */
        public boolean beMemoryHigh = false;
        /** Eviction when the host's memory pressure stall stays high. Beyond Koordinator. */
        public MemoryPressureEvict memoryPressureEvict = new MemoryPressureEvict();
    }

    /** Evict the first BE victim (BEMemoryEvict's order) when /proc/pressure/memory "some avg10" stays high. */
    public static final class MemoryPressureEvict {
        public boolean enabled = false;
        /** The share of time some task stalled on memory (avg10, percent) that counts as high. */
        public double someAvg10Percent = 40;
        /** How long it must stay at or above that before the first eviction. */
        public long forSeconds = 5;
    }

    public static final class Status {
        /** Loopback by default: health, last samples, last report and /metrics are for the host only. */
        public String bindAddress = "127.0.0.1";
        /** 0 picks a free port (tests, several simulated koordlets on one host). */
        public int port = 9316;
    }

    /** The loader of this file: {@code -Dkoordlet.<path>} overrides, the process's environment. */
    public static YamlConfigLoader<KoordletConfig> loader() {
        return YamlConfigLoader.fromProcess(KoordletConfig.class, OVERRIDE_PREFIX, KoordletConfig::validate);
    }

    public static final String OVERRIDE_PREFIX = "koordlet.";

    /** Problems found by {@link #validate()}, each naming the field and the value. */
    public List<String> validate() {
        List<String> problems = new ArrayList<>();
        if (nodeName == null || nodeName.isBlank()) {
            problems.add("nodeName is empty (set it, or NODE_NAME in the environment)");
        }
        try {
            io.colocation.koordlet.qos.FeatureGates.parse(qos.featureGates);
        } catch (IllegalArgumentException e) {
            problems.add("qos.featureGates: " + e.getMessage());
        }
        if (qos.memoryPressureEvict.someAvg10Percent <= 0 || qos.memoryPressureEvict.someAvg10Percent > 100) {
            problems.add("qos.memoryPressureEvict.someAvg10Percent must be in (0, 100], got " + qos.memoryPressureEvict.someAvg10Percent);
        }
        if (qos.memoryPressureEvict.forSeconds < 0) {
            problems.add("qos.memoryPressureEvict.forSeconds must not be negative, got " + qos.memoryPressureEvict.forSeconds);
        }
        if (kubernetes.startupTimeoutSeconds < 1) {
            problems.add("kubernetes.startupTimeoutSeconds must be at least 1, got " + kubernetes.startupTimeoutSeconds);
        }
        if (!List.of("auto", "cgroupfs", "systemd").contains(host.cgroupDriver)) {
            problems.add("host.cgroupDriver must be auto, cgroupfs or systemd, got '" + host.cgroupDriver + "'");
        }
        if (!List.of("auto", "v1", "v2").contains(host.cgroupVersion)) {
            problems.add("host.cgroupVersion must be auto, v1 or v2, got '" + host.cgroupVersion + "'");
        }
        if (collect.intervalSeconds < 1 || collect.intervalSeconds > 60) {
            problems.add("collect.intervalSeconds must be 1 to 60, got " + collect.intervalSeconds);
        }
        if (collect.containerIntervalSeconds < 0 || collect.containerIntervalSeconds > 3600
                || collect.containerIntervalSeconds % Math.max(collect.intervalSeconds, 1) != 0) {
            problems.add("collect.containerIntervalSeconds must be 0 (off) or a multiple of collect.intervalSeconds up to 3600, got "
                    + collect.containerIntervalSeconds);
        }
        if (collect.retentionSeconds < 60 || collect.retentionSeconds > 86_400) {
            problems.add("collect.retentionSeconds must be 60 to 86400, got " + collect.retentionSeconds);
        }
        if (yarn.nodeManagerUsers == null || yarn.nodeManagerUsers.stream().anyMatch(u -> u == null || u.isBlank())) {
            problems.add("yarn.nodeManagerUsers must list user names or uids (root is always allowed), got " + yarn.nodeManagerUsers);
        }
        if (yarn.refreshSeconds < 1) {
            problems.add("yarn.refreshSeconds must be at least 1, got " + yarn.refreshSeconds);
        }
        if (yarn.hostApplicationName == null || yarn.hostApplicationName.isBlank()) {
            problems.add("yarn.hostApplicationName is empty");
        }
        if (prediction.safetyMarginPercent < 0 || prediction.safetyMarginPercent > 1000) {
            problems.add("prediction.safetyMarginPercent must be 0 to 1000, got " + prediction.safetyMarginPercent);
        }
        if (prediction.modelCheckpointMaxPerStep < 1) {
            problems.add("prediction.modelCheckpointMaxPerStep must be at least 1, got " + prediction.modelCheckpointMaxPerStep);
        }
        for (String[] d : new String[][] {{"prediction.coldStartDuration", prediction.coldStartDuration},
                {"prediction.cpuHistogramDecayHalfLife", prediction.cpuHistogramDecayHalfLife},
                {"prediction.memoryHistogramDecayHalfLife", prediction.memoryHistogramDecayHalfLife},
                {"prediction.trainingInterval", prediction.trainingInterval},
                {"prediction.modelExpirationDuration", prediction.modelExpirationDuration},
                {"prediction.modelCheckpointInterval", prediction.modelCheckpointInterval}}) {
            try {
                GoDuration.parse(d[1], d[0]);
            } catch (InvalidInputException e) {
                problems.add(e.getMessage());
            }
        }
        if (status.port < 0 || status.port > 65_535) {
            problems.add("status.port must be 0 to 65535, got " + status.port);
        }
        return problems;
    }

    public Path procRoot() {
        return Path.of(host.procRoot);
    }

    public Path cgroupRoot() {
        return Path.of(host.cgroupRoot);
    }

    /** A duration already checked by {@link #validate()}. */
    public static java.time.Duration duration(String text, String where) {
        try {
            return GoDuration.parse(text, where);
        } catch (InvalidInputException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }
}
