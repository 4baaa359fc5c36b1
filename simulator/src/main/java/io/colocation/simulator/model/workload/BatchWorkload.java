package io.colocation.simulator.model.workload;

import io.colocation.api.KoordinatorKeys;
import io.colocation.api.ResourceNames;
import io.colocation.helpers.concurrent.Daemons;
import io.colocation.simulator.measure.Durations;
import io.colocation.simulator.measure.KubernetesTasks;
import io.colocation.simulator.model.host.BatchTask;
import io.colocation.simulator.model.kube.BatchPodRuntime;
import io.colocation.simulator.real.yarn.SimulatedYarn;
import io.colocation.simulator.real.yarn.YarnTask;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Batch work on both sides, arriving faster than it can run: every control round tops the Kubernetes side up to
 * {@code kubernetesBacklog} pods waiting to be scheduled and the YARN side up to {@code yarnBacklog} tasks waiting for a
 * container, so both queues are never empty and the cluster's utilisation measures the system, not the workload.
 * Kubernetes jobs are koord-batch pods (BE) asking for {@code kubernetes.io/batch-cpu} and {@code batch-memory}, some of
 * them gangs (Koordinator's gang annotations), placed by the k8s-scheduler; a pod evicted or killed by the kernel is
 * submitted again, as a Job controller would; a finished pod is deleted, as a Job's TTL would.
 */
public final class BatchWorkload implements BatchPodRuntime.PodEndings, KubernetesTasks, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BatchWorkload.class);
    public static final String NAMESPACE = "batch";
    static final String SUBMITTED_AT = "simulate.colocation.io/submitted-at";
    static final String TASK = "simulate.colocation.io/task";

    private final KubernetesClient client;
    private final Clock clock;
    private final WorkloadModel model;
    private final SimulatedYarn yarn;
    private final String schedulerName;
    private final int kubernetesBacklog;
    private final int yarnBacklog;
    private final ExecutorService writers = Executors.newFixedThreadPool(4, Daemons.named("batch-workload"));
    /** A pod created and not running yet: since when (simulated ms) and its batch-cpu (milli). */
    private record Waiting(long sinceMillis, long cpuMilli) {
    }

    /** Pods created and not running yet, by namespace/name. */
    private final Map<String, Waiting> waiting = new ConcurrentHashMap<>();
    /** Pods running or about to, by uid: finished ones are counted once. */
    private final Map<String, Boolean> counted = new ConcurrentHashMap<>();
    private final AtomicLong names = new AtomicLong();
    private final AtomicLong submitted = new AtomicLong();
    private final AtomicLong completed = new AtomicLong();
    private final AtomicLong evicted = new AtomicLong();
    private final AtomicLong oomKilled = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final Durations queueing = new Durations();

    /** @param yarn null: no YARN side (policy off) */
    public BatchWorkload(KubernetesClient client, Clock clock, WorkloadModel model, SimulatedYarn yarn, String schedulerName,
            int kubernetesBacklog, int yarnBacklog) {
        this.client = client;
        this.clock = clock;
        this.model = model;
        this.yarn = yarn;
        this.schedulerName = schedulerName;
        this.kubernetesBacklog = kubernetesBacklog;
        this.yarnBacklog = yarnBacklog;
    }

    /** One control round: both sides topped up to their backlog. */
    public void topUp() {
        int pods = 0;
        while (waiting.size() + pods < kubernetesBacklog) {
            WorkloadModel.KubernetesJob job = model.kubernetesJob();
            long id = names.incrementAndGet();
            for (int i = 0; i < job.pods().size(); i++) {
                String name = job.gang() ? "gang-" + id + "-" + i : "job-" + id;
                submit(name, job.pods().get(i), job.gang() ? "gang-" + id : null, job.pods().size());
                submitted.incrementAndGet();
            }
            pods += job.pods().size();
        }
        if (yarn != null) {
            int tasks = yarn.pendingTasks();
            while (tasks < yarnBacklog) {
                WorkloadModel.YarnApplication app = model.yarnApplication();
                List<YarnTask> specs = new ArrayList<>();
                for (WorkloadModel.TaskShape t : app.tasks()) {
                    specs.add(new YarnTask((int) (t.cpuMilli() / 1000), t.memoryBytes() >> 20, t.cpuUse(), t.memoryUse(),
                            t.workCoreSeconds()));
                }
                try {
                    yarn.submit(specs);
                } catch (Exception e) {
                    failures.incrementAndGet();
                    LOG.warn("cannot submit a YARN application: {}", e.toString());
                    break;
                }
                tasks += specs.size();
            }
        }
    }

    private void submit(String name, WorkloadModel.TaskShape t, String gang, int gangSize) {
        Pod pod = pod(name, t, gang, gangSize, schedulerName, clock.millis());
        waiting.put(NAMESPACE + "/" + name, new Waiting(clock.millis(), t.cpuMilli()));
        writers.execute(() -> {
            try {
                client.pods().inNamespace(NAMESPACE).resource(pod).create();
            } catch (KubernetesClientException e) {
                waiting.remove(NAMESPACE + "/" + name);
                failures.incrementAndGet();
                LOG.warn("cannot create batch pod {}: {}", name, e.getMessage());
            }
        });
    }

    /**
     * A batch pod as a job controller creates it: koord-batch (BE) asking {@code kubernetes.io/batch-cpu} and
     * {@code batch-memory}, its use and work in annotations, a gang's members with Koordinator's gang annotations.
     *
     * @param gang null: not a gang
     */
    public static Pod pod(String name, WorkloadModel.TaskShape t, String gang, int gangSize, String schedulerName, long submittedAtMillis) {
        Map<String, Quantity> resources = Map.of(ResourceNames.BATCH_CPU, new Quantity(Long.toString(t.cpuMilli())),
                ResourceNames.BATCH_MEMORY, new Quantity(Long.toString(t.memoryBytes())));
        Map<String, String> annotations = new HashMap<>();
        annotations.put(BatchPodRuntime.CPU_USE, Double.toString(t.cpuUse()));
        annotations.put(BatchPodRuntime.MEMORY_USE, Long.toString(t.memoryUse()));
        annotations.put(BatchPodRuntime.WORK, Double.toString(t.workCoreSeconds()));
        annotations.put(SUBMITTED_AT, Long.toString(submittedAtMillis));
        if (gang != null) {
            annotations.put("gang.scheduling.koordinator.sh/name", gang);
            annotations.put("gang.scheduling.koordinator.sh/min-available", Integer.toString(gangSize));
        }
        return new PodBuilder().withNewMetadata().withName(name).withNamespace(NAMESPACE)
                .addToLabels(KoordinatorKeys.LABEL_QOS_CLASS, "BE").addToLabels("app", "batch").addToAnnotations(annotations)
                .endMetadata().withNewSpec().withSchedulerName(schedulerName).withPriorityClassName("koord-batch")
                .withRestartPolicy("Never").addNewContainer().withName("task").withImage("batch").withNewResources()
                .addToRequests(resources).addToLimits(resources).endResources().endContainer().endSpec().build();
    }

    /** The shared pod watch: a batch pod started, finished or went away. */
    public void changed(Pod pod, boolean deleted) {
        if (!NAMESPACE.equals(pod.getMetadata().getNamespace())) {
            return;
        }
        String key = NAMESPACE + "/" + pod.getMetadata().getName();
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        if (deleted) {
            waiting.remove(key);
            counted.remove(pod.getMetadata().getUid());
            return;
        }
        if ("Running".equals(phase)) {
            Waiting w = waiting.remove(key);
            if (w != null) {
                queueing.add(Math.max(0, clock.millis() - w.sinceMillis()));
            }
        } else if ("Succeeded".equals(phase) && counted.putIfAbsent(pod.getMetadata().getUid(), true) == null) {
            completed.incrementAndGet();
            delete(pod);
        }
    }

    /** The kubelet stopped a batch pod before its work was done: evicted, or killed by the kernel. Run it again. */
    @Override
    public void stopped(Pod pod, BatchTask task, boolean oom) {
        (oom ? oomKilled : evicted).incrementAndGet();
        if (counted.putIfAbsent(pod.getMetadata().getUid(), true) != null) {
            return;
        }
        if (oom) {
            delete(pod);
        }
        Map<String, String> a = pod.getMetadata().getAnnotations();
        long cpu = task.requestMilli();
        WorkloadModel.TaskShape again = new WorkloadModel.TaskShape(cpu, task.requestMemory(), Double.parseDouble(a.get(BatchPodRuntime.CPU_USE)),
                task.memoryUse(), Double.parseDouble(a.get(BatchPodRuntime.WORK)));
        submit(pod.getMetadata().getName() + "-again-" + names.incrementAndGet(), again, null, 1);
    }

    private void delete(Pod pod) {
        writers.execute(() -> {
            try {
                client.pods().inNamespace(NAMESPACE).withName(pod.getMetadata().getName()).withGracePeriod(0).delete();
            } catch (KubernetesClientException e) {
                LOG.debug("deleting {}: {}", pod.getMetadata().getName(), e.getMessage());
            }
        });
    }

    @Override
    public long submitted() {
        return submitted.get();
    }

    @Override
    public long completed() {
        return completed.get();
    }

    @Override
    public long evicted() {
        return evicted.get();
    }

    @Override
    public long oomKilled() {
        return oomKilled.get();
    }

    public long failures() {
        return failures.get();
    }

    public int waiting() {
        return waiting.size();
    }

    /** The batch-cpu of the pods waiting to be scheduled, in cores. */
    public double waitingCores() {
        long milli = 0;
        for (Waiting w : waiting.values()) {
            milli += w.cpuMilli();
        }
        return milli / 1000.0;
    }

    @Override
    public Durations queueingMillis() {
        return queueing;
    }

    @Override
    public void close() {
        Daemons.stop(5, writers);
    }
}
