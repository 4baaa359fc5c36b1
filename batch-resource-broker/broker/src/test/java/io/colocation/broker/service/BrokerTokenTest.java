package io.colocation.broker.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.api.InvalidInputException;
import io.colocation.testsupport.kube.KubeApiServerExtension;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** auth.mode token on the real API server: the configured token, or one kept in a Secret the first replica creates. */
@ExtendWith(KubeApiServerExtension.class)
class BrokerTokenTest {
    private static final String NS = "broker-token-test";

    @BeforeAll
    static void namespace(KubernetesClient client) {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NS).endMetadata().build()).serverSideApply();
    }

    private static BrokerConfiguration.AuthSettings auth(String token, String secretName) {
        BrokerConfiguration.AuthSettings auth = new BrokerConfiguration.AuthSettings();
        auth.token = token;
        auth.tokenSecretName = secretName;
        auth.tokenSecretNamespace = NS;
        return auth;
    }

    @Test
    void theConfiguredTokenWinsAndNoSecretIsWritten(KubernetesClient client) throws Exception {
        assertEquals("a-configured-token-of-enough-length", BrokerToken.resolve(auth(" a-configured-token-of-enough-length ", "unused"), client));
        assertNull(client.secrets().inNamespace(NS).withName("unused").get());
    }

    @Test
    void replicasStartingTogetherShareTheOneTheFirstCreated(KubernetesClient client) throws Exception {
        ExecutorService replicas = Executors.newFixedThreadPool(4);
        try {
            Callable<String> start = () -> BrokerToken.resolve(auth("", "shared-token"), client);
            Set<String> tokens = new HashSet<>();
            for (Future<String> f : replicas.invokeAll(List.of(start, start, start, start))) {
                tokens.add(f.get());
            }
            assertEquals(1, tokens.size(), tokens.toString());
            String token = tokens.iterator().next();
            assertTrue(token.matches("[A-Za-z0-9_-]{43}"), token);
            Secret secret = client.secrets().inNamespace(NS).withName("shared-token").get();
            assertEquals("colocation-broker", secret.getMetadata().getLabels().get("app.kubernetes.io/managed-by"));
            assertEquals(token, BrokerToken.resolve(auth(null, "shared-token"), client), "a restart keeps it");
        } finally {
            replicas.shutdownNow();
        }
    }

    /** The chart ships the Secret with no data, so that uninstalling removes it: the first replica fills it in. */
    @Test
    void theEmptySecretTheChartShipsIsFilledAndKept(KubernetesClient client) throws Exception {
        client.secrets().inNamespace(NS).resource(new SecretBuilder().withNewMetadata().withName("chart-token")
                .addToLabels("app.kubernetes.io/managed-by", "Helm").endMetadata().withType("Opaque").build()).create();
        String token = BrokerToken.resolve(auth("", "chart-token"), client);
        Secret secret = client.secrets().inNamespace(NS).withName("chart-token").get();
        assertEquals("Helm", secret.getMetadata().getLabels().get("app.kubernetes.io/managed-by"), "the chart's Secret, not a new one");
        assertEquals(token, new String(java.util.Base64.getDecoder().decode(secret.getData().get("token")), java.nio.charset.StandardCharsets.UTF_8));
        assertEquals(token, BrokerToken.resolve(auth("", "chart-token"), client));
    }

    @Test
    void aSecretWithTooShortATokenIsNamed(KubernetesClient client) {
        client.secrets().inNamespace(NS).resource(new SecretBuilder().withNewMetadata().withName("short-token").endMetadata()
                .addToStringData("token", "short").build()).create();
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> BrokerToken.resolve(auth("", "short-token"), client));
        assertTrue(e.getMessage().contains("Secret " + NS + "/short-token holds no broker token of 16 bytes or more under 'token'")
                && e.getMessage().contains("delete the key"), e.getMessage());
    }

    @Test
    void neitherATokenNorASecretIsRefusedNamingBoth(KubernetesClient client) {
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> BrokerToken.resolve(auth(null, ""), client));
        assertTrue(e.getMessage().contains("auth.token") && e.getMessage().contains("auth.tokenSecretName"), e.getMessage());
    }
}
