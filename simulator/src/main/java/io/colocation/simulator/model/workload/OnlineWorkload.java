package io.colocation.simulator.model.workload;

import io.colocation.api.KoordinatorKeys;
import io.colocation.simulator.model.host.SimulatedHost;
import io.colocation.simulator.model.trace.NodeLoadCurves;
import io.colocation.simulator.model.trace.OnlineLoad;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The online pods (koord-prod, LS): {@value WorkloadModel#ONLINE_PODS_PER_NODE} per node, bound to their node as the
 * default scheduler would have bound them, each requesting {@value WorkloadModel#ONLINE_REQUEST_FACTOR} × its mean use
 * and following its share of the node's load curve on the host.
 */
public final class OnlineWorkload {
    public static final String NAMESPACE = "online";
    /** A node's online pods may request at most this share of its CPU, as a scheduler fitting them would keep them. */
    static final double MAX_REQUESTED = 0.9;

    private OnlineWorkload() {
    }

    /** One online pod of a node: the Pod as created on its node, its share of the node's online demand, its memory in use. */
    public record Planned(Pod pod, double share, long memoryUse) {
    }

    /** The online pods of {@code host}: {@value WorkloadModel#ONLINE_PODS_PER_NODE}, sized from its load and {@code seed}. */
    public static List<Planned> plan(SimulatedHost host, OnlineLoad curves, long seed) {
        double mean = curves.meanOnlineCores(host.index(), host.cores());
        List<WorkloadModel.OnlinePodShape> shapes = WorkloadModel.onlinePods(NodeLoadCurves.random(seed + 99, host.index()), mean,
                host.memory(), curves.meanMemoryShare(host.index()));
        long requested = shapes.stream().mapToLong(WorkloadModel.OnlinePodShape::cpuRequestMilli).sum();
        double fit = Math.min(1, MAX_REQUESTED * host.cores() * 1000 / requested);
        List<Planned> out = new ArrayList<>();
        for (int j = 0; j < shapes.size(); j++) {
            WorkloadModel.OnlinePodShape s = shapes.get(j);
            long cpu = Math.max(100, (long) (s.cpuRequestMilli() * fit));
            String name = "web-" + host.name() + "-" + j;
            Pod pod = new PodBuilder().withNewMetadata().withName(name).withNamespace(NAMESPACE).addToLabels("app", "web")
                    .addToLabels(KoordinatorKeys.LABEL_QOS_CLASS, "LS").endMetadata().withNewSpec().withNodeName(host.name())
                    .withPriorityClassName("koord-prod").addNewContainer().withName("web").withImage("web").withNewResources()
                    .addToRequests(Map.of("cpu", new Quantity(cpu + "m"), "memory", new Quantity(Long.toString(s.memoryRequest()))))
                    .addToLimits(Map.of("cpu", new Quantity(2 * cpu + "m"), "memory", new Quantity(Long.toString(2 * s.memoryRequest()))))
                    .endResources().endContainer().endSpec().build();
            out.add(new Planned(pod, s.share(), s.memoryUse()));
        }
        return out;
    }

    /** Creates every node's online pods (in parallel on {@code pool}) and gives each host its pods. */
    public static int create(KubernetesClient client, List<SimulatedHost> hosts, OnlineLoad curves, long seed, ExecutorService pool)
            throws Exception {
        List<Future<?>> done = new ArrayList<>();
        for (SimulatedHost host : hosts) {
            done.add(pool.submit(() -> {
                for (Planned p : plan(host, curves, seed)) {
                    Pod created = client.pods().inNamespace(NAMESPACE).resource(p.pod()).create();
                    host.addOnlinePod(new SimulatedHost.OnlinePod(created.getMetadata().getUid(), NAMESPACE + "/" + created.getMetadata().getName(),
                            p.share(), p.memoryUse()));
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get(10, TimeUnit.MINUTES);
        }
        return hosts.size() * WorkloadModel.ONLINE_PODS_PER_NODE;
    }
}
