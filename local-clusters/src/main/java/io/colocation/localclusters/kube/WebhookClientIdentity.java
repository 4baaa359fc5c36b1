package io.colocation.localclusters.kube;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The client certificate the API server shows the webhooks it calls, as a cluster configured for it has
 * ({@code --admission-control-config-file} with a kubeconfig per webhook host): a CA of its own and a certificate it
 * signed for {@value #COMMON_NAME}. A webhook that asks for the certificate ({@code webhook.clientAuth}) trusts
 * {@link #caPem()}; one that does not ask never sees it.
 */
public final class WebhookClientIdentity {
    public static final String COMMON_NAME = "kube-apiserver";
    private static final Duration VALIDITY = Duration.ofDays(2);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final String caPem;
    private final Path admissionConfig;

    private WebhookClientIdentity(String caPem, Path admissionConfig) {
        this.caPem = caPem;
        this.admissionConfig = admissionConfig;
    }

    /** Writes the CA, the certificate and the API server's admission configuration that presents it, under {@code dir}. */
    static WebhookClientIdentity write(Path under) throws IOException {
        Path dir = under.toAbsolutePath(); // kube-apiserver refuses a relative kubeConfigFile
        Files.createDirectories(dir);
        try {
            KeyPair caKeys = keyPair();
            X509Certificate ca = sign("webhook-client-ca", caKeys, caKeys, null);
            KeyPair clientKeys = keyPair();
            X509Certificate client = sign(COMMON_NAME, clientKeys, caKeys, ca);
            String caPem = pem(ca);
            Path kubeconfig = dir.resolve("webhook-client.kubeconfig");
            Files.writeString(kubeconfig, String.join("\n",
                    "apiVersion: v1",
                    "kind: Config",
                    "users:",
                    "- name: '*'",
                    "  user:",
                    "    client-certificate-data: " + base64(pem(client)),
                    "    client-key-data: " + base64(pem(new JcaPKCS8Generator(clientKeys.getPrivate(), null))),
                    ""));
            Path config = dir.resolve("admission-config.yaml");
            StringBuilder yaml = new StringBuilder("apiVersion: apiserver.config.k8s.io/v1\nkind: AdmissionConfiguration\nplugins:\n");
            for (String plugin : new String[] {"ValidatingAdmissionWebhook", "MutatingAdmissionWebhook"}) {
                yaml.append("- name: ").append(plugin).append("\n  configuration:\n    apiVersion: apiserver.config.k8s.io/v1\n")
                        .append("    kind: WebhookAdmissionConfiguration\n    kubeConfigFile: ").append(kubeconfig).append('\n');
            }
            Files.writeString(config, yaml);
            return new WebhookClientIdentity(caPem, config);
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IOException("cannot make the API server's webhook client certificate: " + e.getMessage(), e);
        }
    }

    /** The PEM of the CA that signed the certificate: what a webhook that asks for it trusts. */
    public String caPem() {
        return caPem;
    }

    Path admissionConfig() {
        return admissionConfig;
    }

    private static KeyPair keyPair() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
        return g.generateKeyPair();
    }

    private static X509Certificate sign(String cn, KeyPair subject, KeyPair issuer, X509Certificate issuerCert)
            throws GeneralSecurityException, OperatorCreationException, IOException {
        X500Name name = new X500Name("CN=" + cn);
        Instant now = Instant.now();
        JcaX509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(issuerCert == null ? name
                : new X500Name(issuerCert.getSubjectX500Principal().getName()), new BigInteger(127, RANDOM).add(BigInteger.ONE),
                Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(VALIDITY)), name, subject.getPublic());
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(issuerCert == null));
        if (issuerCert != null) {
            b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_clientAuth));
        }
        return new JcaX509CertificateConverter().getCertificate(b.build(new JcaContentSignerBuilder("SHA256withECDSA")
                .build(issuer.getPrivate())));
    }

    private static String pem(Object o) throws IOException {
        StringWriter w = new StringWriter();
        try (JcaPEMWriter pw = new JcaPEMWriter(w)) {
            pw.writeObject(o);
        }
        return w.toString();
    }

    private static String base64(String s) {
        return Base64.getEncoder().encodeToString(s.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    }
}
