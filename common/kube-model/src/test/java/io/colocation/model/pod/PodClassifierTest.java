package io.colocation.model.pod;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.colocation.api.PriorityClass;
import io.colocation.api.QoSClass;
import io.colocation.model.Resources;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PodClassifierTest {

    private static ContainerBuilder container(String name, String cpuReq, String memReq, String cpuLim, String memLim) {
        ContainerBuilder c = new ContainerBuilder().withName(name).withNewResources().endResources();
        if (cpuReq != null) {
            c.editResources().addToRequests("cpu", new Quantity(cpuReq)).endResources();
        }
        if (memReq != null) {
            c.editResources().addToRequests("memory", new Quantity(memReq)).endResources();
        }
        if (cpuLim != null) {
            c.editResources().addToLimits("cpu", new Quantity(cpuLim)).endResources();
        }
        if (memLim != null) {
            c.editResources().addToLimits("memory", new Quantity(memLim)).endResources();
        }
        return c;
    }

    private static Pod pod(Map<String, String> labels, Integer priority, ContainerBuilder... containers) {
        PodBuilder b = new PodBuilder().withNewMetadata().withName("p").withNamespace("default").withLabels(labels).endMetadata()
                .withNewSpec().withPriority(priority).endSpec();
        for (ContainerBuilder c : containers) {
            b.editSpec().addToContainers(c.build()).endSpec();
        }
        return b.build();
    }

    @Test
    void priorityLabelWinsEvenWhenItNamesNoClassThenSpecPriorityThenQoS() {
        assertEquals(PriorityClass.MID, PodClassifier.priorityClass(pod(Map.of("koordinator.sh/priority-class", "koord-mid"), 5500)));
        // an unknown label value is "none", spec.priority is not consulted, the QoS decides (BestEffort -> BE -> batch)
        assertEquals(PriorityClass.BATCH, PodClassifier.priorityClass(pod(Map.of("koordinator.sh/priority-class", "gold"), 9500)));
        assertEquals(PriorityClass.BATCH, PodClassifier.priorityClass(pod(Map.of(), 5000)));
        assertEquals(PriorityClass.FREE, PodClassifier.priorityClass(pod(Map.of(), 3999)));
        // out of every range -> from QoS: a Burstable pod is LS -> prod
        assertEquals(PriorityClass.PROD, PodClassifier.priorityClass(pod(Map.of(), 8500, container("a", "1", null, null, null))));
        assertEquals(PriorityClass.BATCH, PodClassifier.priorityClass(pod(Map.of("koordinator.sh/qosClass", "BE"), null,
                container("a", "1", "1Gi", null, null))));
    }

    @Test
    void kubeQoSClassFollowsTheKubelet() {
        assertEquals("BestEffort", PodClassifier.kubeQoSClass(pod(Map.of(), null, container("a", null, null, null, null))));
        assertEquals("Guaranteed", PodClassifier.kubeQoSClass(pod(Map.of(), null, container("a", "2", "1Gi", "2", "1Gi"))));
        assertEquals("Guaranteed", PodClassifier.kubeQoSClass(pod(Map.of(), null, container("a", null, null, "2", "1Gi"))),
                "limits alone: requests default to them");
        assertEquals("Burstable", PodClassifier.kubeQoSClass(pod(Map.of(), null, container("a", "1", "1Gi", "2", "1Gi"))));
        assertEquals("Burstable", PodClassifier.kubeQoSClass(pod(Map.of(), null, container("a", "2", "1Gi", "2", "1Gi"),
                container("b", "1", null, null, null))));
        assertEquals(QoSClass.LSR, PodClassifier.qosClass(pod(Map.of(), null, container("a", "2", "1Gi", "2", "1Gi"))));
        assertEquals(QoSClass.LSE, PodClassifier.qosClass(pod(Map.of("koordinator.sh/qosClass", "LSE"), null)));
        Pod withStatus = pod(Map.of(), null);
        withStatus.setStatus(new io.fabric8.kubernetes.api.model.PodStatusBuilder().withQosClass("Burstable").build());
        assertEquals(QoSClass.LS, PodClassifier.qosClass(withStatus));
    }

    @Test
    void effectiveRequestCoversInitContainersSidecarsAndOverhead() throws Exception {
        Pod p = pod(Map.of(), null, container("a", "1", "1Gi", null, null), container("b", "500m", null, null, "2Gi"));
        assertEquals(new Resources(1500, 3L << 30), PodRequests.of(p, "Pod default/p: "));

        // a plain init container bigger than the app containers sets the request
        p.getSpec().getInitContainers().add(container("init", "4", "512Mi", null, null).build());
        assertEquals(new Resources(4000, 3L << 30), PodRequests.of(p, "Pod default/p: "));

        // a sidecar (restartPolicy Always) runs alongside: it adds to the sum and to later init containers
        p.getSpec().getInitContainers().add(0, container("sidecar", "1", "1Gi", null, null).withRestartPolicy("Always").build());
        // sum = 1.5 + 1 = 2.5 cores, 4Gi; init: max(sidecar 1, init 4 + 1 = 5 cores / 1.5Gi)
        assertEquals(new Resources(5000, 4L << 30), PodRequests.of(p, "Pod default/p: "));

        p.getSpec().setOverhead(Map.of("cpu", new Quantity("250m"), "memory", new Quantity("128Mi")));
        assertEquals(new Resources(5250, (4L << 30) + (128L << 20)), PodRequests.of(p, "Pod default/p: "));
    }
}
