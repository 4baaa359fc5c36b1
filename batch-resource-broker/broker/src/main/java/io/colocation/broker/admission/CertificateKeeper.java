package io.colocation.broker.admission;

import io.colocation.api.InvalidInputException;
import io.colocation.kube.client.ApiErrors;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfig;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.util.function.Function;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the webhook's certificate and the API server's trust in it current, from any number of broker replicas at once
 * (the pattern of cert-manager's CA injector and OPA's cert-controller). The Secret is the one source: every replica
 * serves what it holds. Generating, a replica creates the Secret when there is none and renews the serving certificate
 * from the same CA before it expires, so the caBundle the API server trusts does not change; replicas racing to do
 * either lose on the Secret's resourceVersion and read the winner's. Either way the caBundles of the named
 * MutatingWebhookConfiguration and ValidatingWebhookConfiguration are kept equal to the Secret's {@code ca.crt}.
 */
final class CertificateKeeper {
    private static final Logger LOG = LoggerFactory.getLogger(CertificateKeeper.class);

    private final KubernetesClient client;
    private final AdmissionWebhook.Certificates settings;
    private final Clock clock;
    private String configurationState = "";

    CertificateKeeper(KubernetesClient client, AdmissionWebhook.Certificates settings, Clock clock) {
        this.client = client;
        this.settings = settings;
        this.clock = clock;
    }

    String secretRef() {
        return settings.namespace() + "/" + settings.secretName();
    }

    /**
     * The certificate to serve now: read from the Secret, created or renewed there first when generating; then the
     * caBundle made current.
     *
     * @throws InvalidInputException the Secret is missing or unreadable and this replica may not write it
     */
    ServingCertificate refresh() throws InvalidInputException {
        ServingCertificate current = settings.generate() ? generated() : given();
        if (current.caBundlePem() != null) {
            injectCaBundle(current.caBundlePem());
        }
        return current;
    }

    private ServingCertificate given() throws InvalidInputException {
        Secret secret = secret();
        if (secret == null) {
            throw new InvalidInputException("Secret " + secretRef() + " not found (webhook.certificate: secret expects a Secret with "
                    + ServingCertificate.TLS_CRT + " and " + ServingCertificate.TLS_KEY + ", for example from cert-manager)");
        }
        return ServingCertificate.fromSecretData(decoded(secret), secretRef());
    }

    private ServingCertificate generated() throws InvalidInputException {
        for (int attempt = 0; attempt < 3; attempt++) {
            Secret secret = secret();
            ServingCertificate held = null;
            // the chart ships the Secret empty: nothing to read yet, nothing to warn about
            if (secret != null && secret.getData() != null && !secret.getData().isEmpty()) {
                try {
                    held = ServingCertificate.fromSecretData(decoded(secret), secretRef());
                } catch (InvalidInputException e) {
                    LOG.warn("{}; generating a new CA and certificate", e.getMessage());
                }
            }
            if (held != null && held.caKeyPem() != null && !held.needsRenewal(settings.hosts(), clock.instant(), settings.renewBefore())) {
                return held;
            }
            ServingCertificate next = next(held);
            try {
                if (secret == null) {
                    client.secrets().inNamespace(settings.namespace()).resource(secretOf(next, null)).create();
                    LOG.info("webhook certificate generated in Secret {} for {}, valid until {}", secretRef(), settings.hosts(),
                            next.notAfter());
                } else {
                    client.secrets().inNamespace(settings.namespace()).resource(secretOf(next, secret)).update();
                    LOG.info("webhook certificate renewed in Secret {} for {}, valid until {}", secretRef(), settings.hosts(),
                            next.notAfter());
                }
                return next;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409) {
                    throw new InvalidInputException("cannot write Secret " + secretRef() + ": " + ApiErrors.describe(e));
                }
                // Another replica wrote it first: read theirs.
            }
        }
        throw new InvalidInputException("Secret " + secretRef() + " kept changing while this replica renewed it");
    }

    /** The same CA while it stays valid past the next certificate's renewal; else a new CA (a caBundle change). */
    private ServingCertificate next(ServingCertificate held) throws InvalidInputException {
        Duration validity = settings.validity();
        if (held != null && held.caKeyPem() != null) {
            java.time.Instant caExpiry = ServingCertificate.certificates(held.caBundlePem(), ServingCertificate.CA_CRT).get(0)
                    .getNotAfter().toInstant();
            if (caExpiry.isAfter(clock.instant().plus(validity))) {
                return held.renewed(settings.hosts(), clock.instant(), validity);
            }
        }
        return ServingCertificate.generate(settings.hosts(), clock.instant(), settings.caValidity(), validity);
    }

    private Secret secretOf(ServingCertificate c, Secret existing) {
        Map<String, String> data = new LinkedHashMap<>();
        c.secretData().forEach((k, v) -> data.put(k, Base64.getEncoder().encodeToString(v.getBytes(StandardCharsets.US_ASCII))));
        SecretBuilder b = existing == null
                ? new SecretBuilder().withNewMetadata().withNamespace(settings.namespace()).withName(settings.secretName())
                        .addToLabels("app.kubernetes.io/managed-by", "colocation-broker").endMetadata()
                : new SecretBuilder(existing);
        // a Secret's type cannot change: one the chart made (Opaque) stays so
        return b.withType(existing == null ? "kubernetes.io/tls" : existing.getType()).withData(data).build();
    }

    private Secret secret() throws InvalidInputException {
        try {
            return client.secrets().inNamespace(settings.namespace()).withName(settings.secretName()).get();
        } catch (KubernetesClientException e) {
            throw new InvalidInputException("cannot read Secret " + secretRef() + ": " + ApiErrors.describe(e));
        }
    }

    private static Map<String, String> decoded(Secret secret) {
        Map<String, String> out = new LinkedHashMap<>();
        if (secret.getData() != null) {
            secret.getData().forEach((k, v) -> out.put(k, new String(Base64.getMimeDecoder().decode(v), StandardCharsets.US_ASCII)));
        }
        return out;
    }

    /** Every webhook of both configurations trusts the bundle; a missing configuration is logged once, then retried. */
    private void injectCaBundle(String bundlePem) {
        String caBundle = Base64.getEncoder().encodeToString(bundlePem.getBytes(StandardCharsets.US_ASCII));
        List<String> states = new ArrayList<>();
        boolean problem = !inject("MutatingWebhookConfiguration", settings.configurationName(),
                client.admissionRegistration().v1().mutatingWebhookConfigurations(),
                c -> c.getWebhooks().stream().map(MutatingWebhook::getClientConfig).toList(), caBundle, states);
        String validating = settings.validatingConfigurationName();
        if (validating != null && !validating.isEmpty()) {
            problem |= !inject("ValidatingWebhookConfiguration", validating,
                    client.admissionRegistration().v1().validatingWebhookConfigurations(),
                    c -> c.getWebhooks().stream().map(ValidatingWebhook::getClientConfig).toList(), caBundle, states);
        }
        String state = String.join("; ", states);
        if (!state.equals(configurationState)) {
            if (problem) {
                LOG.warn("{}", state);
            } else {
                LOG.info("{}", state);
            }
            configurationState = state;
        }
    }

    /** Sets the bundle on every webhook of one configuration; false (and why in {@code states}) when it cannot. */
    private <T extends HasMetadata> boolean inject(String kind, String name, NonNamespaceOperation<T, ?, ? extends Resource<T>> configs,
            Function<T, List<WebhookClientConfig>> clientConfigs, String caBundle, List<String> states) {
        try {
            T config = configs.withName(name).get();
            if (config == null) {
                states.add(kind + " " + name + " not found: the API server does not call that webhook yet (conf/kubernetes/webhook.yaml"
                        + " installs it)");
                return false;
            }
            List<WebhookClientConfig> all = clientConfigs.apply(config);
            if (all.stream().allMatch(c -> Objects.equals(caBundle, c.getCaBundle()))) {
                states.add("caBundle of " + kind + " " + name + " is current");
            } else {
                all.forEach(c -> c.setCaBundle(caBundle));
                configs.resource(config).update();
                states.add("caBundle of " + kind + " " + name + " set from Secret " + secretRef());
            }
            return true;
        } catch (KubernetesClientException e) {
            states.add("cannot update the caBundle of " + kind + " " + name + ": " + ApiErrors.describe(e));
            return false;
        }
    }
}
