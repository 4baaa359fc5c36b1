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
        // -Dbench.pending=N: after the last round's measured wave at the largest size, N pods no node fits are created
        // and the scheduler's heap after a full collection is measured with them all in its queue.
        int pending = Integer.getInteger("bench.pending", 0);
        int largest = Arrays.stream(sizes).max().orElse(0);
        Path work = Files.createDirectories(Path.of("target", "bench-k8s-scheduler"));
        List<Result> runs = new ArrayList<>();
        List<String> heaps = new ArrayList<>();
        // Rounds interleave the schedulers, so a slow spell of the machine does not fall on one of them only.
        for (int round = 1; round <= rounds; round++) {
            for (int nodes : sizes) {
                for (Scheduler s : schedulers) {
                    int pendingHere = round == rounds && nodes == largest && s != all.get(0) ? pending : 0;
                    Result r = run(work.resolve(nodes + "-" + s.schedulerName() + (s.loadAware() ? "-loadaware" : "")), nodes,
                            pods, warmup, qps, s, launcher, kubeScheduler, pendingHere, heaps);
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
        System.out.printf("%-7s %-28s %9s %9s %9s %7s %9s %9s %9s%n", "nodes", "scheduler", "pods/s", "p50 ms", "p99 ms",
                "ratio", "CPU s", "ms/pod", "LA/ours");
        for (Result r : results) {
            double reference = figure(results, r.nodes(), all.get(0), Result::podsPerSecond);
            String loadAware = r.scheduler() != all.get(2) ? "" : String.format("%.2f/%.2f",
                    r.podsPerSecond() / figure(results, r.nodes(), all.get(1), Result::podsPerSecond),
                    r.schedulerCpuMsPerPod() / figure(results, r.nodes(), all.get(1), Result::schedulerCpuMsPerPod));
            System.out.printf("%-7d %-28s %9.1f %9.0f %9.0f %7.2f %9.1f %9.2f %9s%n", r.nodes(), r.scheduler().label(),
                    r.podsPerSecond(), r.p50Ms(), r.p99Ms(), r.podsPerSecond() / reference, r.cpuSeconds(),
                    r.schedulerCpuMsPerPod(), loadAware);
        }
        System.out.println("(ratio: pods/s to kube-scheduler's; CPU s: the scheduler process over its whole run; ms/pod: its CPU"
                + " during the measured pods; LA/ours: LoadAware's pods/s and ms/pod to the same scheduler's without it)");
        heaps.forEach(System.out::println);
        assertEquals(rounds * sizes.length * schedulers.size(), runs.size());
    }

    /** A figure of one scheduler at one size among the medians; NaN when that scheduler did not run. */
    private static double figure(List<Result> results, int nodes, Scheduler s, java.util.function.ToDoubleFunction<Result> f) {
        return results.stream().filter(o -> o.nodes() == nodes && o.scheduler() == s).mapToDouble(f).findFirst().orElse(Double.NaN);
    }

    private static double median(List<Result> runs, java.util.function.ToDoubleFunction<Result> figure) {
        double[] v = runs.stream().mapToDouble(figure).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private static Result run(Path dir, int nodes, int pods, int warmup, int qps, Scheduler scheduler, Path launcher,
            Path kubeScheduler, int pending, List<String> heaps) throws Exception {
        deleteRecursively(dir);
        Files.createDirectories(dir);
        try (KubeApiServer api = KubeApiServer.start(dir.resolve("apiserver"));
                KubernetesClient client = api.newClient()) {
            ColocationObjects.installNodeMetricCrd(client, Path.of("../conf/kubernetes/crds/slo.koordinator.sh_nodemetrics.yaml"));
            ColocationObjects.namespace(client, NS);
            Instant metricsWritten = createNodes(client, nodes);
            int statusPort = LoopbackPorts.pick();
            Process process = startScheduler(dir, api, scheduler, qps, launcher, kubeScheduler, statusPort);
            try {
                Bindings bindings = new Bindings(client);
                try {
                    // NodeMetrics expire after 180 s (Koordinator's default); a koordlet reports every 60 s: metrics
                    // written more than a minute ago are written again, as they would have been, before the pods.
                    if (Duration.between(metricsWritten, Instant.now()).toSeconds() > 60) {
                        writeMetrics(client, nodes);
                    }
                    wave(client, scheduler, "warmup", warmup, bindings, process, dir);
                    List<Long> apiServer = api.processIds();
                    double schedulerBefore = cpuSeconds(process.pid());
                    double apiServerBefore = cpuSeconds(apiServer);
                    double writersBefore = cpuSeconds(ProcessHandle.current().pid());
                    Wave measured = wave(client, scheduler, "pod", pods, bindings, process, dir);
                    double schedulerAfter = cpuSeconds(process.pid());
                    double apiServerAfter = cpuSeconds(apiServer);
                    double writersAfter = cpuSeconds(ProcessHandle.current().pid());
                    if (pending > 0) {
                        String heap;
                        try {
                            heap = String.format("heap used after a full GC %,d MiB", heapAfterGc(client, process, statusPort, pending));
                        } catch (Exception e) {
                            heap = "heap not measured: " + e.getMessage(); // the table above still stands
                        }
                        heaps.add(String.format("%s at %,d nodes with %,d pending pods (%,d bound): %s", scheduler.label(), nodes,
                                pending, warmup + pods, heap));
                    }
                    double perPod = 1000.0 / pods;
                    double[] latencies = measured.latenciesMs();
                    Arrays.sort(latencies);
                    return new Result(nodes, scheduler, pods / measured.seconds(), pods / measured.createSeconds(),
                            percentile(latencies, 0.50), percentile(latencies, 0.99), schedulerAfter,
                            (schedulerAfter - schedulerBefore) * perPod,
                            (apiServerAfter - apiServerBefore) * perPod, (writersAfter - writersBefore) * perPod);
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

    /**
     * Creates {@code count} pods no node fits (more batch-cpu than any node has), waits until the scheduler has tried
     * them (as many unschedulable attempts as pods, its {@code koord_scheduler_attempt_duration_seconds} count) and its
     * queues hold them all ({@code koord_scheduler_pending_pods}), then has the scheduler's JVM collect fully and reads
     * its heap.
     */
    private static long heapAfterGc(KubernetesClient client, Process process, int statusPort, int count) throws Exception {
        ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                done.add(writers.submit(() -> {
                    for (int i = writer; i < count; i += WRITERS) {
                        Pod pod = batchPod("pending-" + i, "koord-scheduler");
                        pod.getSpec().getContainers().get(0).getResources().setRequests(Map.of("kubernetes.io/batch-cpu",
                                new Quantity("64000")));
                        pod.getSpec().getContainers().get(0).getResources().setLimits(Map.of("kubernetes.io/batch-cpu",
                                new Quantity("64000")));
                        client.pods().inNamespace(NS).resource(pod).create();
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(20, TimeUnit.MINUTES);
            }
        } finally {
            writers.shutdownNow();
        }
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(20);
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        java.net.http.HttpRequest metrics = java.net.http.HttpRequest.newBuilder(
                java.net.URI.create("http://127.0.0.1:" + statusPort + "/metrics")).build();
        java.util.regex.Pattern queued = java.util.regex.Pattern.compile("koord_scheduler_pending_pods\\{queue=\"[a-z]+\",?\\} (\\S+)");
        java.util.regex.Pattern tries = java.util.regex.Pattern.compile(
                "koord_scheduler_attempt_duration_seconds_count\\{result=\"unschedulable\",?\\} (\\S+)");
        while (true) {
            String body = http.send(metrics, java.net.http.HttpResponse.BodyHandlers.ofString()).body();
            double inQueues = 0;
            for (java.util.regex.Matcher m = queued.matcher(body); m.find();) {
                inQueues += Double.parseDouble(m.group(1));
            }
            java.util.regex.Matcher t = tries.matcher(body);
            double tried = t.find() ? Double.parseDouble(t.group(1)) : 0;
            if (tried >= count && inQueues >= count) {
                break;
            }
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException((long) tried + " unschedulable attempts and " + (long) inQueues + " pods queued of "
                        + count + " pending pods");
            }
            Thread.sleep(2000);
        }
        jcmd(process.pid(), "GC.run");
        long usedKb = 0;
        for (java.util.regex.Matcher m = java.util.regex.Pattern.compile("used (\\d+)K").matcher(jcmd(process.pid(), "GC.heap_info"));
                m.find();) {
            usedKb += Long.parseLong(m.group(1)); // the generations' lines; the metaspace lines say "used NK" too, skipped below
        }
        return usedKb / 1024;
    }

    /** {@code jcmd PID COMMAND}'s output, heap generations only for GC.heap_info (its Metaspace lines are not heap). */
    private static String jcmd(long pid, String command) throws IOException, InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IOException("jcmd " + pid + " " + command + " failed: " + out);
        }
        int metaspace = out.indexOf("Metaspace");
        return metaspace < 0 ? out : out.substring(0, metaspace);
    }

    /** Nodes with 32 cores of batch-cpu and 64 GiB of batch-memory each, Ready, and a NodeMetric at 0-60 % cpu; returns when the metrics were written. */
    private static Instant createNodes(KubernetesClient client, int count) throws Exception {
        Map<String, Quantity> resources = Map.of("cpu", new Quantity("32"), "memory", new Quantity("128Gi"), "pods",
                new Quantity("110"), "kubernetes.io/batch-cpu", new Quantity("32000"), "kubernetes.io/batch-memory",
                new Quantity("64Gi"));
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                String name = String.format("node-%05d", i);
                done.add(pool.submit(() -> {
                    ColocationObjects.readyNode(client, name, resources);
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        return writeMetrics(client, count);
    }

    /** Each node's NodeMetric at 0-60 % cpu (by its number), updated now; returns when they were all written. */
    private static Instant writeMetrics(KubernetesClient client, int count) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                String name = String.format("node-%05d", i);
                long cpuMilli = (i % 7) * 3200L;
                done.add(pool.submit(() -> {
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
        return Instant.now();
    }

    private static Process startScheduler(Path dir, KubeApiServer api, Scheduler scheduler, int qps, Path launcher,
            Path kubeScheduler, int statusPort) throws IOException {
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
                    "  port: " + statusPort,
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
