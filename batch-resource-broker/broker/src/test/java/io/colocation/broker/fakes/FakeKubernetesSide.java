package io.colocation.broker.fakes;

import io.colocation.broker.kube.BatchPublication;
import io.colocation.broker.kube.KubernetesSide;
import io.fabric8.kubernetes.api.model.Node;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The Kubernetes side in memory: what was written per node, the Events, and nodes whose writes fail. */
public final class FakeKubernetesSide implements KubernetesSide {
    public final Map<String, BatchPublication> written = new ConcurrentHashMap<>();
    public final List<String> events = java.util.Collections.synchronizedList(new ArrayList<>());
    public final Set<String> failing = java.util.Collections.synchronizedSet(new HashSet<>());
    public final java.util.concurrent.atomic.AtomicInteger writes = new java.util.concurrent.atomic.AtomicInteger();
    /** Origins written on their own (before a YARN grant grows). */
    public final Map<String, io.colocation.model.Resources> origins = new ConcurrentHashMap<>();

    @Override
    public Node publish(String nodeName, Node cached, BatchPublication publication) throws IOException {
        if (failing.contains(nodeName)) {
            throw new IOException("the API server refused the status of Node " + nodeName);
        }
        writes.incrementAndGet();
        written.put(nodeName, publication);
        return cached;
    }

    @Override
    public void publishOrigin(String nodeName, BatchPublication publication) throws IOException {
        if (failing.contains(nodeName)) {
            throw new IOException("the API server refused the annotations of Node " + nodeName);
        }
        origins.put(nodeName, publication.origin());
    }

    @Override
    public void warn(String nodeName, String reason, String message) {
        events.add(nodeName + " " + reason + ": " + message);
    }
}
