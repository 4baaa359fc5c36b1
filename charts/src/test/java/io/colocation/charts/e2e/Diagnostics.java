package io.colocation.charts.e2e;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Comparator;

/** What the cluster looked like when a check failed: every pod with its phase and conditions, and the events. */
final class Diagnostics {
    private Diagnostics() {
    }

    static String describe(KubernetesClient client) {
        StringBuilder out = new StringBuilder();
        try {
            for (Pod p : client.pods().inAnyNamespace().list().getItems()) {
                out.append("pod ").append(p.getMetadata().getNamespace()).append('/').append(p.getMetadata().getName()).append(' ')
                        .append(p.getStatus().getPhase()).append(" node=").append(p.getSpec().getNodeName()).append('\n');
                if (p.getStatus().getConditions() != null) {
                    p.getStatus().getConditions().forEach(c -> out.append("  ").append(c.getType()).append('=').append(c.getStatus())
                            .append(c.getMessage() == null ? "" : " " + c.getMessage()).append('\n'));
                }
                if (p.getStatus().getContainerStatuses() != null) {
                    p.getStatus().getContainerStatuses().forEach(c -> out.append("  container ").append(c.getName()).append(" ready=")
                            .append(c.getReady()).append(" restarts=").append(c.getRestartCount()).append(' ').append(c.getState()).append('\n'));
                }
            }
            out.append('\n');
            client.v1().events().inAnyNamespace().list().getItems().stream()
                    .sorted(Comparator.comparing((Event e) -> String.valueOf(e.getLastTimestamp())))
                    .forEach(e -> out.append(e.getLastTimestamp()).append(' ').append(e.getInvolvedObject().getNamespace()).append('/')
                            .append(e.getInvolvedObject().getName()).append(' ').append(e.getReason()).append(": ").append(e.getMessage())
                            .append('\n'));
            out.append('\n').append(client.nodes().list().getItems());
        } catch (RuntimeException e) {
            out.append("(could not read more: ").append(e).append(")\n");
        }
        return out.toString();
    }
}
