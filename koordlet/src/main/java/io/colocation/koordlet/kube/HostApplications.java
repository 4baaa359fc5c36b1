package io.colocation.koordlet.kube;

import com.fasterxml.jackson.databind.JsonNode;
import io.colocation.api.PriorityClass;
import io.colocation.api.QoSClass;
import io.colocation.koordlet.cgroup.CgroupLayout;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The NodeSLO's {@code hostApplications} (docs/koordinator-compatibility.md §5.6) resolved to cgroup directories. An entry
 * without a name, with an unknown base, or named like the YARN host application (measured through the copilot)
 * is left out, with a problem naming it.
 */
public final class HostApplications {
    /** One host application to measure; {@code priority}/{@code qos} as Koordinator names them ("" for none). */
    public record HostApp(String name, String priority, String qos, String cgroupDir) {
    }

    public record Parsed(List<HostApp> apps, List<String> problems) {
    }

    private HostApplications() {
    }

    /** @param yarnAppName null when YARN is not measured through the copilot (then such an entry is kept) */
    public static Parsed parse(JsonNode hostApplications, CgroupLayout layout, String yarnAppName) {
        List<HostApp> apps = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        if (hostApplications == null || hostApplications.isNull()) {
            return new Parsed(apps, problems);
        }
        if (!hostApplications.isArray()) {
            problems.add("NodeSLO spec.hostApplications is not a list; ignored");
            return new Parsed(apps, problems);
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < hostApplications.size(); i++) {
            JsonNode a = hostApplications.get(i);
            String where = "NodeSLO spec.hostApplications[" + i + "]";
            String name = text(a, "name");
            if (name.isEmpty() || name.contains("..") || name.startsWith("/")) {
                problems.add(where + ": no usable name; ignored");
                continue;
            }
            if (name.equals(yarnAppName)) {
                problems.add(where + " '" + name + "': YARN containers are measured through the copilot; this entry is ignored");
                continue;
            }
            if (!seen.add(name)) {
                problems.add(where + " '" + name + "': a second entry with this name; ignored");
                continue;
            }
            String priorityText = text(a, "priority");
            PriorityClass priority = PriorityClass.fromName(priorityText);
            if (!priorityText.isEmpty() && priority == PriorityClass.NONE) {
                problems.add(where + " '" + name + "': unknown priority '" + priorityText + "'; reported without one");
            }
            String qosText = text(a, "qos");
            QoSClass qos = QoSClass.fromLabel(qosText);
            if (!qosText.isEmpty() && qos == QoSClass.NONE) {
                problems.add(where + " '" + name + "': unknown qos '" + qosText + "'; reported without one");
            }
            String dir;
            JsonNode path = a.get("cgroupPath");
            if (path != null && path.isObject()) {
                String base = text(path, "base");
                String baseDir = switch (base) {
                    case "", "CgroupRoot" -> "";
                    case "Kubepods" -> layout.qosDir("Guaranteed");
                    case "KubepodsBurstable" -> layout.qosDir("Burstable");
                    case "KubepodsBesteffort" -> layout.qosDir("BestEffort");
                    default -> null;
                };
                if (baseDir == null) {
                    problems.add(where + " '" + name + "': unknown cgroupPath.base '" + base
                            + "' (CgroupRoot, Kubepods, KubepodsBurstable or KubepodsBesteffort); ignored");
                    continue;
                }
                dir = join(baseDir, text(path, "parentDir"), text(path, "relativePath"));
                if (dir.contains("..")) {
                    problems.add(where + " '" + name + "': cgroupPath leaves the cgroup root; ignored");
                    continue;
                }
            } else {
                dir = switch (qos) {
                    case LSE, LSR, LS -> "host-latency-sensitive/" + name;
                    case BE -> "host-best-effort/" + name;
                    default -> name;
                };
            }
            apps.add(new HostApp(name, priority.koordName(), qos == QoSClass.NONE ? "" : qos.name(), dir));
        }
        return new Parsed(apps, problems);
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n == null ? null : n.get(field);
        return v == null || !v.isTextual() ? "" : v.asText().trim();
    }

    private static String join(String... parts) {
        StringBuilder b = new StringBuilder();
        for (String p : parts) {
            String t = p.replaceAll("^/+|/+$", "");
            if (!t.isEmpty()) {
                b.append(b.length() == 0 ? "" : "/").append(t);
            }
        }
        return b.toString();
    }
}
