package io.colocation.koordlet;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.colocation.koordlet.cgroup.CgroupLayout;
import io.colocation.koordlet.collect.CgroupTreeFixture;
import io.colocation.koordlet.collect.ProcessCpuTime;
import io.colocation.model.slo.NodeMetric;
import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.localclusters.kube.KubeApiServer;
import io.colocation.testsupport.kube.KubeApiServerExtension;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.File;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The koordlet's footprint on a realistic host: 100 pods (one container each) and 50 YARN containers, cgroup
 * trees generated on disk for v1 and v2, 1 s loops, reporting on against a real API server. Two koordlets (v1,
 * v2) run as separate processes through the distribution's launcher, with its default JVM options; after the
 * given minutes each one's CPU (share of one core, from its own cputime in /proc) and RSS are printed beside the
 * budget and Koordinator's shipped limits. Not part of the test suite: {@code dev/bench-koordlet-footprint.sh}.
 */
@ExtendWith(KubeApiServerExtension.class)
class KoordletFootprintBenchmark {
    private static final int PODS = 100;
    private static final int YARN = 50;
    private static final long MI = 1L << 20;

    @TempDir
    Path tmp;

    @Test
    void footprint(KubernetesClient client, KubeApiServer api) throws Exception {
        double minutes = Double.parseDouble(System.getProperty("footprint.minutes", "10"));
        Path launcher = Path.of(System.getProperty("footprint.launcher", "../dist/target/colocation/bin/colocation"));
        assertTrue(Files.isExecutable(launcher), "build the distribution first: " + launcher);
        ColocationObjects.installNodeMetricCrd(client, Path.of("../conf/kubernetes/crds/slo.koordinator.sh_nodemetrics.yaml"));
        ColocationObjects.namespace(client, "bench");

        List<Process> koordlets = new ArrayList<>();
        List<String> names = new ArrayList<>();
        List<HttpServer> copilots = new ArrayList<>();
        for (CgroupLayout.Version version : CgroupLayout.Version.values()) {
            String node = "bench-" + version.name().toLowerCase();
            CgroupTreeFixture host = new CgroupTreeFixture(tmp.resolve(node), version, CgroupLayout.Driver.CGROUPFS);
            ColocationObjects.node(client, node, "bench", 64, 256);
            NodeMetric nm = new NodeMetric();
            nm.setMetadata(new ObjectMetaBuilder().withName(node).build());
            nm.setSpec(new NodeMetric.Spec(new NodeMetric.CollectPolicy(300L, 60L, new NodeMetric.AggregatePolicy(List.of("5m0s", "10m0s", "30m0s")),
                    "usageWithoutPageCache")));
            client.resources(NodeMetric.class).resource(nm).create();
            for (int i = 0; i < PODS; i++) {
                Pod pod = client.pods().inNamespace("bench").resource(new PodBuilder().withNewMetadata().withName(node + "-pod-" + i)
                        .endMetadata().withNewSpec().withNodeName(node).addNewContainer().withName("app").withImage("app")
                        .withNewResources().addToRequests(Map.of("cpu", new Quantity("500m"), "memory", new Quantity("1Gi")))
                        .endResources().endContainer().endSpec().build()).create();
                pod.getStatus().setPhase("Running");
                pod.getStatus().setQosClass("Burstable");
                pod.getStatus().setContainerStatuses(List.of(new ContainerStatusBuilder().withName("app")
                        .withContainerID("containerd://c" + i).build()));
                client.pods().inNamespace("bench").resource(pod).updateStatus();
                String dir = host.layout().podDir("Burstable", pod.getMetadata().getUid());
                host.cgroup(dir, 1_000_000L * i, 256 * MI, 64 * MI);
                host.cgroup(host.layout().containerDir(dir, "containerd://c" + i), 900_000L * i, 250 * MI, 60 * MI);
            }
            List<Map<String, Object>> containers = new ArrayList<>();
            for (int i = 0; i < YARN; i++) {
                String id = String.format("container_1_0001_01_%06d", i + 2);
                String dir = "kubepods/besteffort/hadoop-yarn/" + id;
                host.cgroup(dir, 2_000_000L * i, 512 * MI, 0);
                Map<String, Object> c = new LinkedHashMap<>();
                c.put("containerID", id);
                c.put("state", "RUNNING");
                c.put("cgroupDir", dir);
                c.put("pids", List.of(100_000 + i));
                containers.add(c);
            }
            byte[] body = new ObjectMapper().writeValueAsBytes(containers);
            HttpServer copilot = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 8);
            copilot.createContext("/v1/containers", ex -> {
                ex.sendResponseHeaders(200, body.length);
                ex.getResponseBody().write(body);
                ex.close();
            });
            copilot.start();
            copilots.add(copilot);

            Path config = tmp.resolve(node + ".yml");
            Files.writeString(config, "nodeName: " + node + "\nkubernetes: {kubeconfig: " + api.kubeconfig() + "}\n"
                    + "host: {procRoot: " + host.procRoot() + ", cgroupRoot: " + host.cgroupRoot() + "}\n"
                    + "yarn: {copilotUrl: http://127.0.0.1:" + copilot.getAddress().getPort() + "}\n"
                    + "prediction: {checkpointDir: " + tmp.resolve(node + "-checkpoints") + "}\n"
                    + "status: {port: 0}\n");
            ProcessBuilder pb = new ProcessBuilder(launcher.toString(), "koordlet", config.toString())
                    .redirectErrorStream(true).redirectOutput(tmp.resolve(node + ".log").toFile());
            pb.environment().remove("COLOCATION_OPTS");
            koordlets.add(pb.start());
            names.add(node + " (cgroup " + version.name().toLowerCase() + ")");
        }
        try {
            Thread.sleep(60_000);
            long[] warmCpu = new long[koordlets.size()];
            for (int i = 0; i < koordlets.size(); i++) {
                assertTrue(koordlets.get(i).isAlive(), names.get(i) + " runs; log: " + Files.readString(tmp.resolve(names.get(i).split(" ")[0] + ".log")));
                warmCpu[i] = cpuTicks(koordlets.get(i));
            }
            long measured = (long) (minutes * 60_000) - 60_000;
            Thread.sleep(Math.max(measured, 1000));
            System.out.printf("%nkoordlet footprint: %d pods, %d YARN containers, 1 s collect, reports every 60 s, %.1f min%n", PODS, YARN, minutes);
            System.out.printf("%-26s %12s %14s %10s %10s%n", "koordlet", "CPU total", "CPU after 1min", "RSS MiB", "peak MiB");
            for (int i = 0; i < koordlets.size(); i++) {
                Process p = koordlets.get(i);
                assertTrue(p.isAlive(), names.get(i) + " still runs");
                long ticks = cpuTicks(p);
                double total = ticks / 100.0 / (minutes * 60) * 100;
                double steady = (ticks - warmCpu[i]) / 100.0 / (measured / 1000.0) * 100;
                System.out.printf("%-26s %11.3f%% %13.3f%% %10d %10d%n", names.get(i), total, steady, statusKib(p, "VmRSS") / 1024,
                        statusKib(p, "VmHWM") / 1024);
            }
            System.out.printf("%-26s %11s %14s %10s%n", "budget", "0.5%", "0.5%", "128");
            System.out.printf("%-26s %11s %14s %10s%n", "Koordinator koordlet limit", "20%", "20%", "256");
            for (int i = 0; i < koordlets.size(); i++) {
                String log = Files.readString(tmp.resolve(names.get(i).split(" ")[0] + ".log"));
                assertTrue(log.contains("started"), names.get(i) + " log: " + log);
            }
        } finally {
            for (Process p : koordlets) {
                p.destroy();
                p.waitFor();
            }
            copilots.forEach(c -> c.stop(0));
        }
    }

    /** CPU ticks of the JVM, whose pid is the launcher's (it execs java). */
    private static long cpuTicks(Process p) throws Exception {
        return ProcessCpuTime.ticks(p.pid());
    }

    private static long statusKib(Process p, String field) throws Exception {
        for (String line : Files.readAllLines(new File("/proc/" + p.pid() + "/status").toPath())) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }
}
