package io.colocation.charts.e2e;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * A MapReduce job submitted as YARN users submit one, from a client pod (the NodeManager image: Hadoop's jars, user
 * yarn) that knows the ResourceManager: Hadoop's {@code pi} example, its staging directory and output on a host
 * directory the NodeManager pod sees at the same path (a shared file system's stand-in).
 */
final class MapReduceJobs {
    private MapReduceJobs() {
    }

    static Pod pi(KubernetesClient client, String namespace, RealCluster cluster) throws IOException {
        Path shared = cluster.work.resolve("yarn-local/jobs");
        Files.createDirectories(shared);
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build()).createOr(op -> op.update());
        String rm = cluster.resourceManagerAddress(YarnConfiguration.RM_ADDRESS);
        String scheduler = cluster.resourceManagerAddress(YarnConfiguration.RM_SCHEDULER_ADDRESS);
        client.configMaps().inNamespace(namespace).resource(new ConfigMapBuilder().withNewMetadata().withName("hadoop-client").endMetadata()
                .addToData("yarn-site.xml", site(List.of(YarnConfiguration.RM_ADDRESS, rm, YarnConfiguration.RM_SCHEDULER_ADDRESS, scheduler)))
                .addToData("mapred-site.xml", site(List.of("mapreduce.framework.name", "yarn",
                        "yarn.app.mapreduce.am.staging-dir", shared.resolve("staging").toString(),
                        "mapreduce.application.classpath", "/opt/hadoop/lib/*",
                        "yarn.app.mapreduce.am.resource.mb", "512", "yarn.app.mapreduce.am.command-opts", "-Xmx360m",
                        "mapreduce.map.memory.mb", "384", "mapreduce.map.java.opts", "-Xmx256m",
                        "mapreduce.reduce.memory.mb", "384", "mapreduce.reduce.java.opts", "-Xmx256m")))
                .addToData("log4j.properties", "log4j.rootLogger=INFO,console\nlog4j.appender.console=org.apache.log4j.ConsoleAppender\n"
                        + "log4j.appender.console.layout=org.apache.log4j.PatternLayout\n"
                        + "log4j.appender.console.layout.ConversionPattern=%d{ISO8601} %p %c{2}: %m%n\n")
                .build()).createOr(op -> op.update());
        String image = "colocation.local/colocation-nodemanager:" + Versions.project();
        return client.pods().inNamespace(namespace).resource(new PodBuilder().withNewMetadata().withName("pi").endMetadata()
                .withNewSpec().withRestartPolicy("Never").withHostNetwork(true).withDnsPolicy("ClusterFirstWithHostNet")
                .withNewSecurityContext().withRunAsUser(10001L).withRunAsGroup(10001L).endSecurityContext()
                .addNewContainer().withName("pi").withImage(image).withImagePullPolicy("IfNotPresent").withWorkingDir(shared.toString())
                .withCommand("/opt/java/bin/java", "-Xmx256m", "-cp", "/etc/hadoop:/opt/hadoop/lib/*", "org.apache.hadoop.util.RunJar",
                        "/opt/hadoop/lib/hadoop-mapreduce-examples-" + Versions.HADOOP + ".jar", "pi", "1", "100")
                .addNewVolumeMount().withName("conf").withMountPath("/etc/hadoop").endVolumeMount()
                .addNewVolumeMount().withName("shared").withMountPath(shared.toString()).endVolumeMount()
                .endContainer()
                .addNewVolume().withName("conf").withNewConfigMap().withName("hadoop-client").endConfigMap().endVolume()
                .addNewVolume().withName("shared").withNewHostPath().withPath(shared.toString()).endHostPath().endVolume()
                .endSpec().build()).create();
    }

    static boolean finished(KubernetesClient client, Pod job) {
        Pod p = client.pods().inNamespace(job.getMetadata().getNamespace()).withName(job.getMetadata().getName()).get();
        return p != null && p.getStatus() != null && ("Succeeded".equals(p.getStatus().getPhase()) || "Failed".equals(p.getStatus().getPhase()));
    }

    private static String site(List<String> keyValues) {
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
        for (int i = 0; i < keyValues.size(); i += 2) {
            xml.append("  <property><name>").append(keyValues.get(i)).append("</name><value>").append(keyValues.get(i + 1))
                    .append("</value></property>\n");
        }
        return xml.append("</configuration>\n").toString();
    }
}
