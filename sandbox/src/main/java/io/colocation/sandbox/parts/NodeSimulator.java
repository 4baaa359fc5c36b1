package io.colocation.sandbox.parts;

import io.colocation.helpers.concurrent.Daemons;

import io.colocation.api.InvalidInputException;
import io.colocation.model.KubeTime;
import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.model.pod.PodClassifier;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.NodeStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kubelets of the simulated nodes: registers each node with its capacity and keeps it Ready, and runs the pods
 * bound to it: Pending → Running (containers with ids, QoS class, Ready), Succeeded once a batch pod's
 * {@value #RUN_SECONDS} have passed, and gone once deleted (an eviction's graceful deletion is confirmed, as a kubelet
 * does after stopping the containers). So {@code kubectl get nodes,pods} shows a live cluster.
 */
public final class NodeSimulator implements AutoCloseable {
    /** On a pod: how long it runs before it succeeds (batch pods). */
    public static final String RUN_SECONDS = "sandbox.colocation.io/run-seconds";
    public static final String NODE_LABEL = "sandbox.colocation.io/node";
    private static final Logger LOG = LoggerFactory.getLogger(NodeSimulator.class);

    private final KubernetesClient client;
    private final Set<String> nodes;
    private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor(Daemons.named("node-simulator"));
    private Instant lastHeartbeat = Instant.EPOCH;

    private NodeSimulator(KubernetesClient client, Set<String> nodes) {
        this.client = client;
        this.nodes = nodes;
    }

    public static NodeSimulator start(KubernetesClient client, List<String> names, int cores, int memoryGi) {
        for (String name : names) {
            Map<String, Quantity> capacity = Map.of("cpu", new Quantity(Integer.toString(cores)), "memory", new Quantity(memoryGi + "Gi"),
                    "pods", new Quantity("110"));
            client.nodes().resource(new NodeBuilder().withNewMetadata().withName(name).addToLabels(NODE_LABEL, "true")
                    .addToLabels("kubernetes.io/hostname", name).addToLabels("kubernetes.io/os", "linux").endMetadata().build()).create();
            // The API server taints a new node not-ready; no node controller runs here to take it off, so the simulator does.
            ColocationObjects.untaintNotReady(client, name);
            ColocationObjects.kubeletStatus(client, name, new NodeStatusBuilder().withCapacity(capacity)
                    .withAllocatable(capacity).withConditions(ready(Instant.now())).withNewNodeInfo().withKubeletVersion("v1.20.2-sandbox")
                    .withOperatingSystem("linux").withArchitecture("amd64").withContainerRuntimeVersion("simulated://1")
                    .withKernelVersion("").withOsImage("colocation sandbox").withKubeProxyVersion("").withMachineID("")
                    .withSystemUUID("").withBootID("").endNodeInfo().build());
        }
        NodeSimulator sim = new NodeSimulator(client, Set.copyOf(names));
        sim.lastHeartbeat = Instant.now();
        sim.loop.scheduleWithFixedDelay(sim::tick, 1, 1, TimeUnit.SECONDS);
        return sim;
    }

    private static io.fabric8.kubernetes.api.model.NodeCondition ready(Instant now) {
        return new NodeConditionBuilder().withType("Ready").withStatus("True").withReason("KubeletReady")
                .withMessage("simulated kubelet is posting ready status").withLastHeartbeatTime(now.toString())
                .withLastTransitionTime(now.toString()).build();
    }

    private void tick() {
        try {
            Instant now = Instant.now();
            for (Pod pod : client.pods().inAnyNamespace().list().getItems()) {
                String node = pod.getSpec().getNodeName();
                if (node == null || !nodes.contains(node)) {
                    continue;
                }
                step(pod, now);
            }
            if (Duration.between(lastHeartbeat, now).toSeconds() >= 20) {
                lastHeartbeat = now;
                for (String name : nodes) {
                    ColocationObjects.kubeletStatus(client, name, new NodeStatusBuilder()
                            .withConditions(ready(now)).build());
                }
            }
        } catch (KubernetesClientException | InvalidInputException e) {
            LOG.warn("node simulator: {}", e.getMessage());
        } catch (RuntimeException e) {
            LOG.error("node simulator", e);
        }
    }

    private void step(Pod pod, Instant now) throws InvalidInputException {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        var pods = client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName());
        if (pod.getMetadata().getDeletionTimestamp() != null) {
            pods.withGracePeriod(0).delete();
            return;
        }
        if (phase == null || phase.equals("Pending")) {
            pod.getStatus().setPhase("Running");
            pod.getStatus().setStartTime(now.toString());
            pod.getStatus().setQosClass(PodClassifier.kubeQoSClass(pod));
            pod.getStatus().setHostIP("127.0.0.1");
            pod.getStatus().setConditions(List.of(new PodConditionBuilder().withType("Ready").withStatus("True")
                    .withLastTransitionTime(now.toString()).build()));
            List<ContainerStatus> statuses = new ArrayList<>();
            pod.getSpec().getContainers().forEach(c -> statuses.add(new ContainerStatusBuilder().withName(c.getName())
                    .withImage(c.getImage()).withImageID("").withReady(true).withRestartCount(0).withStarted(true)
                    .withContainerID("containerd://" + pod.getMetadata().getUid().replace("-", "") + "-" + c.getName())
                    .withNewState().withNewRunning().withStartedAt(now.toString()).endRunning().endState().build()));
            pod.getStatus().setContainerStatuses(statuses);
            pods.updateStatus(pod);
            return;
        }
        String run = pod.getMetadata().getAnnotations() == null ? null : pod.getMetadata().getAnnotations().get(RUN_SECONDS);
        Instant started = KubeTime.parseOptional(pod.getStatus().getStartTime(), "Pod " + pod.getMetadata().getName() + ": status.startTime");
        if (phase.equals("Running") && run != null && started != null && started.plusSeconds(Long.parseLong(run)).isBefore(now)) {
            pod.getStatus().setPhase("Succeeded");
            pod.getStatus().setConditions(List.of(new PodConditionBuilder().withType("Ready").withStatus("False")
                    .withReason("PodCompleted").withLastTransitionTime(now.toString()).build()));
            pod.getStatus().getContainerStatuses().forEach(s -> {
                s.setReady(false);
                s.setState(new io.fabric8.kubernetes.api.model.ContainerStateBuilder().withNewTerminated().withExitCode(0)
                        .withReason("Completed").withFinishedAt(now.toString()).endTerminated().build());
            });
            pods.updateStatus(pod);
        }
    }

    @Override
    public void close() {
        Daemons.stop(5, loop);
    }
}
