package io.colocation.testsupport.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.localclusters.kube.KubeApiServer;
import io.colocation.localclusters.kube.KubeletNode;
import io.colocation.localclusters.process.Processes;
import io.colocation.testsupport.Await;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real node harness: a kubelet registers and turns Ready, runs a pod whose process sits in the kubelet's own
 * besteffort pod cgroup, stops it on an eviction, runs a JVM from the node image, and leaves nothing behind
 * (processes, cgroups, bridge, mounts, Node).
 */
@ExtendWith(KubeApiServerExtension.class)
class KubeletNodeTest {
    @TempDir
    Path tmp;

    @Test
    void aRealKubeletRunsAPodInItsCgroupsEvictsItRunsAJvmAndLeavesNothingBehind(KubernetesClient client, KubeApiServer api) throws Exception {
        RealNodes.assumeAvailable("KubeletNodeTest");
        String uid;
        Path work = tmp.resolve("node");
        long t0 = System.nanoTime();
        try (KubeletNode node = KubeletNode.start(work, api, "real-node-1")) {
            System.out.printf("real node Ready after %d ms%n", (System.nanoTime() - t0) / 1_000_000);
            var taints = client.nodes().withName(node.name()).get().getSpec().getTaints();
            assertTrue(taints == null || taints.stream().noneMatch(t -> t.getKey().equals("node.kubernetes.io/not-ready")),
                    "schedulers may place pods on the Ready node: " + taints);
            client.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName("burner").endMetadata()
                    .withNewSpec().withNodeName(node.name()).withTerminationGracePeriodSeconds(1L).addNewContainer().withName("burner").withImage(KubeletNode.IMAGE)
                    .withImagePullPolicy("Never").withCommand("/burner", "1", "32").endContainer().endSpec().build()).create();
            Await.until(Duration.ofSeconds(60), () -> {
                Pod p = client.pods().inNamespace("default").withName("burner").get();
                return p != null && "Running".equals(p.getStatus().getPhase());
            });
            System.out.printf("pod Running after %d ms%n", (System.nanoTime() - t0) / 1_000_000);
            uid = client.pods().inNamespace("default").withName("burner").get().getMetadata().getUid();
            long pid = burnerPid();
            String cgroups = Files.readString(Path.of("/proc/" + pid + "/cgroup"));
            assertTrue(cgroups.contains("/kubepods/besteffort/pod" + uid + "/"), cgroups);

            assertTrue(client.pods().inNamespace("default").withName("burner").evict());
            // The eviction stops the pod's process. Deleting the Pod object afterwards is the kubelet's; kubelet 1.20
            // can leave it Terminating under CPU load (its container removed before its status was recorded:
            // "ContainerStatusUnknown", a race its 1.22 pod lifecycle rework removed), so that is not asserted.
            try {
                Await.until(Duration.ofSeconds(60), () -> ProcessHandle.of(pid).isEmpty() && stoppedOrGone(client.pods().inNamespace("default")
                        .withName("burner").get()));
            } catch (TimeoutException e) {
                Pod left = client.pods().inNamespace("default").withName("burner").get();
                throw new AssertionError("the evicted pod did not stop within 60 s: pod " + (left == null ? "deleted"
                        : "phase " + left.getStatus().getPhase() + ", deletionTimestamp " + left.getMetadata().getDeletionTimestamp()
                        + ", containers " + left.getStatus().getContainerStatuses())
                        + "; process " + pid + (ProcessHandle.of(pid).isPresent() ? " alive: " + Files.readString(Path.of("/proc/" + pid + "/stat"))
                        : " gone") + "\nkubelet.log:\n" + Processes.tail(work.resolve("kubelet.log"), 40), e);
            }
            System.out.printf("pod evicted and stopped after %d ms%n", (System.nanoTime() - t0) / 1_000_000);

            // the image's Java runtime and shell (for JVM workloads such as Spark executors): the termination message
            // is how a bare API server, which cannot reach the kubelet for logs, sees what the container printed
            client.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName("java").endMetadata().withNewSpec()
                    .withNodeName(node.name()).withRestartPolicy("Never").addNewContainer().withName("java").withImage(KubeletNode.IMAGE)
                    .withImagePullPolicy("Never").withCommand("sh", "-c", "java -version 2>/dev/termination-log && echo JAVA_HOME=$JAVA_HOME >>/dev/termination-log")
                    .endContainer().endSpec().build()).create();
            Await.until(Duration.ofSeconds(60), () -> List.of("Succeeded", "Failed")
                    .contains(client.pods().inNamespace("default").withName("java").get().getStatus().getPhase()));
            Pod java = client.pods().inNamespace("default").withName("java").get();
            String printed = java.getStatus().getContainerStatuses().get(0).getState().getTerminated().getMessage();
            assertEquals("Succeeded", java.getStatus().getPhase(), printed);
            assertTrue(printed.contains("openjdk version \"17") && printed.contains("JAVA_HOME=/opt/java"), printed);
            System.out.printf("a JVM ran in a pod after %d ms%n", (System.nanoTime() - t0) / 1_000_000);
        }
        System.out.printf("node removed after %d ms%n", (System.nanoTime() - t0) / 1_000_000);
        assertFalse(Files.exists(Path.of("/sys/fs/cgroup/cpu/kubepods")), "kubepods removed");
        assertFalse(Files.exists(work), "work directory removed");
        assertNull(client.nodes().withName("real-node-1").get());
        assertEquals(List.of(), ProcessHandle.allProcesses()
                .filter(p -> p.info().commandLine().map(c -> c.contains(work.toString())).orElse(false)).toList());
        assertFalse(Files.readString(Path.of("/proc/self/mounts")).contains(work.toString()), "nothing mounted under the node");
    }

    /**
     * A run killed before its close (a build's time limit, a session's end) leaves its node's cgroups, mounts and bridge;
     * they must neither make the host unavailable nor stay: the next node's start removes them.
     */
    @Test
    void theNextNodeRemovesWhatAKilledNodeLeft(KubernetesClient client, KubeApiServer api) throws Exception {
        RealNodes.assumeAvailable("KubeletNodeTest");
        Path killedWork = tmp.resolve("killed");
        try (KubeletNode killed = KubeletNode.start(killedWork, api, "killed-node")) {
            client.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName("left").endMetadata()
                    .withNewSpec().withNodeName(killed.name()).addNewContainer().withName("burner").withImage(KubeletNode.IMAGE)
                    .withImagePullPolicy("Never").withCommand("/burner", "1", "32").endContainer().endSpec().build()).create();
            Await.until(Duration.ofSeconds(60), () -> "Running".equals(client.pods().inNamespace("default").withName("left").get().getStatus().getPhase()));
            String bridge = Files.readString(killedWork.resolve("cni/conf/10-colocation.conflist")).replaceAll("(?s).*\"bridge\": \"(coloc[0-9a-f]+)\".*", "$1");

            killEverythingOf(killedWork);
            assertTrue(Files.isDirectory(Path.of("/sys/fs/cgroup/cpu/kubepods/besteffort")), "the killed node's cgroups are left");
            assertTrue(Files.readString(Path.of("/proc/self/mounts")).contains(killedWork.toString()), "its mounts are left");
            assertTrue(bridgeExists(bridge), "its bridge " + bridge + " is left");
            assertEquals(Optional.empty(), KubeletNode.unavailable(), "a dead node's traces leave the host available");

            Path next = tmp.resolve("next");
            try (KubeletNode node = KubeletNode.start(next, api, "next-node")) {
                assertNotNull(client.nodes().withName(node.name()).get(), "the next node is up on the same host");
                assertFalse(Files.exists(killedWork), "the killed node's work directory removed");
                assertFalse(Files.readString(Path.of("/proc/self/mounts")).contains(killedWork.toString()), "its mounts removed");
                assertFalse(bridgeExists(bridge), "its bridge removed");
                assertFalse(Files.exists(Path.of("/sys/fs/cgroup/cpu/kubepods/besteffort/pod"
                        + client.pods().inNamespace("default").withName("left").get().getMetadata().getUid())), "its pod's cgroup removed");
            }
            assertFalse(Files.exists(Path.of("/sys/fs/cgroup/cpu/kubepods")), "the next node removed its own kubepods");
        }
    }

    /** Deleted, or marked for deletion with none of its containers running. */
    private static boolean stoppedOrGone(Pod pod) {
        return pod == null || pod.getMetadata().getDeletionTimestamp() != null && (pod.getStatus().getContainerStatuses() == null
                || pod.getStatus().getContainerStatuses().stream().noneMatch(c -> c.getState() != null && c.getState().getRunning() != null));
    }

    /** What a kill of the whole run does: the kubelet, containerd, the shims and the containers, SIGKILL, nothing closed. */
    private static void killEverythingOf(Path work) throws Exception {
        List<ProcessHandle> node = ProcessHandle.allProcesses()
                .filter(p -> p.info().commandLine().map(c -> c.contains(work.toString())).orElse(false)).toList();
        node.forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle p : node) {
            p.onExit().get();
        }
        Await.until(Duration.ofSeconds(30), KubeletNodeTest::killedWhatSitsInKubepods);
    }

    /** Whether no process is left in the kubepods cgroups (those there are killed). */
    private static boolean killedWhatSitsInKubepods() {
        boolean none = true;
        try (var files = Files.walk(Path.of("/sys/fs/cgroup/cpu/kubepods"))) {
            for (Path f : files.filter(f -> f.getFileName().toString().equals("cgroup.procs")).toList()) {
                for (String pid : Files.readAllLines(f)) {
                    ProcessHandle.of(Long.parseLong(pid.trim())).ifPresent(ProcessHandle::destroyForcibly);
                    none = false;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return none;
    }

    private static boolean bridgeExists(String bridge) {
        return Files.exists(Path.of("/sys/class/net", bridge));
    }

    private static long burnerPid() {
        return ProcessHandle.allProcesses().filter(p -> p.info().command().map(c -> c.equals("/burner")).orElse(false))
                .mapToLong(ProcessHandle::pid).findFirst().orElseThrow(() -> new AssertionError("no /burner process"));
    }
}
