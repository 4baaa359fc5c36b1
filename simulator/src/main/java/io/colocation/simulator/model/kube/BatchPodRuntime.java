package io.colocation.simulator.model.kube;

import io.colocation.api.ResourceNames;
import io.colocation.harness.SimulatedKubelets;
import io.colocation.simulator.model.host.BatchTask;
import io.colocation.simulator.model.host.SimulatedHost;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Clock;
import java.util.Map;

/**
 * What runs the pods the simulated kubelets admit: a batch pod becomes a {@link BatchTask} on its host, with the
 * profile its annotations carry; other pods' load is the host's online curve. A pod deleted on its way (an eviction)
 * stops its task; a task the host ends (work done, or the kernel's OOM killer) ends its pod.
 */
public final class BatchPodRuntime implements SimulatedKubelets.PodRuntime {
    /** Annotations of a batch pod: its CPU use as a fraction of its request, memory in use, and work (core-seconds). */
    public static final String CPU_USE = "simulate.colocation.io/cpu-use";
    public static final String MEMORY_USE = "simulate.colocation.io/memory-use";
    public static final String WORK = "simulate.colocation.io/work-core-seconds";

    /** Told when a batch pod left its host other than by completing: a deletion (an eviction) or the kernel's OOM killer. */
    public interface PodEndings {
        void stopped(Pod pod, BatchTask task, boolean oomKilled);
    }

    private final Map<String, SimulatedHost> hosts;
    private final Clock clock;
    private final PodEndings endings;
    private SimulatedKubelets kubelets;

    public BatchPodRuntime(Map<String, SimulatedHost> hosts, Clock clock, PodEndings endings) {
        this.hosts = hosts;
        this.clock = clock;
        this.endings = endings;
    }

    /** The kubelets whose pods this runs; set once, before the pod watch starts. */
    public void runFor(SimulatedKubelets kubelets) {
        this.kubelets = kubelets;
    }

    @Override
    public void start(Pod pod) {
        if (annotation(pod, WORK) != null) {
            hosts.get(pod.getSpec().getNodeName()).start(task(pod, clock.millis()));
        }
    }

    @Override
    public void stop(Pod pod) {
        BatchTask task = hosts.get(pod.getSpec().getNodeName()).stop(pod.getMetadata().getUid());
        if (task != null) {
            endings.stopped(pod, task, false);
        }
    }

    /** The host ended a batch pod's task: its work is done, or the kernel killed it. */
    public void ended(BatchTask task, SimulatedHost.Ending how) {
        Pod pod = kubelets.ended(task.id(), how == SimulatedHost.Ending.COMPLETED
                ? SimulatedKubelets.Ending.COMPLETED : SimulatedKubelets.Ending.OOM_KILLED);
        if (pod != null && how == SimulatedHost.Ending.OOM_KILLED) {
            endings.stopped(pod, task, true);
        }
    }

    /** The task a batch pod runs: its requests, and its use and work as its annotations carry them. */
    public static BatchTask task(Pod pod, long now) {
        long cpu = 0;
        long memory = 0;
        for (Container c : pod.getSpec().getContainers()) {
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
}
