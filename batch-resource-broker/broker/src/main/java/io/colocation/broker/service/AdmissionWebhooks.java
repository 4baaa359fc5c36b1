package io.colocation.broker.service;

import com.codahale.metrics.MetricRegistry;
import io.colocation.api.InvalidInputException;
import io.colocation.broker.admission.AdmissionWebhook;
import io.colocation.broker.nodeagent.NodeAgentKey;
import io.colocation.broker.nodeagent.ReleaseProof;
import io.colocation.broker.webhook.PodMutation;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

/** broker.yml's {@code webhook} section turned into the webhook's settings. */
final class AdmissionWebhooks {
    private AdmissionWebhooks() {
    }

    static AdmissionWebhook of(BrokerConfiguration config, KubernetesClient kubernetes, MetricRegistry metrics) {
        BrokerConfiguration.WebhookSettings w = config.webhook;
        PodMutation.Gates gates;
        try {
            gates = PodMutation.Gates.parse(w.featureGates);
        } catch (InvalidInputException e) {
            throw new IllegalArgumentException("webhook.featureGates: " + e.getMessage());
        }
        if (w.idleTimeout.toMilliseconds() < 100) {
            throw new IllegalArgumentException("webhook.idleTimeout (" + w.idleTimeout + ") must be at least 100ms");
        }
        if (w.renewBefore.toSeconds() >= w.validity.toSeconds()) {
            throw new IllegalArgumentException("webhook.renewBefore (" + w.renewBefore + ") must be shorter than webhook.validity ("
                    + w.validity + ")");
        }
        AdmissionWebhook.Certificates certificates = new AdmissionWebhook.Certificates("generate".equals(w.certificate),
                w.secretNamespace, w.secretName, w.hosts, w.configurationName, w.validatingConfigurationName, duration(w.caValidity),
                duration(w.validity), duration(w.renewBefore));
        String clientCa = null;
        if (!w.clientAuth.caFile.isBlank()) {
            try {
                clientCa = Files.readString(Path.of(w.clientAuth.caFile));
            } catch (IOException e) {
                throw new IllegalArgumentException("webhook.clientAuth.caFile: cannot read " + w.clientAuth.caFile + ": " + e.getMessage());
            }
        } else if (!w.clientAuth.names.isEmpty()) {
            throw new IllegalArgumentException("webhook.clientAuth.names needs webhook.clientAuth.caFile: a name is checked on a"
                    + " certificate the CA issued");
        }
        AdmissionWebhook.NodeAgent nodeAgent = config.nodeAgent.restricted
                ? new AdmissionWebhook.NodeAgent(serviceAccounts(config.nodeAgent), releaseProof(config, kubernetes)) : null;
        return new AdmissionWebhook(kubernetes, new AdmissionWebhook.Settings(w.bindHost, w.port, certificates,
                duration(w.checkInterval), gates, Duration.ofSeconds(config.kubernetes.startupTimeoutSeconds), clientCa,
                Set.copyOf(w.clientAuth.names), w.maxConnectionsPerClient, duration(w.idleTimeout), nodeAgent), metrics);
    }

    /** nodeAgent.serviceAccounts, each {@code namespace:name}. */
    static Set<String> serviceAccounts(BrokerConfiguration.NodeAgentSettings n) {
        for (String sa : n.serviceAccounts) {
            if (!sa.matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?:[a-z0-9]([-.a-z0-9]*[a-z0-9])?")) {
                throw new IllegalArgumentException("nodeAgent.serviceAccounts: '" + sa + "' is not namespace:name of a ServiceAccount");
            }
        }
        return Set.copyOf(n.serviceAccounts);
    }

    /** The key of the yarn-release stamps, shared by the replicas through nodeAgent's Secret. */
    static ReleaseProof releaseProof(BrokerConfiguration config, KubernetesClient kubernetes) {
        try {
            return NodeAgentKey.load(kubernetes, config.nodeAgent.keySecretNamespace, config.nodeAgent.keySecretName);
        } catch (InvalidInputException e) {
            throw new IllegalStateException("nodeAgent: " + e.getMessage(), e);
        }
    }

    private static Duration duration(io.dropwizard.util.Duration d) {
        return Duration.ofMillis(d.toMilliseconds());
    }
}
