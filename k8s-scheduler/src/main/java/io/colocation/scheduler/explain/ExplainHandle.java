package io.colocation.scheduler.explain;

import io.colocation.scheduler.framework.Framework;
import io.colocation.scheduler.framework.Handle;
import io.colocation.scheduler.framework.PodInfo;
import io.colocation.scheduler.framework.WaitingPods;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

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
    private List<GenericKubernetesResource> elasticQuotas = List.of();
    private final Set<String> assumed = new HashSet<>();
    private final List<PodListener> podListeners = new ArrayList<>();

    /**
     * The input's pods, PodGroups (by {@code namespace/name}) and ElasticQuotas; the profiles are built before the
     * input is read, so the plugins that watch pods hear of each one now.
     */
    void load(List<Pod> pods, Map<String, GenericKubernetesResource> podGroups, List<GenericKubernetesResource> elasticQuotas) {
        this.pods = List.copyOf(pods);
        this.podGroups = Map.copyOf(podGroups);
        this.elasticQuotas = List.copyOf(elasticQuotas);
        for (PodListener l : podListeners) {
            this.pods.forEach(l::changed);
        }
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
    public void watchPods(PodListener listener) {
        podListeners.add(listener);
    }

    /** The input's ElasticQuotas: one version, since explain reads its input once. */
    @Override
    public ElasticQuotas elasticQuotas() {
        return new ElasticQuotas() {
            @Override
            public long version() {
                return 1;
            }

            @Override
            public java.util.Collection<GenericKubernetesResource> objects() {
                return elasticQuotas;
            }
        };
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
