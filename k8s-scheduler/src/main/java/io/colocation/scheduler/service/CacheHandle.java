package io.colocation.scheduler.service;

import io.colocation.scheduler.framework.Handle;
import io.colocation.scheduler.framework.WaitingPods;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.function.Function;

/** The running scheduler's {@link Handle}: its client and write rate, its cache's pods, PodGroups and ElasticQuotas, its Permit waits. */
final class CacheHandle implements Handle {
    private final KubernetesClient client;
    private final WriteRate writes;
    private final ClusterCache cache;
    private final PermitWaits waits;

    CacheHandle(KubernetesClient client, WriteRate writes, ClusterCache cache, PermitWaits waits) {
        this.client = client;
        this.writes = writes;
        this.cache = cache;
        this.waits = waits;
    }

    @Override
    public KubernetesClient client() {
        return client;
    }

    @Override
    public boolean writeToken() {
        return writes.acquire();
    }

    @Override
    public PodIndex podIndex(String name, Function<Pod, String> keyOf) {
        return cache.index(name, keyOf);
    }

    @Override
    public boolean assumed(String podKey) {
        return cache.assumed(podKey);
    }

    @Override
    public GenericKubernetesResource podGroup(String namespace, String name) {
        return cache.podGroup(namespace, name);
    }

    @Override
    public WaitingPods waitingPods() {
        return waits;
    }

    @Override
    public void watchPods(PodListener listener) {
        cache.watchPods(listener);
    }

    @Override
    public ElasticQuotas elasticQuotas() {
        return cache.elasticQuotas();
    }
}
