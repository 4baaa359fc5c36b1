package io.colocation.charts.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The kustomize kit as a user installs it: an overlay of their own over conf/kubernetes that points the broker at their
 * ZooKeeper, by replacing the broker's ConfigMap with their broker.yml (the kit's, its zookeeper line changed). The kit
 * is named by a relative path, as kustomize requires of a directory.
 */
final class KustomizeOverlay {
    private KustomizeOverlay() {
    }

    static Path write(RealCluster cluster, Path dir, Path kit) throws IOException {
        Files.createDirectories(dir);
        String brokerYml = BrokerYml.of(kit.resolve("broker.yaml")).replace("connect: zookeeper.hadoop:2181",
                "connect: " + cluster.zooKeeper().connectString());
        Files.writeString(dir.resolve("broker.yml"), brokerYml);
        Files.writeString(dir.resolve("kustomization.yaml"), """
                apiVersion: kustomize.config.k8s.io/v1beta1
                kind: Kustomization
                resources:
                  - %s
                configMapGenerator:
                  - name: colocation-broker
                    namespace: koordinator-system
                    behavior: replace
                    files: [broker.yml]
                    options: {disableNameSuffixHash: true}
                """.formatted(dir.toAbsolutePath().normalize().relativize(kit.toAbsolutePath().normalize())));
        return dir;
    }
}
