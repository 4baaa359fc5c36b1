package io.colocation.charts.e2e;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.colocation.localclusters.kube.KubeletNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** The workloads of the checks: ordinary pods a ClusterColocationProfile converts, and an online pod that spikes. */
final class BatchWorkloads {
    static final String COLOCATION_LABEL = "koordinator.sh/enable-colocation";
    private static final Path PROFILE = Path.of("../conf/examples/colocation-profile-batch.yaml");
    private static final Path BE_QUOTA = Path.of("/sys/fs/cgroup/cpu/kubepods/besteffort/cpu.cfs_quota_us");

    private BatchWorkloads() {
    }

    /** A namespace that opted in to profile admission, and the example profile (conf/examples) that selects it. */
    static void optIn(KubernetesClient client, String namespace) throws IOException {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace)
                .addToLabels("colocation.io/profile-admission", "enabled").addToLabels(COLOCATION_LABEL, "true").endMetadata().build())
                .createOr(op -> op.update());
        try (InputStream in = Files.newInputStream(PROFILE)) {
            for (HasMetadata profile : client.load(in).items()) {
                client.resource(profile).createOr(op -> op.update());
            }
        }
    }

    /** A pod as its author writes it (cpu and memory, the default scheduler), labelled for the profile: the API's answer. */
    static Pod ordinaryPod(KubernetesClient client, String namespace, String name, List<String> command) {
        return client.pods().inNamespace(namespace).resource(new PodBuilder().withNewMetadata().withName(name)
                .addToLabels(COLOCATION_LABEL, "true").endMetadata().withNewSpec().withRestartPolicy("Never")
                .withTerminationGracePeriodSeconds(0L).addNewContainer().withName("work").withImage(KubeletNode.IMAGE)
                .withImagePullPolicy("IfNotPresent").withCommand(command).withNewResources()
                .withRequests(Map.of("cpu", new Quantity("500m"), "memory", new Quantity("64Mi")))
                .withLimits(Map.of("cpu", new Quantity("1"), "memory", new Quantity("128Mi"))).endResources().endContainer()
                .endSpec().build()).create();
    }

    /** A latency-sensitive pod (no profile selects it) asking half a core. */
    static Pod onlinePod(KubernetesClient client, String namespace, String name, List<String> command) {
        return client.pods().inNamespace(namespace).resource(new PodBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().withRestartPolicy("Never").withTerminationGracePeriodSeconds(0L).addNewContainer().withName("online")
                .withImage(KubeletNode.IMAGE).withImagePullPolicy("IfNotPresent").withCommand(command).withNewResources()
                .withRequests(Map.of("cpu", new Quantity("500m"), "memory", new Quantity("64Mi"))).endResources().endContainer()
                .endSpec().build()).create();
    }

    /** The kubelet's BE tier's CFS quota on this host (microseconds per 100 ms; -1: none), as the koordlet sets it. */
    static long beQuotaMicros() {
        try {
            return Long.parseLong(Files.readString(BE_QUOTA).trim());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
