package io.colocation.broker.nodeagent;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The pods the node restriction looks up, read from the API server: the node agent's own pod for each of its requests
 * (a NodeMetric report a minute, per node) and an eviction's pod. A bound pod is remembered for {@link #REMEMBER}
 * (its node never changes while its uid stays; the restriction compares the uid), the 10,000 latest, so a report costs
 * no read; an unbound or missing pod is read again each time.
 */
public final class ApiServerPods implements NodeAgentReviews.Pods {
    static final Duration REMEMBER = Duration.ofMinutes(5);
    private static final int MAX_REMEMBERED = 10_000;

    private record Remembered(NodeAgentReviews.BoundPod pod, Instant until) {
    }

    private final KubernetesClient client;
    private final Clock clock;
    private final Map<String, Remembered> bound = new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Remembered> eldest) {
            return size() > MAX_REMEMBERED;
        }
    };

    public ApiServerPods(KubernetesClient client, Clock clock) {
        this.client = client;
        this.clock = clock;
    }

    @Override
    public Optional<NodeAgentReviews.BoundPod> get(String namespace, String name) {
        String key = namespace + "/" + name;
        Instant now = clock.instant();
        synchronized (bound) {
            Remembered r = bound.get(key);
            if (r != null && now.isBefore(r.until())) {
                return Optional.of(r.pod());
            }
        }
        Pod pod = client.pods().inNamespace(namespace).withName(name).get();
        if (pod == null) {
            return Optional.empty();
        }
        String node = pod.getSpec() == null || pod.getSpec().getNodeName() == null ? "" : pod.getSpec().getNodeName();
        NodeAgentReviews.BoundPod found = new NodeAgentReviews.BoundPod(pod.getMetadata().getUid(), node);
        if (!node.isEmpty()) {
            synchronized (bound) {
                bound.put(key, new Remembered(found, now.plus(REMEMBER)));
            }
        }
        return Optional.of(found);
    }
}
