package io.colocation.koordlet.qos;

import java.util.LinkedHashMap;
import java.util.Map;

/** What an eviction strategy may pick: a pod or a YARN container. */
public record Victim(Kind kind, String namespace, String name) {
    public enum Kind { Pod, YarnContainer }

    public static Victim pod(String namespace, String name) {
        return new Victim(Kind.Pod, namespace, name);
    }

    public static Victim yarnContainer(String id) {
        return new Victim(Kind.YarnContainer, null, id);
    }

    /** {@code {"kind": "Pod", "namespace", "name"}} or {@code {"kind": "YarnContainer", "id"}}. */
    public Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", kind.name());
        if (kind == Kind.Pod) {
            m.put("namespace", namespace);
            m.put("name", name);
        } else {
            m.put("id", name);
        }
        return m;
    }

    @Override
    public String toString() {
        return kind == Kind.Pod ? "pod " + namespace + "/" + name : "YARN container " + name;
    }
}
