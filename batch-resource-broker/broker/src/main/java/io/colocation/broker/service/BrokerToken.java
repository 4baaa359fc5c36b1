package io.colocation.broker.service;

import io.colocation.api.InvalidInputException;
import io.colocation.broker.kube.GeneratedSecret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;

/** The bearer token of auth.mode token: auth.token, or the one kept in auth.tokenSecretName (generated when absent). */
final class BrokerToken {
    static final String DATA_KEY = "token";
    private static final int MIN_CHARS = 16;
    private static final int RANDOM_BYTES = 32;

    private BrokerToken() {
    }

    /** @throws InvalidInputException when neither gives a token of 16 characters or more */
    static String resolve(BrokerConfiguration.AuthSettings auth, KubernetesClient kubernetes) throws InvalidInputException {
        String token = auth.token == null ? "" : auth.token.trim();
        if (token.isEmpty() && !auth.tokenSecretName.isEmpty()) {
            token = new String(GeneratedSecret.readOrCreate(kubernetes, auth.tokenSecretNamespace, auth.tokenSecretName, DATA_KEY,
                    "broker token", MIN_CHARS, BrokerToken::generate), StandardCharsets.UTF_8).trim();
        }
        if (token.length() < MIN_CHARS) {
            throw new InvalidInputException("auth.token must be set to a secret of at least " + MIN_CHARS + " characters, or"
                    + " auth.tokenSecretName name a Secret to keep one in (auth.mode: token protects drain, resync and the admin"
                    + " tasks); set auth.mode: none only for a local sandbox");
        }
        return token;
    }

    /** 32 random bytes as URL-safe text: a token that goes into a header and a shell unquoted. */
    private static byte[] generate() {
        byte[] random = new byte[RANDOM_BYTES];
        new SecureRandom().nextBytes(random);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(random).getBytes(StandardCharsets.US_ASCII);
    }
}
