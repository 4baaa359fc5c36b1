package io.colocation.simulator.kube;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.colocation.api.ResourceNames;
import io.colocation.helpers.concurrent.Daemons;
import io.colocation.kube.client.Patches;
import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.model.pod.PodClassifier;
import io.colocation.simulator.host.BatchTask;
import io.colocation.simulator.host.SimulatedHost;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.NodeStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
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
 * The kubelets of the simulated nodes: registers each node Ready with its capacity, admits the pods bound to it (a
 * batch pod becomes a {@link BatchTask} on its host, with the profile its annotations carry), writes their status
 * (Running; Succeeded when the host says the task's work is done; Failed when the host's kernel killed it), and
 * finishes what the Eviction API started: a pod being deleted is stopped on its host and its deletion confirmed, as a
 * kubelet does once the containers stopped. Node heartbeats are not written: nothing in the simulated cluster reads
 * them (no node lifecycle controller runs), and a thousand nodes would write one every ten seconds.
 */
public final class SimulatedKubelets implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SimulatedKubelets.class);
    /** Annotations of a batch pod: its CPU use as a fraction of its request, memory in use, and work (core-seconds). */
    public static final String CPU_USE = "simulate.colocation.io/cpu-use";
    public static final String MEMORY_USE = "simulate.colocation.io/memory-use";
    public static final String WORK = "simulate.colocation.io/work-core-seconds";
    public static final String NODE_LABEL = "simulate.colocation.io/node";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Told when a batch pod left its host other than by completing: a deletion (an eviction) or the kernel's OOM killer. */
    public interface PodEndings {
        void stopped(Pod pod, BatchTask task, boolean oomKilled);
    }

    private final KubernetesClient client;
    private final Map<String, SimulatedHost> hosts;
    private final Clock clock;
    private final PodEndings endings;
    private final Set<String> admitted = ConcurrentHashMap.newKeySet();
    private final Map<String, Pod> running = new ConcurrentHashMap<>();
    private final ExecutorService writers = Executors.newFixedThreadPool(6, Daemons.named("simulated-kubelet"));
    private final AtomicLong statusWrites = new AtomicLong();
    private final AtomicLong writeFailures = new AtomicLong();

    public SimulatedKubelets(KubernetesClient client, Map<String, SimulatedHost> hosts, Clock clock, PodEndings endings) {
        this.client = client;
        this.hosts = hosts;
        this.clock = clock;
        this.endings = endings;
    }

    /** Creates every node Ready, without the not-ready taint (no node controller runs to take it off). */
    public void register(int cores, long memoryBytes, int pods) throws Exception {
        Map<String, Quantity> capacity = Map.of("cpu", new Quantity(Integer.toString(cores)), "memory", new Quantity(Long.toString(memoryBytes)),
                "pods", new Quantity(Integer.toString(pods)));
        List<Future<?>> done = new ArrayList<>();
        for (String name : hosts.keySet()) {
            done.add(writers.submit(() -> {
                client.nodes().resource(new NodeBuilder().withNewMetadata().withName(name).addToLabels(NODE_LABEL, "true")
                        .addToLabels("kubernetes.io/hostname", name).addToLabels("kubernetes.io/os", "linux").endMetadata()
                        .withNewSpec().endSpec().build()).create();
                ColocationObjects.untaintNotReady(client, name);
                String now = clock.instant().toString();
                ColocationObjects.kubeletStatus(client, name, new NodeStatusBuilder().withCapacity(capacity).withAllocatable(capacity)
                        .withConditions(new NodeConditionBuilder().withType("Ready").withStatus("True").withReason("KubeletReady")
                                .withMessage("simulated kubelet").withLastHeartbeatTime(now).withLastTransitionTime(now).build())
                        .withNewNodeInfo().withKubeletVersion("v1.20.2-simulated").withOperatingSystem("linux").withArchitecture("amd64")
                        .withContainerRuntimeVersion("simulated://1").withKernelVersion("").withOsImage("colocation simulate")
                        .withKubeProxyVersion("").withMachineID("").withSystemUUID("").withBootID("").endNodeInfo().build());
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get(5, TimeUnit.MINUTES);
        }
    }

    /** A pod changed (the shared pod watch). */
    public void changed(Pod pod, boolean deleted) {
        String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
        SimulatedHost host = node == null ? null : hosts.get(node);
        if (host == null) {
            return;
        }
        String uid = pod.getMetadata().getUid();
        if (deleted || pod.getMetadata().getDeletionTimestamp() != null) {
            BatchTask task = host.stop(uid);
            running.remove(uid);
            if (task != null) {
                endings.stopped(pod, task, false);
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
            String ann = annotation(pod, WORK);
            if (ann != null) {
                host.start(task(pod, clock.millis()));
                running.put(uid, pod);
            }
            writers.execute(() -> patchStatus(pod, running(pod)));
        }
    }

    /** The host ended a batch pod's task: its work is done, or the kernel killed it. */
    public void ended(BatchTask task, SimulatedHost.Ending how) {
        Pod pod = running.remove(task.id());
        if (pod == null) {
            return;
        }
        if (how == SimulatedHost.Ending.OOM_KILLED) {
            endings.stopped(pod, task, true);
        }
        writers.execute(() -> patchStatus(pod, finished(pod, how == SimulatedHost.Ending.COMPLETED)));
    }

    static BatchTask task(Pod pod, long now) {
        long cpu = 0;
        long memory = 0;
        for (var c : pod.getSpec().getContainers()) {
            if (c.getResources() != null && c.getResources().getRequests() != null) {
                Quantity q = c.getResources().getRequests().get(ResourceNames.BATCH_CPU);
                Quantity m = c.getResources().getRequests().get(ResourceNames.BATCH_MEMORY);
                cpu += q == null ? 0 : q.getNumericalAmount().longValue();
                memory += m == null ? 0 : m.getNumericalAmount().longValue();
            }
        }
        double use = Double.parseDouble(annotation(pod, CPU_USE));
        long memoryUse = Long.parseLong(annotation(pod, MEMORY_USE));
        double work = Double.parseDouble(annotation(pod, WORK));
        return new BatchTask(pod.getMetadata().getUid(), BatchTask.Side.KUBERNETES, pod.getMetadata().getNamespace() + "/"
                + pod.getMetadata().getName(), cpu, memory, cpu / 1000.0 * use, memoryUse, work, false, 0, now);
    }

    private static String annotation(Pod pod, String key) {
        return pod.getMetadata().getAnnotations() == null ? null : pod.getMetadata().getAnnotations().get(key);
    }

    private ObjectNode running(Pod pod) {
        String now = clock.instant().toString();
        ObjectNode status = JSON.createObjectNode();
        status.put("phase", "Running");
        status.put("startTime", now);
        status.put("qosClass", PodClassifier.kubeQoSClass(pod));
        status.put("hostIP", "10.0.0.1");
        ArrayNode conditions = status.putArray("conditions");
        conditions.addObject().put("type", "Ready").put("status", "True").put("lastTransitionTime", now);
        ArrayNode containers = status.putArray("containerStatuses");
        for (var c : pod.getSpec().getContainers()) {
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
        for (var c : pod.getSpec().getContainers()) {
            containerStatus(containers, pod, c, false).putObject("state").putObject("terminated").put("exitCode", succeeded ? 0 : 137)
                    .put("reason", succeeded ? "Completed" : "OOMKilled").put("finishedAt", now);
        }
        return status;
    }

    /** A container's status as a kubelet writes it, without its state. */
    private static ObjectNode containerStatus(ArrayNode containers, Pod pod, io.fabric8.kubernetes.api.model.Container c, boolean ready) {
        ObjectNode s = containers.addObject();
        s.put("name", c.getName());
        s.put("image", c.getImage() == null ? "" : c.getImage());
        s.put("imageID", "");
        s.put("ready", ready);
        s.put("restartCount", 0);
        s.put("containerID", "containerd://" + pod.getMetadata().getUid().replace("-", "") + c.getName());
        return s;
    }

    private void patchStatus(Pod pod, ObjectNode status) {
        ObjectNode patch = JSON.createObjectNode();
        patch.set("status", status);
        write(pod, () -> Patches.mergeStatus(client, new PodBuilder().withNewMetadata().withName(pod.getMetadata().getName())
                .withNamespace(pod.getMetadata().getNamespace()).endMetadata().build(), patch.toString()));
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

    public long statusWrites() {
        return statusWrites.get();
    }

    public long writeFailures() {
        return writeFailures.get();
    }

    @Override
    public void close() {
        Daemons.stop(5, writers);
    }
}
