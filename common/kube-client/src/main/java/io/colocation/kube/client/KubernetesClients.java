package io.colocation.kube.client;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The one way our parts build a Kubernetes client from their {@code kubernetes.kubeconfig} and {@code kubernetes.masterUrl}. */
public final class KubernetesClients {
    private KubernetesClients() {
    }

    /**
     * @param kubeconfig a kubeconfig file, or empty for the in-cluster service account, else ~/.kube/config
     * @param masterUrl  overrides the kubeconfig's API server URL when not empty
     * @throws IOException when the named kubeconfig cannot be read (the message names the setting and the file)
     */
    public static KubernetesClient create(String kubeconfig, String masterUrl) throws IOException {
        Config config;
        if (kubeconfig != null && !kubeconfig.isBlank()) {
            Path file = Path.of(kubeconfig);
            if (!Files.isReadable(file)) {
                throw new IOException("kubernetes.kubeconfig " + file + " is missing or unreadable");
            }
            config = Config.fromKubeconfig(Files.readString(file));
        } else {
            config = Config.autoConfigure(null);
        }
        if (masterUrl != null && !masterUrl.isBlank()) {
            config = new ConfigBuilder(config).withMasterUrl(masterUrl).build();
        }
        return new KubernetesClientBuilder().withConfig(config).build();
    }
}
