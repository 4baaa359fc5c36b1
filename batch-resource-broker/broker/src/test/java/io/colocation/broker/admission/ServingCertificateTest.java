package io.colocation.broker.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.colocation.api.InvalidInputException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ServingCertificateTest {
    private static final Instant NOW = Instant.parse("2026-11-25T00:00:00Z");
    private static final List<String> HOSTS = List.of("colocation-broker-webhook.koordinator-system.svc", "127.0.0.1");

    @Test
    void aGeneratedCertificateIsSignedByItsCaAndNamesEveryHost() throws Exception {
        ServingCertificate c = ServingCertificate.generate(HOSTS, NOW, Duration.ofDays(3650), Duration.ofDays(365));
        X509Certificate ca = ServingCertificate.certificates(c.caBundlePem(), "ca").get(0);
        X509Certificate cert = ServingCertificate.certificates(c.certificatePem(), "tls").get(0);
        cert.verify(ca.getPublicKey());
        ca.verify(ca.getPublicKey());
        assertEquals(Set.copyOf(HOSTS), c.hosts());
        assertEquals(NOW.plus(Duration.ofDays(365)), c.notAfter());
        assertEquals(NOW.minus(ServingCertificate.BACKDATE), cert.getNotBefore().toInstant());
        assertTrue(ca.getBasicConstraints() >= 0, "the CA may sign");
        assertEquals(-1, cert.getBasicConstraints(), "the serving certificate may not");
        KeyStore store = c.keyStore("test");
        assertTrue(store.isKeyEntry("webhook"));
    }

    /** Hadoop and Kerberos code put BouncyCastle first in the JVM's providers; its EC keys are named "ECDSA" there. */
    @Test
    void theKeyFitsItsCertificateWhateverProviderReadsIt() throws Exception {
        java.security.Security.insertProviderAt(new org.bouncycastle.jce.provider.BouncyCastleProvider(), 1);
        try {
            ServingCertificate c = ServingCertificate.generate(HOSTS, NOW, Duration.ofDays(3650), Duration.ofDays(365));
            assertEquals(c, ServingCertificate.fromSecretData(c.secretData(), "ns/s"));
            assertTrue(c.keyStore("test").isKeyEntry("webhook"));
        } finally {
            java.security.Security.removeProvider(org.bouncycastle.jce.provider.BouncyCastleProvider.PROVIDER_NAME);
        }
    }

    @Test
    void renewalKeepsTheCaSoTheApiServersTrustHolds() throws Exception {
        ServingCertificate c = ServingCertificate.generate(HOSTS, NOW, Duration.ofDays(3650), Duration.ofDays(365));
        ServingCertificate next = c.renewed(HOSTS, NOW.plus(Duration.ofDays(340)), Duration.ofDays(365));
        assertEquals(c.caBundlePem(), next.caBundlePem());
        assertNotEquals(c.certificatePem(), next.certificatePem());
        ServingCertificate.certificates(next.certificatePem(), "tls").get(0)
                .verify(ServingCertificate.certificates(c.caBundlePem(), "ca").get(0).getPublicKey());
        // and it reads back from a Secret's data
        assertEquals(next, ServingCertificate.fromSecretData(next.secretData(), "ns/s"));
    }

    @Test
    void renewalIsDueBeforeExpiryOrWhenAHostIsMissing() throws Exception {
        ServingCertificate c = ServingCertificate.generate(HOSTS, NOW, Duration.ofDays(3650), Duration.ofDays(365));
        Duration before = Duration.ofDays(30);
        assertFalse(c.needsRenewal(HOSTS, NOW, before));
        assertFalse(c.needsRenewal(HOSTS, NOW.plus(Duration.ofDays(334)), before));
        assertTrue(c.needsRenewal(HOSTS, NOW.plus(Duration.ofDays(335)), before));
        assertTrue(c.needsRenewal(List.of("colocation-broker-webhook.other.svc"), NOW, before));
    }

    @Test
    void aSecretThatDoesNotHoldAServingCertificateIsNamedInTheError() throws Exception {
        ServingCertificate c = ServingCertificate.generate(HOSTS, NOW, Duration.ofDays(3650), Duration.ofDays(365));
        ServingCertificate other = ServingCertificate.generate(HOSTS, NOW, Duration.ofDays(3650), Duration.ofDays(365));
        Map<String, String> missingKey = new HashMap<>(c.secretData());
        missingKey.remove("tls.key");
        Map<String, String> garbage = new HashMap<>(c.secretData());
        garbage.put("tls.crt", "not a certificate");
        Map<String, String> wrongKey = new HashMap<>(c.secretData());
        wrongKey.put("tls.key", other.keyPem());
        Map<String, String> caKeyOnly = new HashMap<>(c.secretData());
        caKeyOnly.remove("ca.crt");
        Map<Map<String, String>, String> cases = Map.of(missingKey, "Secret ns/s: needs tls.crt and tls.key",
                garbage, "Secret ns/s: tls.crt: holds no PEM certificate",
                wrongKey, "Secret ns/s: tls.key is not the key of the first certificate in tls.crt",
                caKeyOnly, "Secret ns/s: has ca.key but no ca.crt");
        cases.forEach((data, message) -> assertEquals(message,
                assertThrows(InvalidInputException.class, () -> ServingCertificate.fromSecretData(data, "ns/s")).getMessage()));
    }
}
