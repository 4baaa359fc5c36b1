package io.colocation.model.pod;

import io.colocation.api.Quantities;
import io.colocation.api.InvalidInputException;
import io.colocation.api.KoordinatorKeys;
import io.colocation.api.PriorityClass;
import io.colocation.api.QoSClass;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A pod's Koordinator priority and QoS classes (docs/koordinator-compatibility.md §1.1–1.2): the priority-class label,
 * else {@code spec.priority} by range, else derived from the QoS class; the QoS label, else from the
 * Kubernetes QoS class ({@code status.qosClass}, or computed from requests and limits as the kubelet does).
 */
public final class PodClassifier {
    private static final List<String> QOS_RESOURCES = List.of("cpu", "memory");

    private PodClassifier() {
    }

    public static PriorityClass priorityClass(Pod pod) {
        PriorityClass raw = rawPriorityClass(pod);
        return raw != PriorityClass.NONE ? raw : qosClass(pod).defaultPriorityClass();
    }

    /** The priority-class label, else spec.priority's range; without the QoS default ({@code GetPodPriorityClassRaw}). */
    public static PriorityClass rawPriorityClass(Pod pod) {
        Map<String, String> labels = pod.getMetadata() == null ? null : pod.getMetadata().getLabels();
        if (labels != null && labels.containsKey(KoordinatorKeys.LABEL_PRIORITY_CLASS)) {
            // When the label is present, spec.priority is not consulted, even if the label names no class.
            return PriorityClass.fromName(labels.get(KoordinatorKeys.LABEL_PRIORITY_CLASS));
        }
        Integer priority = pod.getSpec() == null ? null : pod.getSpec().getPriority();
        return priority == null ? PriorityClass.NONE : PriorityClass.fromPriorityValue(priority);
    }

    /** Koordinator's {@code GetPodPriorityValueWithDefault}: a non-zero spec.priority, else the class's default value. */
    public static int priorityValue(Pod pod) {
        Integer priority = pod.getSpec() == null ? null : pod.getSpec().getPriority();
        return priority != null && priority != 0 ? priority : priorityClass(pod).defaultValue();
    }

    /** The {@code koordinator.sh/qosClass} label alone ({@code GetPodQoSClassRaw}); NONE without it. */
    public static QoSClass rawQosClass(Pod pod) {
        Map<String, String> labels = pod.getMetadata() == null ? null : pod.getMetadata().getLabels();
        return QoSClass.fromLabel(labels == null ? null : labels.get(KoordinatorKeys.LABEL_QOS_CLASS));
    }

    public static QoSClass qosClass(Pod pod) {
        QoSClass raw = rawQosClass(pod);
        return raw != QoSClass.NONE ? raw : QoSClass.fromKubeQoS(kubeQoSClass(pod));
    }

    /** {@code status.qosClass}, or the kubelet's {@code GetPodQOS} over requests (defaulted from limits) and limits. */
    public static String kubeQoSClass(Pod pod) {
        if (pod.getStatus() != null && pod.getStatus().getQosClass() != null && !pod.getStatus().getQosClass().isEmpty()) {
            return pod.getStatus().getQosClass();
        }
        Map<String, BigDecimal> requests = new HashMap<>();
        Map<String, BigDecimal> limits = new HashMap<>();
        boolean guaranteed = true;
        List<Container> all = new ArrayList<>();
        all.addAll(PodRequests.containers(pod));
        all.addAll(PodRequests.initContainers(pod));
        for (Container c : all) {
            Map<String, Quantity> limitMap = c.getResources() == null || c.getResources().getLimits() == null
                    ? Map.of() : c.getResources().getLimits();
            Map<String, Quantity> requestMap = PodRequests.defaultedRequests(c);
            for (String name : QOS_RESOURCES) {
                BigDecimal request = positive(requestMap.get(name));
                if (request != null) {
                    requests.merge(name, request, BigDecimal::add);
                }
            }
            Set<String> limitsFound = new HashSet<>();
            for (String name : QOS_RESOURCES) {
                BigDecimal limit = positive(limitMap.get(name));
                if (limit != null) {
                    limitsFound.add(name);
                    limits.merge(name, limit, BigDecimal::add);
                }
            }
            if (!limitsFound.containsAll(QOS_RESOURCES)) {
                guaranteed = false;
            }
        }
        if (requests.isEmpty() && limits.isEmpty()) {
            return "BestEffort";
        }
        if (guaranteed) {
            for (Map.Entry<String, BigDecimal> e : requests.entrySet()) {
                BigDecimal limit = limits.get(e.getKey());
                if (limit == null || limit.compareTo(e.getValue()) != 0) {
                    guaranteed = false;
                    break;
                }
            }
        }
        return guaranteed && requests.size() == limits.size() ? "Guaranteed" : "Burstable";
    }

    private static BigDecimal positive(Quantity q) {
        if (q == null) {
            return null;
        }
        try {
            BigDecimal amount = Quantities.amount(q.toString(), "quantity");
            return amount.signum() > 0 ? amount : null;
        } catch (InvalidInputException e) {
            return null; // reported where the request itself is read
        }
    }
}
