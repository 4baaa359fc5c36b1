package io.colocation.koordlet.collect;

import io.colocation.koordlet.NodeInputs;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The pods a sample measures, each computed again only when its resourceVersion changed (a pod's kube QoS needs its
 * resources parsed, which every second for every pod would cost more than reading its cgroup). The collect thread's own.
 */
public final class PodTargets {
    private record Entry(String version, CollectTargets.PodTarget target) {
    }

    /** Pod uid → its last target. */
    private Map<String, Entry> byUid = Map.of();
    private List<CollectTargets.PodTarget> last = List.of();
    private volatile Map<String, String> names = Map.of();

    public List<CollectTargets.PodTarget> of(List<Pod> pods) {
        if (unchanged(pods)) {
            return last;
        }
        Map<String, Entry> next = new HashMap<>(pods.size() * 2);
        List<CollectTargets.PodTarget> result = new ArrayList<>(pods.size());
        for (Pod p : pods) {
            String uid = p.getMetadata().getUid();
            String version = p.getMetadata().getResourceVersion();
            Entry e = uid == null ? null : byUid.get(uid);
            if (e == null || !Objects.equals(e.version(), version)) {
                e = new Entry(version, NodeInputs.podTarget(p));
            }
            if (uid != null) {
                next.put(uid, e);
            }
            if (e.target() != null) {
                result.add(e.target());
            }
        }
        byUid = next;
        Map<String, String> n = new HashMap<>();
        result.forEach(t -> n.put(t.uid(), t.key()));
        names = n;
        last = Collections.unmodifiableList(result);
        return last;
    }

    /** Whether the pods are the last call's, each at the same resourceVersion (most calls: nothing to build). */
    private boolean unchanged(List<Pod> pods) {
        if (pods.size() != byUid.size()) {
            return false;
        }
        for (Pod p : pods) {
            String uid = p.getMetadata().getUid();
            Entry e = uid == null ? null : byUid.get(uid);
            if (e == null || !Objects.equals(e.version(), p.getMetadata().getResourceVersion())) {
                return false;
            }
        }
        return true;
    }

    /** Pod uid → {@code namespace/name} of the pods measured. */
    public Map<String, String> names() {
        return names;
    }
}
