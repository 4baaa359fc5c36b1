package io.colocation.broker.nodeagent;

import io.colocation.api.InvalidInputException;
import io.colocation.kube.client.ApiErrors;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The key of the {@link ReleaseProof}s, shared by every broker replica through a Secret of its namespace: read, or
 * created with 32 random bytes when there is none (replicas racing to create it lose on the name and read the
 * winner's). Rotating it (deleting the Secret and restarting the replicas) makes the releases stamped before
 * unverifiable; the koordlet writes a new one while it still needs it.
 */
public final class NodeAgentKey {
    static final String DATA_KEY = "key";
    private static final int BYTES = 32;

    private NodeAgentKey() {
    }

    /** @throws InvalidInputException when the Secret cannot be read or written, or holds no usable key */
    public static ReleaseProof load(KubernetesClient client, String namespace, String name) throws InvalidInputException {
        String ref = namespace + "/" + name;
        try {
            for (int attempt = 0; attempt < 3; attempt++) {
                Secret secret = client.secrets().inNamespace(namespace).withName(name).get();
                if (secret != null) {
                    String data = secret.getData() == null ? null : secret.getData().get(DATA_KEY);
                    byte[] key = data == null ? new byte[0] : Base64.getMimeDecoder().decode(data);
                    if (key.length < BYTES) {
                        throw new InvalidInputException("Secret " + ref + " holds no node-agent key of " + BYTES + " bytes or more under '"
                                + DATA_KEY + "' (delete it: a replica creates a new one)");
                    }
                    return new ReleaseProof(key);
                }
                byte[] key = new byte[BYTES];
                new SecureRandom().nextBytes(key);
                try {
                    client.secrets().inNamespace(namespace).resource(new SecretBuilder().withNewMetadata().withName(name)
                            .withNamespace(namespace).addToLabels("app.kubernetes.io/managed-by", "colocation-broker").endMetadata()
                            .withType("Opaque").addToData(DATA_KEY, Base64.getEncoder().encodeToString(key)).build()).create();
                    return new ReleaseProof(key);
                } catch (KubernetesClientException e) {
                    if (e.getCode() != 409) {
                        throw e;
                    }
                    // another replica created it first: read theirs
                }
            }
            throw new InvalidInputException("Secret " + ref + " kept changing while this replica read it");
        } catch (KubernetesClientException e) {
            throw new InvalidInputException("cannot read or create Secret " + ref + " (the node-agent key): " + ApiErrors.describe(e));
        }
    }
}
