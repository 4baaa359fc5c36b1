package io.colocation.broker.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import io.colocation.broker.admission.AdmissionWebhook;
import io.colocation.localclusters.kube.ColocationObjects;
import io.colocation.testsupport.Await;
import io.colocation.testsupport.kube.KubeApiServerExtension;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MutatingWebhookConfiguration;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The probe's quiet-cluster lockout (issue 64), through a real kube-apiserver 1.20: the webhook closes idle connections
 * after 120 ms here (10 s as shipped) and allows 4 per address, so each pod created 260 ms after the last comes on a new
 * connection from the API server's address (the margin is for a loaded host: a connection the API server reuses just as
 * the webhook closes it would fail that call). Before the fix the fifth reconnect found the address at its limit for
 * good: pods in {@code enabled} namespaces were created unconverted and pods in {@code required} ones refused. Here over
 * a thousand reconnects, with bare TCP connects and aborted handshakes from the API server's own address (127.0.0.1, as
 * a hostNetwork pod on a control-plane node has) between them, leave every pod converted and none refused.
 */
@ExtendWith(KubeApiServerExtension.class)
class AdmissionReconnectSoakTest {
    private static final String MUTATING = "soak-pod-mutating";
    private static final String ENABLED = "soak-enabled";
    private static final String REQUIRED = "soak-required";
    private static final int PODS = 1_010;

    @Test
    void overAThousandReconnectsLeaveAdmissionOn(KubernetesClient client) throws Exception {
        ColocationObjects.installAdminObjects(client, Path.of("../../conf"), List.of("koordinator-system", "hardening-system"), Map.of());
        AdmissionHardeningTest.namespace(client, ENABLED, Map.of("colocation.io/profile-admission", "enabled", "soak", "yes"));
        AdmissionHardeningTest.namespace(client, REQUIRED, Map.of("colocation.io/profile-admission", "required", "soak", "yes"));
        MetricRegistry metrics = new MetricRegistry();
        AdmissionWebhook webhook = AdmissionHardeningTest.webhook(client, MUTATING, "", null, 4, Duration.ofMillis(120), metrics);
        GenericKubernetesResource profile = AdmissionHardeningTest.profile(client, "soak",
                "{namespaceSelector: {matchLabels: {soak: 'yes'}}, qosClass: BE, priorityClassName: koord-batch, schedulerName: koord-scheduler}");
        try {
            MutatingWebhookConfiguration m = (MutatingWebhookConfiguration) AdmissionHardeningTest.shipped(client, webhook.port(), MUTATING,
                    "unused").get(0);
            m.getWebhooks().removeIf(w -> !w.getName().startsWith("mpod-create"));
            assertEquals(2, m.getWebhooks().size(), "the enabled and the required pod webhooks");
            client.resource(m).create();
            Await.until(Duration.ofSeconds(20), () -> client.admissionRegistration().v1().mutatingWebhookConfigurations()
                    .withName(MUTATING).get().getWebhooks().get(0).getClientConfig().getCaBundle() != null);
            Await.until(Duration.ofSeconds(20), () -> AdmissionHardeningTest.converted(
                    AdmissionHardeningTest.pod(client, ENABLED, "soak-first-" + System.nanoTime(), 1, "100m")));
            long acceptedBefore = gauge(metrics, "colocation.webhook.connections-accepted");
            for (int i = 0; i < PODS; i++) {
                Thread.sleep(260); // longer than the idle timeout: the API server's connection is gone, the next create reconnects
                if (i % 50 == 0) {
                    fromTheApiServersAddress(webhook.port());
                }
                String namespace = i % 2 == 0 ? ENABLED : REQUIRED;
                Pod p = AdmissionHardeningTest.pod(client, namespace, "soak-" + i, 1, "100m");
                assertTrue(AdmissionHardeningTest.converted(p), "pod " + i + " in " + namespace + " converted");
                client.pods().inNamespace(namespace).withName(p.getMetadata().getName()).withGracePeriod(0).delete();
            }
            long reconnects = gauge(metrics, "colocation.webhook.connections-accepted") - acceptedBefore;
            assertTrue(reconnects >= 1_000, reconnects + " connections accepted");
            assertEquals(0, gauge(metrics, "colocation.webhook.connections-refused"), "no connection refused");
        } finally {
            client.admissionRegistration().v1().mutatingWebhookConfigurations().withName(MUTATING).delete();
            client.resource(profile).delete();
            for (String ns : List.of(ENABLED, REQUIRED)) {
                client.pods().inNamespace(ns).withGracePeriod(0).delete();
            }
            webhook.stop();
        }
    }

    /** Two bare TCP connects and a handshake cut short, from 127.0.0.1, each closed at once. */
    private static void fromTheApiServersAddress(int port) throws Exception {
        for (int i = 0; i < 3; i++) {
            try (Socket s = new Socket()) {
                s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                s.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
                if (i == 2) {
                    OutputStream out = s.getOutputStream();
                    out.write(new byte[] {0x16, 0x03, 0x01, 0x00, 0x05, 0x01});
                    out.flush();
                }
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static long gauge(MetricRegistry metrics, String name) {
        return ((Gauge<Long>) metrics.getGauges().get(name)).getValue();
    }
}
