package io.colocation.koordlet.qos.agent;

import io.colocation.koordlet.qos.Victim;
import io.colocation.koordlet.yarn.YarnContainers;
import io.colocation.kube.client.EventRecorder;
import io.colocation.kube.client.Evictions;
import io.colocation.kube.client.YarnReleaseWriter;
import io.colocation.model.node.YarnRelease;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Evicts for real: a pod through the Eviction API (policy/v1, falling back to v1beta1 before Kubernetes 1.22) with a
 * Warning Event on it; a YARN container under memory pressure is killed through the NodeManager's copilot at once;
 * YARN containers starving the BE tier of CPU leave gracefully: the node's {@link YarnRelease} object is written, the
 * broker holds YARN's grant at its limit and the ResourceManager preempts (exit status PREEMPTED). The agent writes no
 * Node: its only writes are its node's NodeMetric status, YarnRelease, Events and evictions.
 */
public final class ClusterEvictions implements EvictionExecutor {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterEvictions.class);
    public static final String EVENT_REASON = "EvictedByKoordlet";

    private final KubernetesClient client;
    private final EventRecorder events;
    private final YarnContainers yarn;
    private final String nodeName;

    /** @param yarn null when YARN is not configured */
    public ClusterEvictions(KubernetesClient client, EventRecorder events, YarnContainers yarn, String nodeName) {
        this.client = client;
        this.events = events;
        this.yarn = yarn;
        this.nodeName = nodeName;
    }

    @Override
    public Optional<String> evict(Victim victim, String area, String strategy, String reason) {
        if (victim.kind() == Victim.Kind.YarnContainer) {
            return yarn == null ? Optional.of("no copilot configured (yarn.copilotUrl)")
                    : yarn.kill(victim.name(), "koordlet " + strategy + ": " + reason);
        }
        Pod pod = client.pods().inNamespace(victim.namespace()).withName(victim.name()).get();
        if (pod == null) {
            return Optional.of("the pod is gone");
        }
        Optional<String> refused = Evictions.evict(client, victim.namespace(), victim.name());
        if (refused.isPresent()) {
            return refused;
        }
        event(pod, strategy, reason);
        return Optional.empty();
    }

    @Override
    public Optional<String> releaseYarn(YarnRelease release) {
        try {
            YarnReleaseWriter.write(client, nodeName, release);
            return Optional.empty();
        } catch (KubernetesClientException e) {
            return Optional.of("cannot write YarnRelease " + nodeName + ": " + switch (e.getCode()) {
                case 403 -> "forbidden (the koordlet's ClusterRole needs create and update on yarnreleases, and the node-agent webhook lets"
                        + " a koordlet write its own node's only): " + e.getMessage();
                case 404 -> "the API server does not serve YarnRelease (install conf/kubernetes/crds/colocation.io_yarnreleases.yaml)";
                default -> e.getMessage();
            });
        }
    }

    private void event(Pod pod, String strategy, String reason) {
        events.warning(EventRecorder.Involved.of(pod), EVENT_REASON, "evicted by the koordlet on " + nodeName + ": " + strategy + ": "
                + reason, nodeName);
    }
}
