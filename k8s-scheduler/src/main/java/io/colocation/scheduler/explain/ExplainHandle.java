package io.colocation.scheduler.explain;

import io.colocation.scheduler.framework.Framework;
import io.colocation.scheduler.framework.Handle;
import io.colocation.scheduler.framework.PodInfo;
import io.colocation.scheduler.framework.WaitingPods;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.function.Function;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The plugins' handle on the input documents instead of a cluster: its pods and PodGroups, the explained pod's
 * assumption, and no pod waiting at Permit (explain decides one pod; the others of its gang are pending or bound as
 * the input says). Nothing is written: explain stops before Bind.
 */
final class ExplainHandle implements Handle, Framework.Assumption {
    private static final WaitingPods NONE_WAITING = new WaitingPods() {
        @Override
        public List<Waiting> list() {
            return List.of();
        }

        @Override
        public boolean allow(String podKey) {
            return false;
        }

        @Override
        public boolean reject(String podKey, String reason) {
            return false;
        }
    };

    private List<Pod> pods = List.of();
    private Map<String, GenericKubernetesResource> podGroups = Map.of();
    private final Set<String> assumed = new HashSet<>();

    /** The input's pods and PodGroups (by {@code namespace/name}); the profiles are built before the input is read. */
    void load(List<Pod> pods, Map<String, GenericKubernetesResource> podGroups) {
        this.pods = List.copyOf(pods);
        this.podGroups = Map.copyOf(podGroups);
    }

    @Override
    public KubernetesClient client() {
        throw new UnsupportedOperationException("explain does not write to a cluster");
    }

    @Override
    public boolean writeToken() {
        return true;
    }

    @Override
    public PodIndex podIndex(String name, Function<Pod, String> keyOf) {
        return key -> pods.stream().filter(p -> key.equals(keyOf.apply(p))).toList();
    }

    @Override
    public boolean assumed(String podKey) {
        return assumed.contains(podKey);
    }

    @Override
    public GenericKubernetesResource podGroup(String namespace, String name) {
        return podGroups.get(namespace + "/" + name);
    }

    @Override
    public WaitingPods waitingPods() {
        return NONE_WAITING;
    }

    @Override
    public void assume(PodInfo pod, String node) {
        assumed.add(pod.key());
    }

    @Override
    public void forget(PodInfo pod) {
        assumed.remove(pod.key());
    }
}
