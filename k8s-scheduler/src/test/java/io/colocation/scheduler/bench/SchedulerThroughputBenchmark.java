package io.colocation.scheduler.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.colocation.localclusters.LoopbackPorts;
import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.localclusters.kube.KubeApiServer;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * This scheduler against kube-scheduler v1.20.2, side by side in one run (dev/bench-k8s-scheduler.sh). For each
 * cluster size and each scheduler: a fresh etcd + kube-apiserver, the same Node objects (batch resources, Ready, no
 * kubelets) with a NodeMetric each, the scheduler started as its own process with the same client QPS and burst, a
 * warm-up wave, then the measured pods created by 8 concurrent writers while the scheduler runs. Bindings are seen
 * through a watch; pods/s is measured pods over first creation to last binding, latency is creation request to
 * binding seen. Scheduling only, the pods never run.
 */
class SchedulerThroughputBenchmark {
    private static final String NS = "bench";
    private static final int WRITERS = 8;

    private record Scheduler(String label, String schedulerName, boolean loadAware) {
    }

    /**
     * @param cpuSeconds the scheduler process's CPU time (user + system) over its whole run, start-up included
     * @param schedulerCpuMsPerPod the scheduler's CPU time during the measured wave, per measured pod
     * @param apiServerCpuMsPerPod kube-apiserver's and etcd's, the same way
     * @param writersCpuMsPerPod this benchmark's process's (the writers and the bindings watch), the same way
     */
    private record Result(int nodes, Scheduler scheduler, double podsPerSecond, double createdPerSecond, double p50Ms,
            double p99Ms, double cpuSeconds, double schedulerCpuMsPerPod, double apiServerCpuMsPerPod,
            double writersCpuMsPerPod) {
    }

    @Test
    void bindsPodsSideBySide() throws Exception {
        int[] sizes = Arrays.stream(System.getProperty("bench.nodes", "1000,5000").split(",")).map(String::trim)
                .mapToInt(Integer::parseInt).toArray();
        int pods = Integer.getInteger("bench.pods", 5000);
        int warmup = Integer.getInteger("bench.warmup", 1000); // the JVM compiles its hot paths meanwhile: steady state is measured
        int qps = Integer.getInteger("bench.qps", 1000);
        Path launcher = Path.of(System.getProperty("bench.launcher", "../dist/target/colocation/bin/colocation"));
        Path kubeScheduler = KubeApiServer.locateBinaries().resolve("kube-scheduler");
        if (!Files.isExecutable(kubeScheduler) || !Files.isExecutable(launcher)) {
            throw new IllegalStateException("needs " + kubeScheduler + " (dev/install-kube-apiserver.sh --with-kube-scheduler)"
                    + " and " + launcher + " (mvn package -pl dist -am); dev/bench-k8s-scheduler.sh does both");
        }
        List<Scheduler> all = List.of(new Scheduler("kube-scheduler v1.20.2", "default-scheduler", false),
                new Scheduler("koord-scheduler (ours)", "koord-scheduler", false),
                new Scheduler("koord-scheduler + LoadAware", "koord-scheduler", true));
        // -Dbench.schedulers=0,2 runs a subset (indexes into the list above); the ratio needs 0, kube-scheduler.
        List<Scheduler> schedulers = Arrays.stream(System.getProperty("bench.schedulers", "0,1,2").split(","))
                .map(String::trim).map(i -> all.get(Integer.parseInt(i))).toList();
        int rounds = Integer.getInteger("bench.rounds", 3);
        Path work = Files.createDirectories(Path.of("target", "bench-k8s-scheduler"));
        List<Result> runs = new ArrayList<>();
        // Rounds interleave the schedulers, so a slow spell of the machine does not fall on one of them only.
        for (int round = 1; round <= rounds; round++) {
            for (int nodes : sizes) {
                for (Scheduler s : schedulers) {
                    Result r = run(work.resolve(nodes + "-" + s.schedulerName() + (s.loadAware() ? "-loadaware" : "")), nodes,
                            pods, warmup, qps, s, launcher, kubeScheduler);
                    System.out.printf("  round %d  %,d nodes  %-28s %7.1f pods/s  p50 %7.0f ms  p99 %7.0f ms  (created %.0f/s,"
                            + " scheduler CPU %.1f s; CPU ms per measured pod: scheduler %.2f, kube-apiserver + etcd %.2f,"
                            + " writers %.2f)%n", round, nodes, s.label(), r.podsPerSecond(), r.p50Ms(), r.p99Ms(),
                            r.createdPerSecond(), r.cpuSeconds(), r.schedulerCpuMsPerPod(), r.apiServerCpuMsPerPod(),
                            r.writersCpuMsPerPod());
                    runs.add(r);
                }
            }
        }
        List<Result> results = new ArrayList<>();
        for (int nodes : sizes) {
            for (Scheduler s : schedulers) {
                List<Result> mine = runs.stream().filter(r -> r.nodes() == nodes && r.scheduler() == s).toList();
                results.add(new Result(nodes, s, median(mine, Result::podsPerSecond), median(mine, Result::createdPerSecond),
                        median(mine, Result::p50Ms), median(mine, Result::p99Ms), median(mine, Result::cpuSeconds),
                        median(mine, Result::schedulerCpuMsPerPod), median(mine, Result::apiServerCpuMsPerPod),
                        median(mine, Result::writersCpuMsPerPod)));
            }
        }
        System.out.printf("%nk8s-scheduler vs kube-scheduler: %,d batch pods (after %d warm-up), client QPS = burst = %d,"
                + " %d writers, %d cores shared by everything; medians of %d interleaved rounds%n", pods, warmup, qps,
                WRITERS, Runtime.getRuntime().availableProcessors(), rounds);
        System.out.printf("%-7s %-28s %9s %9s %9s %7s %9s %9s%n", "nodes", "scheduler", "pods/s", "p50 ms", "p99 ms",
                "ratio", "CPU s", "ms/pod");
        for (Result r : results) {
            double reference = results.stream().filter(o -> o.nodes() == r.nodes() && o.scheduler() == all.get(0))
                    .mapToDouble(Result::podsPerSecond).findFirst().orElse(Double.NaN);
            System.out.printf("%-7d %-28s %9.1f %9.0f %9.0f %7.2f %9.1f %9.2f%n", r.nodes(), r.scheduler().label(),
                    r.podsPerSecond(), r.p50Ms(), r.p99Ms(), r.podsPerSecond() / reference, r.cpuSeconds(),
                    r.schedulerCpuMsPerPod());
        }
        System.out.println("(CPU s: the scheduler process over its whole run; ms/pod: its CPU during the measured pods)");
        assertEquals(rounds * sizes.length * schedulers.size(), runs.size());
    }

    private static double median(List<Result> runs, java.util.function.ToDoubleFunction<Result> figure) {
        double[] v = runs.stream().mapToDouble(figure).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private static Result run(Path dir, int nodes, int pods, int warmup, int qps, Scheduler scheduler, Path launcher,
            Path kubeScheduler) throws Exception {
        deleteRecursively(dir);
        Files.createDirectories(dir);
        try (KubeApiServer api = KubeApiServer.start(dir.resolve("apiserver"));
                KubernetesClient client = api.newClient()) {
            ColocationObjects.installNodeMetricCrd(client, Path.of("../conf/kubernetes/crds/slo.koordinator.sh_nodemetrics.yaml"));
            ColocationObjects.namespace(client, NS);
            createNodes(client, nodes);
            Process process = startScheduler(dir, api, scheduler, qps, launcher, kubeScheduler);
            try {
                Bindings bindings = new Bindings(client);
                try {
                    wave(client, scheduler, "warmup", warmup, bindings, process, dir);
                    List<Long> apiServer = api.processIds();
                    double schedulerBefore = cpuSeconds(process.pid());
                    double apiServerBefore = cpuSeconds(apiServer);
                    double writersBefore = cpuSeconds(ProcessHandle.current().pid());
                    Wave measured = wave(client, scheduler, "pod", pods, bindings, process, dir);
                    double schedulerAfter = cpuSeconds(process.pid());
                    double perPod = 1000.0 / pods;
                    double[] latencies = measured.latenciesMs();
                    Arrays.sort(latencies);
                    return new Result(nodes, scheduler, pods / measured.seconds(), pods / measured.createSeconds(),
                            percentile(latencies, 0.50), percentile(latencies, 0.99), schedulerAfter,
                            (schedulerAfter - schedulerBefore) * perPod,
                            (cpuSeconds(apiServer) - apiServerBefore) * perPod,
                            (cpuSeconds(ProcessHandle.current().pid()) - writersBefore) * perPod);
                } finally {
                    bindings.close();
                }
            } finally {
                process.destroy();
                if (!process.waitFor(20, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor();
                }
            }
        }
    }

    /** Nodes with 32 cores of batch-cpu and 64 GiB of batch-memory each, Ready, and a NodeMetric at 0-60 % cpu. */
    private static void createNodes(KubernetesClient client, int count) throws Exception {
        Map<String, Quantity> resources = Map.of("cpu", new Quantity("32"), "memory", new Quantity("128Gi"), "pods",
                new Quantity("110"), "kubernetes.io/batch-cpu", new Quantity("32000"), "kubernetes.io/batch-memory",
                new Quantity("64Gi"));
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                String name = String.format("node-%05d", i);
                long cpuMilli = (i % 7) * 3200L;
                done.add(pool.submit(() -> {
                    ColocationObjects.readyNode(client, name, resources);
                    ColocationObjects.nodeMetric(client, name, "bench", cpuMilli, 32L << 30, Instant.now());
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static Process startScheduler(Path dir, KubeApiServer api, Scheduler scheduler, int qps, Path launcher,
            Path kubeScheduler) throws IOException {
        List<String> command;
        if (scheduler.schedulerName().equals("default-scheduler")) {
            command = List.of(kubeScheduler.toString(), "--kubeconfig=" + api.kubeconfig(), "--leader-elect=false",
                    "--kube-api-qps=" + qps, "--kube-api-burst=" + qps, "--port=0", "--secure-port=0", "--v=1");
        } else {
            Path profile = dir.resolve("profile.yaml");
            Files.writeString(profile, String.join("\n",
                    "apiVersion: kubescheduler.config.k8s.io/v1",
                    "kind: KubeSchedulerConfiguration",
                    "profiles:",
                    "- schedulerName: koord-scheduler",
                    "  plugins:",
                    "    filter:",
                    "      disabled: [{name: LoadAwareScheduling}]",
                    "    score:",
                    "      disabled: [{name: LoadAwareScheduling}]",
                    ""));
            Path config = dir.resolve("k8s-scheduler.yml");
            Files.writeString(config, String.join("\n",
                    "schedulerName: koord-scheduler",
                    "profileFile: \"" + (scheduler.loadAware() ? "" : profile.toAbsolutePath()) + "\"",
                    "kubernetes:",
                    "  kubeconfig: " + api.kubeconfig().toAbsolutePath(),
                    "leaderElection:",
                    "  enabled: false",
                    "clientQps: " + qps,
                    "status:",
                    "  bindAddress: 127.0.0.1",
                    "  port: " + LoopbackPorts.pick(),
                    ""));
            command = List.of(launcher.toAbsolutePath().toString(), "k8s-scheduler", config.toAbsolutePath().toString());
        }
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve("scheduler.log").toFile())
                .start();
    }

    /** The time each pod of the namespace was first seen bound, from one watch. */
    private static final class Bindings implements Watcher<Pod>, AutoCloseable {
        private final Map<String, Long> boundAt = new ConcurrentHashMap<>();
        private final Watch watch;

        Bindings(KubernetesClient client) {
            watch = client.pods().inNamespace(NS).watch(this);
        }

        @Override
        public void eventReceived(Action action, Pod pod) {
            if (pod.getSpec().getNodeName() != null && !pod.getSpec().getNodeName().isEmpty()) {
                boundAt.putIfAbsent(pod.getMetadata().getName(), System.nanoTime());
            }
        }

        @Override
        public void onClose(WatcherException cause) {
            if (cause != null) {
                throw new IllegalStateException("the bindings watch closed", cause);
            }
        }

        @Override
        public void close() {
            watch.close();
        }
    }

    private record Wave(double seconds, double createSeconds, double[] latenciesMs) {
    }

    /** Creates {@code count} pods with {@link #WRITERS} writers and waits until every one is bound. */
    private static Wave wave(KubernetesClient client, Scheduler scheduler, String prefix, int count, Bindings bindings,
            Process process, Path dir) throws Exception {
        long[] createdAt = new long[count];
        ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
        CountDownLatch created = new CountDownLatch(count);
        long first = System.nanoTime();
        try {
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                writers.submit(() -> {
                    for (int i = writer; i < count; i += WRITERS) {
                        createdAt[i] = System.nanoTime();
                        client.pods().inNamespace(NS).resource(batchPod(prefix + "-" + i, scheduler.schedulerName())).create();
                        created.countDown();
                    }
                    return null;
                });
            }
            if (!created.await(10, TimeUnit.MINUTES)) {
                throw new IllegalStateException("pods not created within 10 minutes");
            }
        } finally {
            writers.shutdownNow();
        }
        long createdAll = System.nanoTime();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        while (true) {
            long bound = bindings.boundAt.keySet().stream().filter(k -> k.startsWith(prefix + "-")).count();
            if (bound == count) {
                break;
            }
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException(scheduler.label() + ": " + bound + " of " + count + " " + prefix
                        + " pods bound (scheduler " + (process.isAlive() ? "running" : "exited") + "); see "
                        + dir.resolve("scheduler.log"));
            }
            Thread.sleep(20);
        }
        long last = 0;
        double[] latencies = new double[count];
        for (int i = 0; i < count; i++) {
            long at = bindings.boundAt.get(prefix + "-" + i);
            last = Math.max(last, at);
            latencies[i] = (at - createdAt[i]) / 1e6;
        }
        return new Wave((last - first) / 1e9, (createdAll - first) / 1e9, latencies);
    }

    private static Pod batchPod(String name, String schedulerName) {
        Map<String, Quantity> requests = Map.of("kubernetes.io/batch-cpu", new Quantity("1000"),
                "kubernetes.io/batch-memory", new Quantity("1Gi"));
        return new PodBuilder().withNewMetadata().withName(name).withNamespace(NS)
                .addToLabels("koordinator.sh/priority-class", "koord-batch").endMetadata()
                .withNewSpec().withSchedulerName(schedulerName).addNewContainer().withName("task").withImage("spark")
                .withNewResources().withRequests(requests).withLimits(requests).endResources().endContainer().endSpec()
                .build();
    }

    private static double cpuSeconds(List<Long> pids) throws IOException {
        double sum = 0;
        for (long pid : pids) {
            sum += cpuSeconds(pid);
        }
        return sum;
    }

    /** utime + stime of the process from /proc/PID/stat, in seconds (clock ticks of 1/100 s). */
    private static double cpuSeconds(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0;
    }

    private static double percentile(double[] sorted, double q) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)];
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (var walk = Files.walk(dir)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
