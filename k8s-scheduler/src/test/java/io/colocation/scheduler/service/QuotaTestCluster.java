package io.colocation.scheduler.service;

import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.scheduler.cli.K8sSchedulerCommand;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

/** What the ElasticQuota tests on a real kube-apiserver set up alike: the CRD, one quota per team, a node, the scheduler. */
final class QuotaTestCluster {
    static final String BATCH_CPU = "kubernetes.io/batch-cpu";

    private QuotaTestCluster() {
    }

    /** The CRD as shipped, and for each team a namespace and a quota named like it with min and max in batch milli-cores. */
    static void teams(KubernetesClient client, long minMilli, long maxMilli, String... teams) throws Exception {
        ColocationObjects.installCrd(client, Path.of("../conf/kubernetes/crds/scheduling.sigs.k8s.io_elasticquotas.yaml"),
                "scheduling.sigs.k8s.io/v1alpha1", "ElasticQuota");
        for (String team : teams) {
            ColocationObjects.namespace(client, team);
            client.genericKubernetesResources("scheduling.sigs.k8s.io/v1alpha1", "ElasticQuota").inNamespace(team)
                    .resource(new GenericKubernetesResourceBuilder().withApiVersion("scheduling.sigs.k8s.io/v1alpha1").withKind("ElasticQuota")
                            .withNewMetadata().withName(team).withNamespace(team).endMetadata()
                            .addToAdditionalProperties("spec", Map.of("min", Map.of(BATCH_CPU, String.valueOf(minMilli)),
                                    "max", Map.of(BATCH_CPU, String.valueOf(maxMilli))))
                            .build()).create();
        }
    }

    static void priorityClass(KubernetesClient client, String name, int value) {
        client.scheduling().v1().priorityClasses().resource(new PriorityClassBuilder().withNewMetadata().withName(name).endMetadata()
                .withValue(value).build()).create();
    }

    /** A Ready node of 16 cores with {@code batchMilli} batch milli-cores. */
    static void node(KubernetesClient client, String name, long batchMilli) {
        ColocationObjects.readyNode(client, name, Map.of("cpu", new Quantity("16"), "memory", new Quantity("64Gi"),
                "pods", new Quantity("110"), BATCH_CPU, new Quantity(String.valueOf(batchMilli))));
    }

    /**
     * The scheduler started with the profile koord-scheduler whose {@code plugins:} and {@code pluginConfig:} lines are
     * {@code profileLines} (indented under the profile), no leader election, short backoff.
     */
    static SchedulerService scheduler(KubernetesClient client, Path dir, String identity, String profileLines) throws Exception {
        Path profile = dir.resolve("scheduler.yaml");
        Files.writeString(profile, """
                apiVersion: kubescheduler.config.k8s.io/v1
                kind: KubeSchedulerConfiguration
                profiles:
                - schedulerName: koord-scheduler
                """ + profileLines.indent(2));
        SchedulerSettings config = new SchedulerSettings();
        config.leaderElection.enabled = false;
        config.backoffInitialSeconds = 0.2;
        config.backoffMaxSeconds = 1;
        config.profileFile = profile.toString();
        SchedulerService service = new SchedulerService(config, h -> K8sSchedulerCommand.profile(config, h), client, identity,
                Clock.systemUTC());
        service.start();
        return service;
    }

    /** Whether the pod exists and is bound to a node. */
    static boolean bound(KubernetesClient client, String namespace, String name) {
        io.fabric8.kubernetes.api.model.Pod p = client.pods().inNamespace(namespace).withName(name).get();
        return p != null && p.getSpec().getNodeName() != null;
    }

    /** Stops the scheduler (null: never started) and deletes what the test made: its teams' pods and namespaces, the node, priority classes. */
    static void tearDown(KubernetesClient client, SchedulerService service, String node, java.util.List<String> teams,
            String... priorityClasses) {
        if (service != null) {
            service.close();
        }
        for (String ns : teams) {
            client.pods().inNamespace(ns).withGracePeriod(0).delete();
            client.namespaces().withName(ns).delete();
        }
        client.nodes().withName(node).delete();
        for (String pc : priorityClasses) {
            client.scheduling().v1().priorityClasses().withName(pc).delete();
        }
    }
}
