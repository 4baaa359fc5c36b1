package io.colocation.broker.kube;

import io.colocation.api.InvalidInputException;
import io.colocation.kube.client.ApiErrors;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Base64;
import java.util.function.Supplier;

/**
 * A secret value the broker's replicas share through a Secret of their namespace: read, or generated into it when it
 * does not hold one (the Secret created when absent; replicas racing to write it lose on the name or the
 * resourceVersion and read the winner's). The broker generates its own secrets rather than its chart, so that a
 * rendering ({@code helm template}, GitOps, the kustomize kit) neither needs the cluster nor rotates them: the chart
 * ships the Secret empty (so uninstalling removes it), and an apply or an upgrade leaves alone data it never set.
 * Rotating one is deleting the Secret (or its key) and restarting the replicas.
 */
public final class GeneratedSecret {
    private GeneratedSecret() {
    }

    /**
     * @param what what the value is, for errors ("the node-agent key")
     * @param minBytes the fewest bytes a usable value has
     * @return the value's bytes (decoded from the Secret's data)
     * @throws InvalidInputException when the Secret cannot be read or written, or holds no usable value
     */
    public static byte[] readOrCreate(KubernetesClient client, String namespace, String name, String dataKey, String what, int minBytes,
            Supplier<byte[]> generator) throws InvalidInputException {
        String ref = namespace + "/" + name;
        try {
            for (int attempt = 0; attempt < 3; attempt++) {
                Secret secret = client.secrets().inNamespace(namespace).withName(name).get();
                String held = secret == null || secret.getData() == null ? null : secret.getData().get(dataKey);
                if (held != null && !held.isEmpty()) {
                    byte[] value = Base64.getMimeDecoder().decode(held);
                    if (value.length < minBytes) {
                        throw new InvalidInputException("Secret " + ref + " holds no " + what + " of " + minBytes + " bytes or more under '"
                                + dataKey + "' (delete the key: a replica generates a new one)");
                    }
                    return value;
                }
                byte[] value = generator.get();
                String encoded = Base64.getEncoder().encodeToString(value);
                try {
                    if (secret == null) {
                        client.secrets().inNamespace(namespace).resource(new SecretBuilder().withNewMetadata().withName(name)
                                .withNamespace(namespace).addToLabels("app.kubernetes.io/managed-by", "colocation-broker").endMetadata()
                                .withType("Opaque").addToData(dataKey, encoded).build()).create();
                    } else {
                        // the read's resourceVersion: a replica that wrote meanwhile wins, and this one reads its value
                        client.secrets().inNamespace(namespace).resource(new SecretBuilder(secret).addToData(dataKey, encoded).build()).update();
                    }
                    return value;
                } catch (KubernetesClientException e) {
                    if (e.getCode() != 409) {
                        throw e;
                    }
                    // another replica wrote it first: read theirs
                }
            }
            throw new InvalidInputException("Secret " + ref + " kept changing while this replica read it");
        } catch (KubernetesClientException e) {
            throw new InvalidInputException("cannot read or create Secret " + ref + " (" + what + "): " + ApiErrors.describe(e));
        }
    }
}
