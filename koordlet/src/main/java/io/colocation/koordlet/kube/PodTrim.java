package io.colocation.koordlet.kube;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;

/**
 * What the agent's pod informer drops of each pod besides the managed fields and last-applied annotation
 * ({@link io.colocation.kube.client.TrimmingItemStore}): volumes, and each container's command, environment, mounts
 * and probes. On a real node these are most of a pod's size, and the agent's memory is a budget. What stays:
 * identity, labels, annotations (Koordinator's), priority, resources, phase and container statuses.
 */
final class PodTrim {
    private PodTrim() {
    }

    static void trim(Pod pod) {
        if (pod.getSpec() != null) {
            pod.getSpec().setVolumes(null);
            trim(pod.getSpec().getContainers());
            trim(pod.getSpec().getInitContainers());
        }
        if (pod.getStatus() != null) {
            pod.getStatus().setConditions(null);
        }
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
}
