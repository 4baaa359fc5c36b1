package io.colocation.broker.admission;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import io.colocation.api.InvalidInputException;
import io.colocation.broker.nodeagent.ApiServerPods;
import io.colocation.broker.nodeagent.NodeAgentReviews;
import io.colocation.broker.nodeagent.ReleaseProof;
import io.colocation.broker.quota.ApiServerQuotas;
import io.colocation.broker.quota.QuotaReviews;
import io.colocation.broker.webhook.AdmissionReviews;
import io.colocation.broker.webhook.PodMutation;
import io.colocation.broker.webhook.ProfileReviews;
import io.colocation.helpers.concurrent.Daemons;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The broker's admission webhooks as one part of a broker replica, leader or not (admission must not wait for an
 * election): the ClusterColocationProfile pod-mutating webhook ({@value #MUTATE_POD}), the profiles' validating webhook
 * ({@value #VALIDATE_PROFILE}), the ElasticQuotas' validating webhook ({@value #VALIDATE_QUOTA}) and, when configured, the node agent's restriction ({@value #NODE_AGENT}); the informers
 * they read, the HTTPS server, and the certificate kept current every {@code checkInterval}. Lifecycle: {@link #start} (fails with one line when the CRD, the Secret or the port is missing),
 * then {@link #stop}.
 */
public final class AdmissionWebhook {
    private static final Logger LOG = LoggerFactory.getLogger(AdmissionWebhook.class);
    /** The pod-mutating webhook's path (Koordinator's). */
    public static final String MUTATE_POD = "/mutate-pod";
    /** The ClusterColocationProfile validating webhook's path. */
    public static final String VALIDATE_PROFILE = "/validate-profile";
    /** The ElasticQuota validating webhook's path. */
    public static final String VALIDATE_QUOTA = "/validate-elasticquota";
    /** The node restriction of the node agent (a mutating webhook: it stamps the releases it allows). */
    public static final String NODE_AGENT = "/node-agent";

    /**
     * Everything the webhook is told.
     *
     * @param clientCaPem             PEM certificates that issue the API server's client certificate; null: none is asked
     * @param clientNames             the CNs a client certificate may carry (empty: any the CA issued)
     * @param maxConnectionsPerClient open connections one address may hold
     * @param idleTimeout             how long a connection may stay idle before the webhook closes it
     */
    public record Settings(String bindHost, int port, Certificates certificates, Duration checkInterval, PodMutation.Gates gates,
            Duration startupTimeout, String clientCaPem, java.util.Set<String> clientNames, int maxConnectionsPerClient,
            Duration idleTimeout, NodeAgent nodeAgent) {
    }

    /**
     * The node restriction ({@code /node-agent}); null: not served.
     *
     * @param serviceAccounts the node agent's service accounts, {@code namespace:name}
     * @param proof           stamps the releases the node's own agent writes
     */
    public record NodeAgent(java.util.Set<String> serviceAccounts, ReleaseProof proof) {
    }

    /**
     * Where the certificate lives and, when the broker generates it ({@code generate}), for which hosts and how long it
     * lasts; {@code configurationName} is the MutatingWebhookConfiguration and {@code validatingConfigurationName} the
     * ValidatingWebhookConfiguration whose caBundles are kept current.
     */
    public record Certificates(boolean generate, String namespace, String secretName, java.util.List<String> hosts,
            String configurationName, String validatingConfigurationName, Duration caValidity, Duration validity,
            Duration renewBefore) {
    }

    private final KubernetesClient client;
    private final Settings settings;
    private final MetricRegistry metrics;
    private InformedCluster cluster;
    private WebhookServer server;
    private ScheduledExecutorService timer;
    private volatile String serving = "";

    public AdmissionWebhook(KubernetesClient client, Settings settings, MetricRegistry metrics) {
        this.client = client;
        this.settings = settings;
        this.metrics = metrics;
    }

    public void start() {
        CertificateKeeper keeper = new CertificateKeeper(client, settings.certificates(), Clock.systemUTC());
        ServingCertificate first;
        java.security.KeyStore keyStore;
        try {
            first = keeper.refresh();
            keyStore = first.keyStore("Secret " + keeper.secretRef());
            cluster = InformedCluster.start(client, settings.startupTimeout());
        } catch (InvalidInputException | TimeoutException e) {
            throw new IllegalStateException("webhook: " + e.getMessage(), e);
        }
        WebhookServer.ClientAuth clientAuth = null;
        if (settings.clientCaPem() != null) {
            try {
                clientAuth = new WebhookServer.ClientAuth(ServingCertificate.certificates(settings.clientCaPem(), "webhook.clientAuth.caFile"),
                        settings.clientNames());
            } catch (InvalidInputException e) {
                throw new IllegalStateException("webhook: " + e.getMessage(), e);
            }
        }
        Map<String, WebhookServer.Reviewer> reviewers = new java.util.LinkedHashMap<>();
        reviewers.put(MUTATE_POD, body -> {
            AdmissionReviews.Answer a = AdmissionReviews.answer(body, cluster, settings.gates(), () -> ThreadLocalRandom.current().nextInt(100));
            record(a);
            return a.review();
        });
        reviewers.put(VALIDATE_PROFILE, body -> {
            ProfileReviews.Answer a = ProfileReviews.answer(body, cluster);
            record(a);
            return a.review();
        });
        ApiServerQuotas quotas = new ApiServerQuotas(client);
        reviewers.put(VALIDATE_QUOTA, body -> {
            QuotaReviews.Answer a = QuotaReviews.answer(body, quotas);
            record(a);
            return a.review();
        });
        NodeAgent nodeAgent = settings.nodeAgent();
        if (nodeAgent != null) {
            ApiServerPods pods = new ApiServerPods(client, Clock.systemUTC());
            reviewers.put(NODE_AGENT, body -> {
                NodeAgentReviews.Answer a = NodeAgentReviews.answer(body, nodeAgent.serviceAccounts(), pods, nodeAgent.proof());
                record(a);
                return a.review();
            });
        }
        server = new WebhookServer(settings.bindHost(), settings.port(), keyStore, clientAuth, settings.maxConnectionsPerClient(),
                settings.idleTimeout(), reviewers);
        WebhookServer started = server;
        metrics.gauge(MetricRegistry.name("colocation", "webhook", "connections-refused"),
                () -> (Gauge<Long>) started::refusedConnections);
        metrics.gauge(MetricRegistry.name("colocation", "webhook", "connections-accepted"),
                () -> (Gauge<Long>) started::acceptedConnections);
        try {
            server.start();
        } catch (Exception e) {
            throw new IllegalStateException("webhook: cannot serve HTTPS on " + settings.bindHost() + ":" + settings.port() + ": "
                    + e.getMessage(), e);
        }
        serving = first.certificatePem();
        LOG.info("webhook serving POST {} on https://{}:{} (certificate from Secret {}, valid until {}; {})", reviewers.keySet(),
                settings.bindHost(), server.port(), keeper.secretRef(), expiry(first), clientAuth == null
                        ? "no client certificate asked" : "the API server's client certificate required"
                                + (settings.clientNames().isEmpty() ? "" : ", CN one of " + settings.clientNames()));
        timer = Executors.newSingleThreadScheduledExecutor(Daemons.named("webhook-certificate"));
        Daemons.every(timer, settings.checkInterval().toMillis(), () -> check(keeper),
                e -> LOG.warn("webhook certificate check failed: {}", e.toString()));
    }

    private void check(CertificateKeeper keeper) {
        try {
            ServingCertificate now = keeper.refresh();
            if (!now.certificatePem().equals(serving)) {
                server.useCertificate(now.keyStore("Secret " + keeper.secretRef()));
                serving = now.certificatePem();
                LOG.info("webhook now serves the certificate of Secret {}, valid until {}", keeper.secretRef(), expiry(now));
            }
        } catch (Exception e) {
            // The certificate served so far stays; the next check tries again.
            LOG.warn("webhook certificate not refreshed: {}", e.getMessage());
        }
    }

    private static String expiry(ServingCertificate c) {
        try {
            return c.notAfter().toString();
        } catch (InvalidInputException e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }

    private void record(NodeAgentReviews.Answer a) {
        metrics.meter(MetricRegistry.name("colocation", "webhook", "node-agent", a.decision().replace(' ', '-'))).mark();
        if (a.decision().equals("refused")) {
            LOG.warn("node agent {} refused: {}", a.agent(), a.message());
        } else if (!a.message().isEmpty()) {
            LOG.debug("node agent {}: {}", a.agent(), a.message());
        }
    }

    private void record(QuotaReviews.Answer a) {
        metrics.meter(MetricRegistry.name("colocation", "webhook", "elasticquota", a.decision().replace(' ', '-'))).mark();
        if (a.decision().equals("refused")) {
            LOG.warn("ElasticQuota {} refused: {}", a.quota(), a.message());
        } else if (!a.message().isEmpty()) {
            LOG.info("ElasticQuota {} allowed with a warning: {}", a.quota(), a.message());
        }
    }

    private void record(ProfileReviews.Answer a) {
        metrics.meter(MetricRegistry.name("colocation", "webhook", "profile", a.decision().replace(' ', '-'))).mark();
        switch (a.decision()) {
            case "refused" -> LOG.warn("ClusterColocationProfile {} refused: {}", a.profile(), a.message());
            case "allowed" -> {
                if (!a.message().isEmpty()) {
                    LOG.info("ClusterColocationProfile {} allowed with a warning: {}", a.profile(), a.message());
                }
            }
            default -> {
            }
        }
    }

    private void record(AdmissionReviews.Answer a) {
        metrics.meter(MetricRegistry.name("colocation", "webhook", a.decision().replace(' ', '-'))).mark();
        switch (a.decision()) {
            case "mutated" -> LOG.info("pod {} mutated: {}{}", a.pod(), a.message(), a.notes().isEmpty() ? "" : " " + a.notes());
            case "denied" -> LOG.warn("pod {} refused: {}", a.pod(), a.message());
            default -> {
                if (!a.notes().isEmpty()) {
                    LOG.info("pod {} unchanged: {}", a.pod(), a.notes());
                }
            }
        }
    }

    /** The HTTPS port, once started. */
    public int port() {
        return server.port();
    }

    /** Whether the webhook can answer from a current view of the cluster. */
    public boolean healthy() {
        return cluster != null && cluster.watching();
    }

    public void stop() {
        if (timer != null) {
            Daemons.stop(5, timer);
        }
        try {
            if (server != null) {
                server.stop();
            }
        } catch (Exception e) {
            LOG.warn("webhook server did not stop cleanly: {}", e.toString());
        }
        if (cluster != null) {
            cluster.close();
        }
    }
}
