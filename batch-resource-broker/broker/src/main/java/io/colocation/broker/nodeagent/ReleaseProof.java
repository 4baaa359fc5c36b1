package io.colocation.broker.nodeagent;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Who wrote a Node's {@code colocation.io/yarn-release}: the node-agent webhook, having checked that the writer is that
 * node's own koordlet, stamps the value with an HMAC under a key only the broker's replicas hold
 * ({@link #ANNOTATION}); the broker honours a release only with a stamp that verifies. A koordlet of another node, or
 * anyone else who may patch Nodes, can write the release but not the stamp, so a release written while the webhook
 * was not called (its failurePolicy is Ignore) is ignored too.
 */
public final class ReleaseProof {
    public static final String ANNOTATION = "colocation.io/yarn-release-proof";
    private static final String ALGORITHM = "HmacSHA256";

    private final SecretKeySpec key;

    public ReleaseProof(byte[] key) {
        if (key.length < 32) {
            throw new IllegalArgumentException("the node-agent key needs at least 32 bytes, has " + key.length);
        }
        this.key = new SecretKeySpec(key.clone(), ALGORITHM);
    }

    /** The stamp of {@code release} on {@code node}. */
    public String sign(String node, String release) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            mac.update(node.getBytes(StandardCharsets.UTF_8));
            mac.update((byte) '\n');
            return Base64.getUrlEncoder().withoutPadding().encodeToString(mac.doFinal(release.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(ALGORITHM + " is part of every JDK", e);
        }
    }

    /** Whether {@code proof} is the stamp of {@code release} on {@code node} (compared in constant time). */
    public boolean verifies(String node, String release, String proof) {
        return proof != null && MessageDigest.isEqual(sign(node, release).getBytes(StandardCharsets.US_ASCII),
                proof.getBytes(StandardCharsets.US_ASCII));
    }
}
