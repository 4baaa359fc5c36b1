package io.colocation.broker.nodeagent;

import io.colocation.api.InvalidInputException;
import io.colocation.broker.kube.GeneratedSecret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.security.SecureRandom;

/**
 * The key of the {@link ReleaseProof}s, shared by every broker replica through a Secret of its namespace (a
 * {@link GeneratedSecret} of 32 random bytes). Rotating it makes the releases stamped before unverifiable; the
 * koordlet writes a new one while it still needs it.
 */
public final class NodeAgentKey {
    static final String DATA_KEY = "key";
    private static final int BYTES = 32;

    private NodeAgentKey() {
    }

    /** @throws InvalidInputException when the Secret cannot be read or written, or holds no usable key */
    public static ReleaseProof load(KubernetesClient client, String namespace, String name) throws InvalidInputException {
        return new ReleaseProof(GeneratedSecret.readOrCreate(client, namespace, name, DATA_KEY, "node-agent key", BYTES, () -> {
            byte[] key = new byte[BYTES];
            new SecureRandom().nextBytes(key);
            return key;
        }));
    }
}
