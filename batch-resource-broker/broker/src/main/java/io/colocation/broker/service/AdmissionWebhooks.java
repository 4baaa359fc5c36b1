package io.colocation.broker.service;

import com.codahale.metrics.MetricRegistry;
import io.colocation.api.InvalidInputException;
import io.colocation.broker.admission.AdmissionWebhook;
import io.colocation.broker.webhook.PodMutation;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;

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
        if (w.renewBefore.toSeconds() >= w.validity.toSeconds()) {
            throw new IllegalArgumentException("webhook.renewBefore (" + w.renewBefore + ") must be shorter than webhook.validity ("
                    + w.validity + ")");
        }
        AdmissionWebhook.Certificates certificates = new AdmissionWebhook.Certificates("generate".equals(w.certificate),
                w.secretNamespace, w.secretName, w.hosts, w.configurationName, duration(w.caValidity), duration(w.validity),
                duration(w.renewBefore));
        return new AdmissionWebhook(kubernetes, new AdmissionWebhook.Settings(w.bindHost, w.port, certificates,
                duration(w.checkInterval), gates, Duration.ofSeconds(config.kubernetes.startupTimeoutSeconds)), metrics);
    }

    private static Duration duration(io.dropwizard.util.Duration d) {
        return Duration.ofMillis(d.toMilliseconds());
    }
}
