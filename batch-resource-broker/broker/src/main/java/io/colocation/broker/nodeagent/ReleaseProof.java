package io.colocation.broker.nodeagent;

import io.colocation.model.node.YarnRelease;
import io.colocation.model.node.YarnReleaseResource;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Who wrote a node's {@link YarnRelease}: the node-agent webhook, having checked that the writer is that node's own
 * koordlet, stamps the release with an HMAC under a key only the broker's replicas hold
 * ({@link YarnReleaseResource#PROOF_ANNOTATION}); the broker honours a release only with a stamp that verifies. Anyone
 * else who may write YarnReleases (an admin) can write a release, and a stamp of their own making, but not a stamp
 * that verifies. The stamp is of the release's canonical text, so the API server's re-encoding of the object does not
 * change it.
 */
public final class ReleaseProof {
    private static final String ALGORITHM = "HmacSHA256";

    private final SecretKeySpec key;

    public ReleaseProof(byte[] key) {
        if (key.length < 32) {
            throw new IllegalArgumentException("the node-agent key needs at least 32 bytes, has " + key.length);
        }
        this.key = new SecretKeySpec(key.clone(), ALGORITHM);
    }

    /** The stamp of {@code release} on {@code node}. */
    public String sign(String node, YarnRelease release) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            mac.update(node.getBytes(StandardCharsets.UTF_8));
            mac.update((byte) '\n');
            byte[] stamp = mac.doFinal(release.canonical().getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(stamp);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(ALGORITHM + " is part of every JDK", e);
        }
    }

    /** Whether {@code proof} is the stamp of {@code release} on {@code node} (compared in constant time). */
    public boolean verifies(String node, YarnRelease release, String proof) {
        return proof != null && MessageDigest.isEqual(sign(node, release).getBytes(StandardCharsets.US_ASCII),
                proof.getBytes(StandardCharsets.US_ASCII));
    }
}
