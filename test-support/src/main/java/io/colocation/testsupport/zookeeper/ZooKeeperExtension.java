package io.colocation.testsupport.zookeeper;

import io.colocation.localclusters.zookeeper.LocalZooKeeper;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * JUnit 5 extension: one {@link LocalZooKeeper} per test class (so a test that stops or restarts it
 * touches no other class), closed after the class. Injects {@link LocalZooKeeper}.
 */
public final class ZooKeeperExtension implements ParameterResolver {
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(ZooKeeperExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == LocalZooKeeper.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        ExtensionContext classContext = context;
        while (classContext.getTestMethod().isPresent() && classContext.getParent().isPresent()) {
            classContext = classContext.getParent().get();
        }
        return classContext.getStore(NS).getOrComputeIfAbsent("zookeeper", key -> {
            try {
                return new LocalZooKeeper();
            } catch (Exception e) {
                throw new IllegalStateException("cannot start the test ZooKeeper: " + e, e);
            }
        }, LocalZooKeeper.class);
    }
}
