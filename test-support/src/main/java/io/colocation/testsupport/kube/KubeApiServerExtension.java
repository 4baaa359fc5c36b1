package io.colocation.testsupport.kube;

import io.colocation.localclusters.kube.KubeApiServer;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension: one real kube-apiserver + etcd per test JVM (started on first use, stopped when
 * the JVM's tests end), shared by every class that uses it. Tests isolate themselves by namespace or
 * unique names. Injects {@link KubernetesClient} (one per test class, closed after it) and
 * {@link KubeApiServer} (for the URL and the kubeconfig path).
 */
public final class KubeApiServerExtension implements ParameterResolver {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(KubeApiServerExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == KubernetesClient.class || type == KubeApiServer.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        KubeApiServer server = server(context);
        if (parameter.getParameter().getType() == KubeApiServer.class) {
            return server;
        }
        ExtensionContext classContext = context.getParent()
                .filter(parent -> parent.getTestClass().isPresent() && parent.getTestMethod().isEmpty())
                .orElse(context);
        return classContext.getStore(NS)
                .getOrComputeIfAbsent("client", key -> new ClosingClient(server.newClient()), ClosingClient.class)
                .client;
    }

    /** The JVM-wide server, starting it on first use. */
    public static KubeApiServer server(ExtensionContext context) {
        return context.getRoot().getStore(NS)
                .getOrComputeIfAbsent("server", key -> new SharedServer(startServer()), SharedServer.class)
                .server;
    }

    private static KubeApiServer startServer() {
        try {
            Path tmp = Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath());
            Path dir = Files.createTempDirectory(tmp, "kube-apiserver-");
            return KubeApiServer.start(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the test kube-apiserver: " + e.getMessage(), e);
        }
    }

    private record SharedServer(KubeApiServer server) implements AutoCloseable {
        @Override
        public void close() {
            server.close();
        }
    }

    private record ClosingClient(KubernetesClient client) implements AutoCloseable {
        @Override
        public void close() {
            client.close();
        }
    }
}
