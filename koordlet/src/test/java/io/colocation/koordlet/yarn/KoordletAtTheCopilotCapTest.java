package io.colocation.koordlet.yarn;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.colocation.koordlet.cgroup.CgroupLayout;
import io.colocation.koordlet.collect.CgroupTreeFixture;
import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.localclusters.kube.KubeApiServer;
import io.colocation.model.slo.NodeMetric;
import io.colocation.testsupport.Await;
import io.colocation.testsupport.kube.KubeApiServerExtension;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The probe's 1 MB copilot answer (issue 64) against the whole agent: the koordlet's own JVM with the launcher's heap
 * (64 MiB, -XX:+ExitOnOutOfMemoryError), a verified copilot (this JVM, holding the port) listing 4,000 running YARN
 * containers (about 1 MB), a cgroup tree of those containers, and a real kube-apiserver for its reports. The agent
 * measures and places every container each round for a minute and a half and reports them; before the fix it ended with
 * OutOfMemoryError after placing about 1,300.
 */
@ExtendWith(KubeApiServerExtension.class)
class KoordletAtTheCopilotCapTest {
    private static final String PARENT = "kubepods/besteffort/hadoop-yarn";
    private static final int CONTAINERS = 4_000;
    private static final long SELF = ProcessHandle.current().pid();

    @Test
    void fourThousandContainersLiveWithinTheAgentsHeap(KubernetesClient client, KubeApiServer api, @TempDir Path dir) throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "the copilot's peer is verified through /proc as root does");
        String launcher = Files.readString(Path.of("../dist/src/bin/colocation"));
        Matcher m = Pattern.compile("KOORDLET_JVM_DEFAULTS=\"([^\"]+)\"").matcher(launcher);
        assertTrue(m.find(), "the launcher sets the koordlet's JVM options");
        String node = "copilot-cap-node";
        ColocationObjects.installNodeMetricCrd(client, Path.of("../conf/kubernetes/crds/slo.koordinator.sh_nodemetrics.yaml"));
        ColocationObjects.node(client, node, "copilot-cap", 64, 256);
        NodeMetric nm = new NodeMetric();
        nm.setMetadata(new ObjectMetaBuilder().withName(node).build());
        nm.setSpec(new NodeMetric.Spec(new NodeMetric.CollectPolicy(60L, 5L, new NodeMetric.AggregatePolicy(List.of("5m0s")),
                "usageWithoutPageCache")));
        client.resources(NodeMetric.class).resource(nm).create();

        CgroupTreeFixture host = new CgroupTreeFixture(dir.resolve("host"), CgroupLayout.Version.V1, CgroupLayout.Driver.CGROUPFS);
        StringBuilder list = new StringBuilder("[");
        for (int i = 0; i < CONTAINERS; i++) {
            String id = String.format("container_1700000000000_0001_01_%06d", i + 2);
            host.cgroup(PARENT + "/" + id, 1_000_000L * i, 64L << 20, 0);
            list.append(i == 0 ? "" : ",").append("{\"containerID\":\"").append(id).append("\",\"state\":\"RUNNING\",\"cgroupDir\":\"")
                    .append(PARENT).append('/').append(id).append("\",\"vcores\":1,\"memoryMB\":512,\"priority\":0,\"type\":\"TASK\",\"pids\":[")
                    .append(SELF).append("]}");
        }
        byte[] body = list.append(']').toString().getBytes(StandardCharsets.UTF_8);
        assertTrue(body.length > 900_000, body.length + " bytes");
        Path token = Files.writeString(dir.resolve("token"), "t0ken\n");
        Files.setPosixFilePermissions(token, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        Path log = dir.resolve("koordlet.log");
        try (FakeCopilot copilot = new FakeCopilot()) {
            copilot.on("/information", FakeCopilot.json(200, "{\"name\":\"yarn\",\"version\":\"v1\",\"pid\":" + SELF + ",\"tokenFile\":\""
                    + token + "\"}"));
            copilot.on("/v1/containers", ex -> {
                ex.sendResponseHeaders(200, body.length);
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(body);
                }
            });
            Path config = Files.writeString(dir.resolve("koordlet.yml"), "nodeName: " + node + "\nkubernetes: {kubeconfig: "
                    + api.kubeconfig() + "}\nhost: {procRoot: /proc, cgroupRoot: " + host.cgroupRoot() + "}\nyarn: {copilotUrl: "
                    + copilot.url() + ", nodeManagerUsers: [root]}\nprediction: {checkpointDir: " + dir.resolve("checkpoints")
                    + "}\nstatus: {port: 0}\n");
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
            command.addAll(List.of(m.group(1).split(" ")));
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.colocation.koordlet.cli.KoordletCommand",
                    config.toString()));
            Process koordlet = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            try {
                Await.until(Duration.ofSeconds(90), () -> reportsYarn(client, node) || !koordlet.isAlive());
                assertTrue(koordlet.isAlive(), "the agent reports the YARN containers and lives: " + tail(log));
                Thread.sleep(60_000); // a minute more of rounds over every container
                assertTrue(koordlet.isAlive(), "the agent lives: " + tail(log));
                assertFalse(Files.readString(log).contains("OutOfMemoryError"), tail(log));
            } finally {
                koordlet.destroy();
                koordlet.waitFor();
                client.resources(NodeMetric.class).withName(node).delete();
                client.nodes().withName(node).delete();
            }
        }
    }

    /** Whether the node's NodeMetric reports the hadoop-yarn host application. */
    private static boolean reportsYarn(KubernetesClient client, String node) {
        NodeMetric m = client.resources(NodeMetric.class).withName(node).get();
        return m != null && m.getStatus() != null && m.getStatus().hostApplicationMetric() != null
                && m.getStatus().hostApplicationMetric().stream().anyMatch(a -> "hadoop-yarn".equals(a.name()));
    }

    private static String tail(Path log) throws java.io.IOException {
        String all = Files.readString(log);
        return all.substring(Math.max(0, all.length() - 3000));
    }
}
