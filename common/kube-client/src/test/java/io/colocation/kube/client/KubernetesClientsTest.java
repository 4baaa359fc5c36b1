package io.colocation.kube.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KubernetesClientsTest {
    private static final String KUBECONFIG = """
            apiVersion: v1
            kind: Config
            clusters: [{name: c, cluster: {server: "https://10.0.0.1:6443", insecure-skip-tls-verify: true}}]
            users: [{name: u, user: {token: secret}}]
            contexts: [{name: x, context: {cluster: c, user: u}}]
            current-context: x
            """;

    @TempDir
    Path tmp;

    @Test
    void theKubeconfigNamesTheServerAndTheMasterUrlOverridesIt() throws Exception {
        Path file = tmp.resolve("kubeconfig");
        Files.writeString(file, KUBECONFIG);
        try (KubernetesClient c = KubernetesClients.create(file.toString(), "")) {
            assertEquals("https://10.0.0.1:6443/", c.getConfiguration().getMasterUrl());
        }
        try (KubernetesClient c = KubernetesClients.create(file.toString(), "https://127.0.0.1:8443")) {
            assertEquals("https://127.0.0.1:8443/", c.getConfiguration().getMasterUrl());
        }
    }

    @Test
    void aMissingKubeconfigIsNamed() {
        IOException e = assertThrows(IOException.class, () -> KubernetesClients.create(tmp.resolve("none").toString(), ""));
        assertEquals("kubernetes.kubeconfig " + tmp.resolve("none") + " is missing or unreadable", e.getMessage());
    }
}
