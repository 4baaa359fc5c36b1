package io.colocation.harness;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.colocation.helpers.concurrent.Daemons;
import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.model.pod.PodClassifier;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.NodeStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The kubelets of nodes that have no host of their own (the sandbox's and the simulator's): registers each node Ready
 * with its capacity, admits the pods bound to it (its {@link PodRuntime} runs them), writes their status as a kubelet
 * does (Running; Succeeded, or Failed with OOMKilled, when the runtime says they ended) and finishes what the Eviction
 * API started: a pod being deleted is stopped and its deletion confirmed, as a kubelet does once the containers stopped.
 * Driven by a pod watch ({@link #changed}). Node heartbeats are not written: no node lifecycle controller runs to read
 * them, and a thousand nodes would write one every ten seconds.
 */
public final class SimulatedKubelets implements AutoCloseable {
    /** On every node these kubelets register. */
    public static final String NODE_LABEL = "colocation.io/simulated-node";
    private static final Logger LOG = LoggerFactory.getLogger(SimulatedKubelets.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What runs the pods bound to the simulated nodes. */
    public interface PodRuntime {
        /** A pod bound to one of the nodes starts (once per pod). */
        void start(Pod pod);

        /** A started pod is being deleted or is gone: its containers stop. */
        void stop(Pod pod);
    }

    /** How a pod's containers ended. */
    public enum Ending { COMPLETED, OOM_KILLED }

    private final KubernetesClient client;
    private final Set<String> nodes;
    private final String osImage;
    private final Clock clock;
    private final PodRuntime runtime;
    private final Set<String> admitted = ConcurrentHashMap.newKeySet();
    private final Map<String, Pod> running = new ConcurrentHashMap<>();
    private final ExecutorService writers = Executors.newFixedThreadPool(6, Daemons.named("simulated-kubelet"));
    private final AtomicLong statusWrites = new AtomicLong();
    private final AtomicLong writeFailures = new AtomicLong();

    /** @param osImage what {@code kubectl get nodes -o wide} shows as the nodes' OS image: who simulates them */
    public SimulatedKubelets(KubernetesClient client, Set<String> nodes, String osImage, Clock clock, PodRuntime runtime) {
        this.client = client;
        this.nodes = Set.copyOf(nodes);
        this.osImage = osImage;
        this.clock = clock;
        this.runtime = runtime;
    }

    /** Creates every node Ready, without the not-ready taint (no node controller runs to take it off). */
    public void register(int cores, long memoryBytes, int pods) throws Exception {
        Map<String, Quantity> capacity = Map.of("cpu", new Quantity(Integer.toString(cores)),
                "memory", new Quantity(Long.toString(memoryBytes)), "pods", new Quantity(Integer.toString(pods)));
        List<Future<?>> done = new ArrayList<>();
        for (String name : nodes) {
            done.add(writers.submit(() -> {
                client.nodes().resource(new NodeBuilder().withNewMetadata().withName(name).addToLabels(NODE_LABEL, "true")
                        .addToLabels("kubernetes.io/hostname", name).addToLabels("kubernetes.io/os", "linux").endMetadata()
                        .withNewSpec().endSpec().build()).create();
                ColocationObjects.untaintNotReady(client, name);
                String now = clock.instant().toString();
                ColocationObjects.kubeletStatus(client, name, new NodeStatusBuilder().withCapacity(capacity).withAllocatable(capacity)
                        .withConditions(new NodeConditionBuilder().withType("Ready").withStatus("True").withReason("KubeletReady")
                                .withMessage("simulated kubelet is posting ready status").withLastHeartbeatTime(now)
                                .withLastTransitionTime(now).build())
                        .withNewNodeInfo().withKubeletVersion("v1.20.2-simulated").withOperatingSystem("linux").withArchitecture("amd64")
                        .withContainerRuntimeVersion("simulated://1").withKernelVersion("").withOsImage(osImage)
                        .withKubeProxyVersion("").withMachineID("").withSystemUUID("").withBootID("").endNodeInfo().build());
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get(5, TimeUnit.MINUTES);
        }
    }

    /** A pod changed, as a pod watch tells it. */
    public void changed(Pod pod, boolean deleted) {
        String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
        if (node == null || !nodes.contains(node)) {
            return;
        }
        String uid = pod.getMetadata().getUid();
        if (deleted || pod.getMetadata().getDeletionTimestamp() != null) {
            if (running.remove(uid) != null) {
                runtime.stop(pod);
            }
            Long grace = pod.getMetadata().getDeletionGracePeriodSeconds();
            if (admitted.remove(uid) && !deleted && (grace == null || grace > 0)) {
                // the containers stopped: the kubelet confirms the deletion
                writers.execute(() -> write(pod, () -> client.pods().inNamespace(pod.getMetadata().getNamespace())
                        .withName(pod.getMetadata().getName()).withGracePeriod(0).delete()));
            }
            return;
        }
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        if ((phase == null || phase.equals("Pending")) && admitted.add(uid)) {
            running.put(uid, pod);
            runtime.start(pod);
            writers.execute(() -> patchStatus(pod, running(pod)));
        }
    }

    /** The runtime ended a running pod's containers; the pod as it started, or null when it was not running. */
    public Pod ended(String uid, Ending how) {
        Pod pod = running.remove(uid);
        if (pod != null) {
            writers.execute(() -> patchStatus(pod, finished(pod, how == Ending.COMPLETED)));
        }
        return pod;
    }

    private ObjectNode running(Pod pod) {
        String now = clock.instant().toString();
        ObjectNode status = JSON.createObjectNode();
        status.put("phase", "Running");
        status.put("startTime", now);
        status.put("qosClass", PodClassifier.kubeQoSClass(pod));
        status.put("hostIP", "127.0.0.1");
        ArrayNode conditions = status.putArray("conditions");
        conditions.addObject().put("type", "Ready").put("status", "True").put("lastTransitionTime", now);
        ArrayNode containers = status.putArray("containerStatuses");
        for (Container c : pod.getSpec().getContainers()) {
            ObjectNode s = containerStatus(containers, pod, c, true);
            s.put("started", true);
            s.putObject("state").putObject("running").put("startedAt", now);
        }
        return status;
    }

    private ObjectNode finished(Pod pod, boolean succeeded) {
        String now = clock.instant().toString();
        ObjectNode status = JSON.createObjectNode();
        status.put("phase", succeeded ? "Succeeded" : "Failed");
        if (!succeeded) {
            status.put("reason", "OOMKilled");
        }
        ArrayNode conditions = status.putArray("conditions");
        conditions.addObject().put("type", "Ready").put("status", "False").put("reason", "PodCompleted").put("lastTransitionTime", now);
        ArrayNode containers = status.putArray("containerStatuses");
        for (Container c : pod.getSpec().getContainers()) {
            containerStatus(containers, pod, c, false).putObject("state").putObject("terminated").put("exitCode", succeeded ? 0 : 137)
                    .put("reason", succeeded ? "Completed" : "OOMKilled").put("finishedAt", now);
        }
        return status;
    }

    /** A container's status as a kubelet writes it, without its state. */
    private static ObjectNode containerStatus(ArrayNode containers, Pod pod, Container c, boolean ready) {
        ObjectNode s = containers.addObject();
        s.put("name", c.getName());
        s.put("image", c.getImage() == null ? "" : c.getImage());
        s.put("imageID", "");
        s.put("ready", ready);
        s.put("restartCount", 0);
        s.put("containerID", "containerd://" + pod.getMetadata().getUid().replace("-", "") + "-" + c.getName());
        return s;
    }

    private void patchStatus(Pod pod, ObjectNode status) {
        ObjectNode patch = JSON.createObjectNode();
        patch.set("status", status);
        write(pod, () -> client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName())
                .subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE), patch.toString()));
    }

    private void write(Pod pod, Runnable call) {
        try {
            call.run();
            statusWrites.incrementAndGet();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) {
                writeFailures.incrementAndGet();
                LOG.warn("simulated kubelet: pod {}/{}: {}", pod.getMetadata().getNamespace(), pod.getMetadata().getName(), e.getMessage());
            }
        }
    }

    /** Pod status writes and deletion confirmations that the API server accepted. */
    public long statusWrites() {
        return statusWrites.get();
    }

    /** Writes the API server refused other than for a pod already gone. */
    public long writeFailures() {
        return writeFailures.get();
    }

    @Override
    public void close() {
        Daemons.stop(5, writers);
    }
}
