package io.colocation.simulator.fast;

import io.colocation.simulator.measure.Durations;
import io.colocation.simulator.measure.KubernetesTasks;
import io.colocation.simulator.model.host.BatchTask;
import io.colocation.simulator.model.kube.BatchPodRuntime;
import io.colocation.simulator.model.workload.BatchWorkload;
import io.colocation.simulator.model.workload.WorkloadModel;
import io.fabric8.kubernetes.api.model.Pod;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The batch work of the fast engine, as the real engine's {@link BatchWorkload} makes it from the same
 * {@link WorkloadModel}: each control round tops both sides up to their backlog; a Kubernetes pod evicted or killed by the
 * kernel is created again, as a Job controller would; a finished pod is deleted, as a Job's TTL would.
 */
final class FastWorkload implements KubernetesTasks {
    private final FastKubernetes kube;
    private final FastYarn yarn;
    private final WorkloadModel model;
    private final Clock clock;
    private final String schedulerName;
    private final int kubernetesBacklog;
    private final int yarnBacklog;
    /** Pods created and not running yet: since when (simulated ms) and their batch-cpu (milli). */
    private final Map<String, long[]> waiting = new LinkedHashMap<>();
    private final Durations queueing = new Durations();
    private long names;
    private long uids;
    private long submitted;
    private long completed;
    private long evicted;
    private long oomKilled;

    /** @param yarn null: no YARN side */
    FastWorkload(FastKubernetes kube, FastYarn yarn, WorkloadModel model, Clock clock, String schedulerName, int kubernetesBacklog,
            int yarnBacklog) {
        this.kube = kube;
        this.yarn = yarn;
        this.model = model;
        this.clock = clock;
        this.schedulerName = schedulerName;
        this.kubernetesBacklog = kubernetesBacklog;
        this.yarnBacklog = yarnBacklog;
    }

    void topUp() {
        int pods = 0;
        while (waiting.size() + pods < kubernetesBacklog) {
            WorkloadModel.KubernetesJob job = model.kubernetesJob();
            long id = ++names;
            for (int i = 0; i < job.pods().size(); i++) {
                String name = job.gang() ? "gang-" + id + "-" + i : "job-" + id;
                create(name, job.pods().get(i), job.gang() ? "gang-" + id : null, job.pods().size());
                submitted++;
            }
            pods += job.pods().size();
        }
        if (yarn != null) {
            int tasks = yarn.pendingTasks();
            while (tasks < yarnBacklog) {
                WorkloadModel.YarnApplication app = model.yarnApplication();
                yarn.submit(app);
                tasks += app.tasks().size();
            }
        }
    }

    private void create(String name, WorkloadModel.TaskShape t, String gang, int gangSize) {
        Pod pod = BatchWorkload.pod(name, t, gang, gangSize, schedulerName, clock.millis());
        pod.getMetadata().setUid(String.format("batch-%08d", ++uids));
        waiting.put(FastKubernetes.key(pod), new long[] {clock.millis(), t.cpuMilli()});
        kube.createUnbound(pod);
    }

    /** The kubelet started a bound pod. */
    void started(Pod pod) {
        long[] w = waiting.remove(FastKubernetes.key(pod));
        if (w != null) {
            queueing.add(Math.max(0, clock.millis() - w[0]));
        }
    }

    /** The pod's work is done: it succeeded and is deleted. */
    void completed(Pod pod) {
        completed++;
        kube.delete(FastKubernetes.key(pod), pod.getSpec().getNodeName());
    }

    /** The pod left its node before its work was done (evicted, or killed by the kernel): deleted, and created again. */
    void stopped(Pod pod, BatchTask task, boolean oom) {
        if (oom) {
            oomKilled++;
        } else {
            evicted++;
        }
        kube.delete(FastKubernetes.key(pod), pod.getSpec().getNodeName());
        Map<String, String> a = pod.getMetadata().getAnnotations();
        WorkloadModel.TaskShape again = new WorkloadModel.TaskShape(task.requestMilli(), task.requestMemory(),
                Double.parseDouble(a.get(BatchPodRuntime.CPU_USE)), task.memoryUse(), Double.parseDouble(a.get(BatchPodRuntime.WORK)));
        create(pod.getMetadata().getName() + "-again-" + ++names, again, null, 1);
    }

    double waitingCores() {
        long milli = 0;
        for (long[] w : waiting.values()) {
            milli += w[1];
        }
        return milli / 1000.0;
    }

    @Override
    public long submitted() {
        return submitted;
    }

    @Override
    public long completed() {
        return completed;
    }

    @Override
    public long evicted() {
        return evicted;
    }

    @Override
    public long oomKilled() {
        return oomKilled;
    }

    @Override
    public Durations queueingMillis() {
        return queueing;
    }
}
