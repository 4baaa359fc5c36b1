package io.colocation.koordlet.kube;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.ItemStore;
import java.util.List;
import java.util.stream.Stream;

/**
 * The pod informer's store, holding each pod without what the agent never reads: managed fields, the
 * last-applied annotation, volumes, and each container's command, environment, mounts and probes. On a real
 * node these are most of a pod's size, and the agent's memory is a budget. What stays: identity, labels,
 * annotations (Koordinator's), priority, resources, phase and container statuses.
 */
final class TrimmedPodStore implements ItemStore<Pod> {
    static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

    private final BasicItemStore<Pod> store = new BasicItemStore<>(Cache::metaNamespaceKeyFunc);

    static Pod trim(Pod pod) {
        if (pod.getMetadata() != null) {
            pod.getMetadata().setManagedFields(null);
            if (pod.getMetadata().getAnnotations() != null) {
                pod.getMetadata().getAnnotations().remove(LAST_APPLIED);
            }
        }
        if (pod.getSpec() != null) {
            pod.getSpec().setVolumes(null);
            trim(pod.getSpec().getContainers());
            trim(pod.getSpec().getInitContainers());
        }
        if (pod.getStatus() != null) {
            pod.getStatus().setConditions(null);
        }
        return pod;
    }

    private static void trim(List<Container> containers) {
        if (containers == null) {
            return;
        }
        for (Container c : containers) {
            c.setCommand(null);
            c.setArgs(null);
            c.setEnv(null);
            c.setEnvFrom(null);
            c.setVolumeMounts(null);
            c.setVolumeDevices(null);
            c.setLivenessProbe(null);
            c.setReadinessProbe(null);
            c.setStartupProbe(null);
            c.setLifecycle(null);
        }
    }

    @Override
    public String getKey(Pod pod) {
        return store.getKey(pod);
    }

    @Override
    public Pod put(String key, Pod pod) {
        return store.put(key, trim(pod));
    }

    @Override
    public Pod remove(String key) {
        return store.remove(key);
    }

    @Override
    public Stream<String> keySet() {
        return store.keySet();
    }

    @Override
    public Stream<Pod> values() {
        return store.values();
    }

    @Override
    public int size() {
        return store.size();
    }

    @Override
    public Pod get(String key) {
        return store.get(key);
    }
}
