package io.colocation.sandbox.parts;

import io.colocation.helpers.concurrent.Daemons;
import io.colocation.harness.SimulatedKubelets;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The sandbox's nodes without a host: the {@link SimulatedKubelets} register them and run the pods bound to them, a
 * pod watch drives the kubelets, and a batch pod succeeds once its {@value #RUN_SECONDS} annotation's seconds have
 * passed (other pods run until deleted). So {@code kubectl get nodes,pods} shows a live cluster.
 */
public final class SimulatedNodes implements SimulatedKubelets.PodRuntime, AutoCloseable {
    /** On a pod: how long it runs before it succeeds (batch pods). */
    public static final String RUN_SECONDS = "sandbox.colocation.io/run-seconds";

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(Daemons.named("sandbox-pods"));
    private final Map<String, ScheduledFuture<?>> completions = new ConcurrentHashMap<>();
    private final SimulatedKubelets kubelets;
    private SharedIndexInformer<Pod> pods;

    private SimulatedNodes(KubernetesClient client, List<String> names) {
        this.kubelets = new SimulatedKubelets(client, Set.copyOf(names), "colocation sandbox", Clock.systemUTC(), this);
    }

    public static SimulatedNodes start(KubernetesClient client, List<String> names, int cores, int memoryGi) throws Exception {
        SimulatedNodes nodes = new SimulatedNodes(client, names);
        try {
            nodes.kubelets.register(cores, (long) memoryGi << 30, 110);
            nodes.pods = client.pods().inAnyNamespace().inform(new ResourceEventHandler<>() {
                @Override
                public void onAdd(Pod pod) {
                    nodes.kubelets.changed(pod, false);
                }

                @Override
                public void onUpdate(Pod old, Pod pod) {
                    nodes.kubelets.changed(pod, false);
                }

                @Override
                public void onDelete(Pod pod, boolean finalStateUnknown) {
                    nodes.kubelets.changed(pod, true);
                }
            });
        } catch (Exception | Error e) {
            nodes.close();
            throw e;
        }
        return nodes;
    }

    @Override
    public void start(Pod pod) {
        String run = pod.getMetadata().getAnnotations() == null ? null : pod.getMetadata().getAnnotations().get(RUN_SECONDS);
        if (run != null) {
            String uid = pod.getMetadata().getUid();
            completions.put(uid, timer.schedule(() -> {
                completions.remove(uid);
                kubelets.ended(uid, SimulatedKubelets.Ending.COMPLETED);
            }, Long.parseLong(run), TimeUnit.SECONDS));
        }
    }

    @Override
    public void stop(Pod pod) {
        ScheduledFuture<?> completion = completions.remove(pod.getMetadata().getUid());
        if (completion != null) {
            completion.cancel(false);
        }
    }

    @Override
    public void close() {
        if (pods != null) {
            pods.close();
        }
        Daemons.stop(5, timer);
        kubelets.close();
    }
}
