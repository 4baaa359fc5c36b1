package io.colocation.localclusters.spark;

import io.colocation.localclusters.kube.KubeletNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Real Spark on Kubernetes (Spark 4.2 with Scala 2.13, the only Spark whose Kubernetes module the registry serves), in
 * client mode: the driver runs in spark-submit's JVM on this host and creates executor pods through the API server,
 * pinned to a real node ({@link KubeletNode}) whose kubelet runs them. The node image has no Spark: every executor pod
 * mounts Spark's jars from this host ({@code hostPath}) and runs {@code executor-entrypoint.sh} from them, which starts
 * {@code KubernetesExecutorBackend} as the official image's entrypoint does. Executors reach the driver at the host's
 * address on the pods' network. The pods carry Spark's {@code spark-role: executor} label and nothing about
 * colocation: a ClusterColocationProfile turns them into batch pods.
 */
public final class SparkOnKubernetes {
    /** Where the distribution keeps Spark's Kubernetes jars; else the build's directory. */
    public static final String DIRECTORY_PROPERTY = "colocation.spark.kubernetes.classpath.dir";
    /** The label Spark puts on every executor pod. */
    public static final String EXECUTOR_LABEL = "spark-role";
    public static final String EXECUTOR_LABEL_VALUE = "executor";
    private static final String MOUNT = "/opt/spark/jars";

    private SparkOnKubernetes() {
    }

    /** Spark's jars, the job's and the executors' entrypoint. */
    public static Path directory() {
        Path dir = SparkSubmit.classpathDirectory(DIRECTORY_PROPERTY, "spark.kubernetes.classpath.dir", "local-clusters/spark-kubernetes-job");
        if (!Files.isRegularFile(dir.resolve("executor-entrypoint.sh"))) {
            throw new IllegalStateException("Spark classpath " + dir + " has no executor-entrypoint.sh: build the"
                    + " local-clusters/spark-kubernetes-job module first (mvn package)");
        }
        return dir;
    }

    /**
     * Settings for {@code executors} executors of 1 task slot each, asking {@code executorCpu} (a Kubernetes quantity:
     * the profile turns it into {@code kubernetes.io/batch-cpu}) and 512 MiB of heap with 128 MiB overhead, on
     * {@code node}, in {@code namespace}; {@code extra} adds or overrides.
     */
    public static Map<String, String> settings(KubeletNode node, String namespace, Path work, int executors, String executorCpu,
            Map<String, String> extra) {
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("spark.kubernetes.namespace", namespace);
        conf.put("spark.kubernetes.container.image", KubeletNode.IMAGE);
        conf.put("spark.kubernetes.container.image.pullPolicy", "Never");
        conf.put("spark.kubernetes.executor.podTemplateFile", executorPodTemplate(work, node.name()).toString());
        conf.put("spark.driver.host", node.podNetworkGateway());
        conf.put("spark.driver.bindAddress", node.podNetworkGateway());
        conf.put("spark.executor.instances", Integer.toString(executors));
        conf.put("spark.executor.cores", "1");
        conf.put("spark.kubernetes.executor.request.cores", executorCpu);
        conf.put("spark.executor.memory", "512m");
        conf.put("spark.executor.memoryOverhead", "128m");
        conf.put("spark.ui.enabled", "false");
        conf.putAll(extra);
        return conf;
    }

    /** Starts the driver (spark-submit --deploy-mode client), with {@code kubeconfig}'s credentials for the API server. */
    public static SparkSubmit.Submission submit(String apiServerUrl, Path kubeconfig, Path work, Map<String, String> settings,
            int partitions, long taskMillis) {
        Path dir = directory();
        return SparkSubmit.start("512m", dir + "/*", dir, List.of("--master", "k8s://" + apiServerUrl, "--deploy-mode", "client"),
                settings, Map.of("KUBECONFIG", kubeconfig.toString()), work, partitions, taskMillis);
    }

    /**
     * The executor pods' template: on {@code node}, Spark's jars mounted read-only from this host, the entrypoint as the
     * command (Spark adds the {@code executor} argument), the host's DNS (the node runs no cluster DNS).
     */
    static Path executorPodTemplate(Path work, String node) {
        Path template = work.resolve("executor-pod-template.yaml");
        try {
            Files.createDirectories(work);
            Files.writeString(template, """
                    apiVersion: v1
                    kind: Pod
                    spec:
                      nodeSelector: {kubernetes.io/hostname: %s}
                      dnsPolicy: Default
                      terminationGracePeriodSeconds: 5
                      containers:
                      - name: executor
                        command: [/bin/sh, %s/executor-entrypoint.sh]
                        volumeMounts: [{name: spark-jars, mountPath: %s, readOnly: true}]
                      volumes:
                      - name: spark-jars
                        hostPath: {path: %s, type: Directory}
                    """.formatted(node, MOUNT, MOUNT, directory()));
            return template;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + template, e);
        }
    }
}
