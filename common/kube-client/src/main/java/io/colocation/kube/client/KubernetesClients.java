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
        return new KubernetesClientBuilder().withConfig(config(kubeconfig, masterUrl)).build();
    }

    /**
     * The node agent's client: as {@link #create}, but no request is retried. Its loops ask again on their next round,
     * while fabric8 retries a 5xx ten times (about 20 s), which would hold the agent's QoS round through a broker outage,
     * when the node-agent webhook, failing closed, answers its writes with 500.
     */
    public static KubernetesClient createForNodeAgent(String kubeconfig, String masterUrl) throws IOException {
        return new KubernetesClientBuilder().withConfig(withoutRetries(config(kubeconfig, masterUrl))).build();
    }

    /** {@code config} with no request retried (the node agent's). */
    public static Config withoutRetries(Config config) {
        return new ConfigBuilder(config).withRequestRetryBackoffLimit(0).build();
    }

    private static Config config(String kubeconfig, String masterUrl) throws IOException {
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
        return config;
    }
}
