package io.colocation.broker.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.colocation.broker.cli.WebhookExplainCommand;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code colocation webhook explain} on Koordinator's own cases (cluster_colocation_profile_test.go,
 * extended_resource_spec_test.go) and the contract of docs/koordinator-compatibility.md §14.11: output, notes, exit codes.
 */
class WebhookExplainCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @TempDir
    Path dir;

    record Run(int exit, String out, String err) {
        JsonNode pod() throws Exception {
            return JSON.readTree(out);
        }
    }

    private Run run(String input, String... flags) throws Exception {
        Path file = dir.resolve("in-" + System.nanoTime() + ".yaml");
        Files.writeString(file, input);
        List<String> args = new ArrayList<>(List.of("-f", file.toString(), "-o", "json"));
        args.addAll(List.of(flags));
        return runArgs(args.toArray(String[]::new));
    }

    private static Run runArgs(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = WebhookExplainCommand.run(args, new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    static final String KOORD_BATCH = """
            apiVersion: scheduling.k8s.io/v1
            kind: PriorityClass
            metadata: {name: koordinator-batch}
            value: 5999
            preemptionPolicy: fakePreemptionPolicy
            ---
            apiVersion: v1
            kind: Namespace
            metadata: {name: default, labels: {enable-koordinator-colocation: "true"}}
            ---
            """;

    /** Koordinator's test profile: both selectors, labels, annotations, scheduler, QoS, priority class and value, a patch. */
    static String profile(String extra) {
        return """
                apiVersion: config.koordinator.sh/v1alpha1
                kind: ClusterColocationProfile
                metadata: {name: test-profile}
                spec:
                  namespaceSelector: {matchLabels: {enable-koordinator-colocation: "true"}}
                  selector: {matchLabels: {koordinator-colocation-pod: "true"}}
                  labels: {testLabelA: valueA}
                  annotations: {testAnnotationA: valueA}
                  schedulerName: koordinator-scheduler
                  qosClass: BE
                  priorityClassName: koordinator-batch
                  koordinatorPriority: 1111
                  patch: {metadata: {labels: {test-patch-label: patch-a}, annotations: {test-patch-annotation: patch-b}}}
                %s
                ---
                """.formatted(extra);
    }

    static String pod(String resources, boolean withInitAndOverhead) {
        return """
                apiVersion: v1
                kind: Pod
                metadata: {namespace: default, name: test-pod-1, labels: {koordinator-colocation-pod: "true"}}
                spec:
                  schedulerName: nonExistSchedulerName
                  priority: 5999
                %s  containers:
                  - name: test-container-a
                    resources: %s
                %s""".formatted(withInitAndOverhead ? """
                  initContainers:
                  - name: test-init-container-a
                    resources: {limits: {cpu: 500m, memory: 1Gi}, requests: {cpu: 500m, memory: 1Gi}}
                """ : "", resources, withInitAndOverhead ? "  overhead: {cpu: \"1\", memory: 2Gi}\n" : "");
    }

    private static final String FULL = "{limits: {cpu: \"1\", memory: 4Gi}, requests: {cpu: \"1\", memory: 4Gi}}";

    @Test
    void koordinatorsMutatingPodCase() throws Exception {
        Run r = run(KOORD_BATCH + profile("") + pod(FULL, true));
        assertEquals(0, r.exit(), r.err());
        JsonNode p = r.pod();
        JsonNode labels = p.at("/metadata/labels");
        assertEquals("valueA", labels.get("testLabelA").asText());
        assertEquals("patch-a", labels.get("test-patch-label").asText());
        assertEquals("BE", labels.get("koordinator.sh/qosClass").asText());
        assertEquals("1111", labels.get("koordinator.sh/priority").asText());
        assertEquals("valueA", p.at("/metadata/annotations/testAnnotationA").asText());
        assertEquals("patch-b", p.at("/metadata/annotations/test-patch-annotation").asText());
        assertEquals("koordinator-scheduler", p.at("/spec/schedulerName").asText());
        assertEquals("koordinator-batch", p.at("/spec/priorityClassName").asText());
        assertEquals(5999, p.at("/spec/priority").asInt());
        assertEquals("fakePreemptionPolicy", p.at("/spec/preemptionPolicy").asText());
        JsonNode init = p.at("/spec/initContainers/0/resources");
        assertEquals("500", init.at("/limits/kubernetes.io~1batch-cpu").asText());
        assertEquals("1Gi", init.at("/requests/kubernetes.io~1batch-memory").asText());
        assertFalse(init.at("/requests").has("cpu") || init.at("/limits").has("memory"));
        JsonNode c = p.at("/spec/containers/0/resources");
        assertEquals("1k", c.at("/requests/kubernetes.io~1batch-cpu").asText());
        assertEquals("4Gi", c.at("/limits/kubernetes.io~1batch-memory").asText());
        assertEquals("1k", p.at("/spec/overhead/kubernetes.io~1batch-cpu").asText());
        assertEquals("2Gi", p.at("/spec/overhead/kubernetes.io~1batch-memory").asText());
        assertEquals("{\"containers\":{\"test-container-a\":{\"limits\":{\"kubernetes.io/batch-cpu\":\"1k\",\"kubernetes.io/batch-memory\":"
                + "\"4Gi\"},\"requests\":{\"kubernetes.io/batch-cpu\":\"1k\",\"kubernetes.io/batch-memory\":\"4Gi\"}}}}",
                p.at("/metadata/annotations/node.koordinator.sh~1extended-resource-spec").asText());
    }

    /** The shipped Spark profile on the pods Spark 4 creates: the executor becomes a batch pod, the driver stays as it is. */
    @Test
    void theShippedSparkProfileConvertsExecutorsAndLeavesTheDriver() throws Exception {
        String namespace = """
                apiVersion: v1
                kind: Namespace
                metadata: {name: spark-jobs, labels: {koordinator.sh/enable-colocation: "true"}}
                """;
        String sparkPod = """
                apiVersion: v1
                kind: Pod
                metadata: {name: wordcount-exec-1, namespace: spark-jobs, labels: {spark-role: %s, spark-app-selector: spark-1}}
                spec:
                  containers:
                  - name: spark-kubernetes-executor
                    image: apache/spark:4.0.1
                    resources: {requests: {cpu: 125m, memory: 640Mi}, limits: {memory: 640Mi}}
                """;
        Path conf = Path.of("../../conf");
        for (String role : List.of("executor", "driver")) {
            Path input = dir.resolve(role + ".yaml");
            Files.writeString(input, namespace + "---\n" + sparkPod.formatted(role));
            Run r = runArgs("-f", conf.resolve("examples/colocation-profile-spark.yaml").toString(), "-f",
                    conf.resolve("kubernetes/priority-classes.yaml").toString(), "-f", input.toString(), "-o", "json");
            assertEquals(0, r.exit(), r.err());
            JsonNode p = r.pod();
            JsonNode c = p.at("/spec/containers/0/resources");
            if (role.equals("executor")) {
                assertEquals("BE", p.at("/metadata/labels/koordinator.sh~1qosClass").asText());
                assertEquals("koord-scheduler", p.at("/spec/schedulerName").asText());
                assertEquals("koord-batch", p.at("/spec/priorityClassName").asText());
                assertEquals("125", c.at("/requests/kubernetes.io~1batch-cpu").asText());
                assertEquals("640Mi", c.at("/requests/kubernetes.io~1batch-memory").asText());
                assertEquals("640Mi", c.at("/limits/kubernetes.io~1batch-memory").asText());
                assertFalse(c.at("/requests").has("cpu") || c.at("/requests").has("memory"));
            } else {
                assertTrue(p.at("/spec/schedulerName").isMissingNode(), "the driver keeps the default scheduler: " + p);
                assertEquals("125m", c.at("/requests/cpu").asText());
                assertFalse(p.at("/metadata/labels").has("koordinator.sh/qosClass"));
            }
        }
    }

    @Test
    void aRequestIsFilledFromItsLimitButNoLimitFromARequest() throws Exception {
        JsonNode limitsOnly = run(KOORD_BATCH + profile("") + pod("{limits: {cpu: \"1\", memory: 4Gi}}", false)).pod();
        assertEquals("1k", limitsOnly.at("/spec/containers/0/resources/requests/kubernetes.io~1batch-cpu").asText());
        assertEquals("4Gi", limitsOnly.at("/spec/containers/0/resources/requests/kubernetes.io~1batch-memory").asText());
        JsonNode requestsOnly = run(KOORD_BATCH + profile("") + pod("{requests: {cpu: \"1\", memory: 4Gi}}", false)).pod();
        assertTrue(requestsOnly.at("/spec/containers/0/resources/limits").isMissingNode(), requestsOnly.toString());
    }

    static Stream<Arguments> probabilities() {
        return Stream.of(
                Arguments.of("50", "70", false, true),
                Arguments.of("50", "30", true, true),
                Arguments.of("\"50%\"", "50", true, true),
                Arguments.of("0", "0", false, true),
                Arguments.of("100", "99", true, true),
                Arguments.of("150", "99", true, true),
                Arguments.of("-5", "0", false, true));
    }

    /** A profile skipped by its draw changes nothing on the pod, yet the batch-priority pod is still converted. */
    @ParameterizedTest(name = "probability {0}, draw {1}")
    @MethodSource("probabilities")
    void probabilityDecidesThePatchNotTheConversion(String probability, String draw, boolean applied, boolean converted)
            throws Exception {
        Run r = run(KOORD_BATCH + profile("  probability: " + probability) + pod(FULL, false), "--draw", draw);
        assertEquals(0, r.exit(), r.err());
        assertEquals(applied, r.pod().at("/metadata/labels").has("testLabelA"), r.out());
        assertEquals(converted, r.pod().at("/spec/containers/0/resources/requests").has("kubernetes.io/batch-cpu"), r.out());
    }

    @Test
    void drawsAreUsedInProfileNameOrderAndTheLastRepeats() throws Exception {
        String second = profile("  probability: 50").replace("name: test-profile", "name: b-profile")
                .replace("testLabelA: valueA", "testLabelB: valueB");
        Run r = run(KOORD_BATCH + profile("  probability: 50") + second + pod(FULL, false), "--draw", "10,90");
        JsonNode labels = r.pod().at("/metadata/labels");
        assertTrue(labels.has("testLabelB"), "b-profile comes first and draws 10: " + labels);
        assertFalse(labels.has("testLabelA"), "test-profile draws 90: " + labels);
        Run last = run(KOORD_BATCH + profile("  probability: 50") + second + pod(FULL, false), "--draw", "10");
        assertTrue(last.pod().at("/metadata/labels").has("testLabelA"), "the last draw repeats");
    }

    @Test
    void theSkipAnnotationAndTheGateKeepCpuAndMemory() throws Exception {
        String skip = profile("").replace("metadata: {name: test-profile}",
                "metadata: {name: test-profile, annotations: {config.koordinator.sh/skip-update-resources: \"\"}}");
        Run annotated = run(KOORD_BATCH + skip + pod(FULL, false));
        assertTrue(annotated.pod().at("/spec/containers/0/resources/requests").has("cpu"), annotated.out());
        assertTrue(annotated.err().contains("skip-update-resources"), annotated.err());
        Run gated = run(KOORD_BATCH + profile("") + pod(FULL, false), "--feature-gates", "ColocationProfileSkipMutatingResources=true");
        assertTrue(gated.pod().at("/spec/containers/0/resources/requests").has("cpu"));
        Run noSpec = run(KOORD_BATCH + profile("") + pod(FULL, false), "--feature-gates", "DisableExtendedResourceSpec=true");
        assertFalse(noSpec.pod().at("/metadata/annotations").has("node.koordinator.sh/extended-resource-spec"));
    }

    @Test
    void unmatchedAndUnreadableSelectors() throws Exception {
        String notSelected = pod(FULL, false).replace("koordinator-colocation-pod: \"true\"", "app: web");
        Run none = run(KOORD_BATCH + profile("") + notSelected);
        assertEquals(0, none.exit());
        assertEquals(YAML.readTree(notSelected), none.pod(), "no profile matches: a batch-priority pod keeps cpu and memory");

        Run noNamespace = run(KOORD_BATCH.substring(KOORD_BATCH.indexOf("---") + 4).replace("name: default", "name: other")
                + "---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: koordinator-batch}\nvalue: 5999\n---\n"
                + profile("") + pod(FULL, false));
        assertEquals("valueA", noNamespace.pod().at("/metadata/labels/testLabelA").asText(), "a Namespace not given counts as matched");
        assertTrue(noNamespace.err().contains("Namespace default cannot be read"), noNamespace.err());
        assertTrue(noNamespace.pod().at("/spec").has("priorityClassName"));
        assertFalse(noNamespace.pod().at("/spec").has("preemptionPolicy"), "a class without a policy clears the pod's");

        // Koordinator counts a selector that does not compile as a match, and `operator: in` converted every pod of an
        // unlabelled namespace: such a profile is skipped and named (issue 46), by the webhook and explain alike.
        for (String operator : List.of("Foo", "in")) {
            String badOperator = profile("").replace("selector: {matchLabels: {koordinator-colocation-pod: \"true\"}}",
                    "selector: {matchExpressions: [{key: app, operator: " + operator + ", values: [web]}]}");
            Run foo = run(KOORD_BATCH + badOperator + notSelected);
            assertEquals(0, foo.exit(), foo.err());
            assertEquals(YAML.readTree(notSelected), foo.pod(), "a profile whose selector does not compile is not used");
            assertTrue(foo.err().contains("profile test-profile is not used") && foo.err().contains("spec.selector: \"" + operator
                    + "\" is not a valid label selector operator"), foo.err());
        }
    }

    static Stream<Arguments> unusableProbabilities() {
        return Stream.of(Arguments.of("\"50\"", "\"50\" is not a percentage"), Arguments.of("abc", "\"abc\" is not a percentage"),
                Arguments.of("abc%", "\"abc%\" is not a percentage"), Arguments.of("4294967396", "4294967396 is not an int32"));
    }

    /**
     * A probability Koordinator cannot read refused every pod the profile matched (a typo refused every pod create in
     * the cluster); 4294967396 was read as 100 %. The profile is skipped and named instead; the pod is still created.
     */
    @ParameterizedTest(name = "probability {0}")
    @MethodSource("unusableProbabilities")
    void aProbabilityKoordinatorCannotReadSkipsItsProfile(String probability, String note) throws Exception {
        String other = profile("").replace("name: test-profile", "name: other").replace("testLabelA: valueA", "testLabelB: valueB");
        Run r = run(KOORD_BATCH + profile("  probability: " + probability) + other + pod(FULL, false));
        assertEquals(0, r.exit(), r.err());
        assertFalse(r.pod().at("/metadata/labels").has("testLabelA"), r.out());
        assertTrue(r.pod().at("/metadata/labels").has("testLabelB"), "the other profile still applies: " + r.out());
        assertTrue(r.err().contains("profile test-profile is not used") && r.err().contains(note), r.err());
    }

    /** A suffix that makes a label value longer than 63 characters: Koordinator's pod is refused by the API server (422). */
    @Test
    void aProfileThatWouldMakeAnInvalidLabelIsNotApplied() throws Exception {
        Run r = run(KOORD_BATCH + profile("  labelSuffixes: {koordinator-colocation-pod: " + "x".repeat(70) + "}") + pod(FULL, false));
        assertEquals(0, r.exit(), r.err());
        assertFalse(r.pod().at("/metadata/labels").has("testLabelA"), "the profile's other changes go with it: " + r.out());
        assertTrue(r.err().contains("profile test-profile is not applied: it would make label koordinator-colocation-pod="), r.err());
    }

    @Test
    void labelsMappingsAndSuffixes() throws Exception {
        String p = """
                apiVersion: config.koordinator.sh/v1alpha1
                kind: ClusterColocationProfile
                metadata: {name: mapping}
                spec:
                  labels: {test-label-key: test-label-value}
                  labelKeysMapping: {test-label-key: label-key-to-store, absent: blanked}
                  labelSuffixes: {label-key-to-store: suffix-0, nowhere: -x}
                  annotationKeysMapping: {a: b}
                ---
                """;
        JsonNode pod = run(p + pod(FULL, false).replace("priority: 5999", "priority: 9000")).pod();
        JsonNode labels = pod.at("/metadata/labels");
        assertEquals("test-label-valuesuffix-0", labels.get("label-key-to-store").asText());
        assertEquals("", labels.get("blanked").asText());
        assertFalse(labels.has("nowhere"));
        assertEquals("", pod.at("/metadata/annotations/b").asText());
        assertTrue(pod.at("/spec/containers/0/resources/requests").has("cpu"), "prod priority: not converted");
    }

    @Test
    void thePatchMergesContainersByNameAndReplacesOtherLists() throws Exception {
        String p = """
                apiVersion: config.koordinator.sh/v1alpha1
                kind: ClusterColocationProfile
                metadata: {name: patching}
                spec:
                  patch:
                    spec:
                      tolerations: [{key: batch, operator: Exists}]
                      containers:
                      - name: test-container-a
                        env: [{name: ROLE, value: batch}]
                      - name: sidecar
                        image: busybox
                ---
                """;
        String base = pod(FULL, false).replace("priority: 5999", "priority: 9000\n  tolerations: [{key: old, operator: Exists}]");
        JsonNode pod = run(p + base).pod();
        assertEquals(2, pod.at("/spec/containers").size());
        assertEquals("batch", pod.at("/spec/containers/0/env/0/value").asText());
        assertEquals("1", pod.at("/spec/containers/0/resources/requests/cpu").asText(), "merged, not replaced");
        assertEquals("sidecar", pod.at("/spec/containers/1/name").asText());
        assertEquals(1, pod.at("/spec/tolerations").size());
        assertEquals("batch", pod.at("/spec/tolerations/0/key").asText());
    }

    @Test
    void midPriorityBecomesMidAndAPodWithoutNamespaceKeepsNone() throws Exception {
        String p = """
                apiVersion: config.koordinator.sh/v1alpha1
                kind: ClusterColocationProfile
                metadata: {name: mid}
                spec: {namespaceSelector: {matchLabels: {team: spark}}}
                ---
                apiVersion: v1
                kind: Namespace
                metadata: {name: spark, labels: {team: spark}}
                ---
                """;
        String noNamespace = pod("{requests: {cpu: 1500m, memory: 3456Mi}}", false).replace("namespace: default, ", "")
                .replace("priority: 5999", "priority: 7000");
        Run r = run(p + noNamespace, "--namespace", "spark");
        assertEquals(0, r.exit(), r.err());
        assertEquals("1500", r.pod().at("/spec/containers/0/resources/requests/kubernetes.io~1mid-cpu").asText());
        assertEquals("3456Mi", r.pod().at("/spec/containers/0/resources/requests/kubernetes.io~1mid-memory").asText());
        assertTrue(r.pod().at("/metadata/namespace").isMissingNode());
        assertFalse(r.pod().at("/metadata/annotations").has("node.koordinator.sh/extended-resource-spec"), "mid is not recorded");
        String defaultNamespace = """
                apiVersion: v1
                kind: Namespace
                metadata: {name: default}
                ---
                """;
        Run elsewhere = run(p + defaultNamespace + noNamespace);
        assertTrue(elsewhere.pod().at("/spec/containers/0/resources/requests").has("cpu"), "matched in default: no");
        Run unknownNamespace = run(p + noNamespace);
        assertTrue(unknownNamespace.pod().at("/spec/containers/0/resources/requests").has("kubernetes.io/mid-cpu"),
                "a Namespace that cannot be read counts as matched (Koordinator's rule)");
        assertTrue(unknownNamespace.err().contains("cannot be read"), unknownNamespace.err());
    }

    @Test
    void theExtendedResourceSpecIsRewrittenOnlyWhenItsRepresentationDiffers() throws Exception {
        String batchPod = """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: p
                  annotations: {node.koordinator.sh/extended-resource-spec: '%s'}
                spec:
                  containers:
                  - name: test-container-a
                    resources: {requests: {kubernetes.io/batch-cpu: "1000", kubernetes.io/batch-memory: 4Gi}}
                """;
        String same = "{\"containers\":{\"test-container-a\":{\"requests\":{\"kubernetes.io/batch-cpu\":\"1000\",\"kubernetes.io/batch-memory\":\"4Gi\"}}}}";
        assertEquals(same, run(batchPod.formatted(same)).pod().at("/metadata/annotations/node.koordinator.sh~1extended-resource-spec")
                .asText(), "equal: kept as written");
        String other = same.replace("\"1000\"", "\"1k\"");
        assertEquals(other.replace("1k", "1k"), run(batchPod.formatted(same.replace("\"1000\"", "\"2k\""))).pod()
                .at("/metadata/annotations/node.koordinator.sh~1extended-resource-spec").asText(), "another value: rewritten, canonical");
        assertEquals(other, run(batchPod.formatted(other)).pod().at("/metadata/annotations/node.koordinator.sh~1extended-resource-spec")
                .asText());
        Run broken = run(batchPod.formatted("{not json"));
        assertEquals(3, broken.exit());
        assertTrue(broken.err().startsWith("denied: failed to get current extended resource spec, err: "), broken.err());
        String stale = "{\"containers\":{\"gone\":{\"requests\":{\"kubernetes.io/batch-cpu\":\"1\"}}}}";
        String plain = batchPod.formatted(stale).replace("kubernetes.io/batch-cpu: \"1000\", kubernetes.io/batch-memory: 4Gi", "cpu: 1");
        assertEquals("{}", run(plain).pod().at("/metadata/annotations/node.koordinator.sh~1extended-resource-spec").asText());
    }

    static Stream<Arguments> refusals() {
        return Stream.of(
                Arguments.of(profile("").replace("koordinator-batch", "missing"), "denied: PriorityClass.scheduling.k8s.io \"missing\" not found"),
                Arguments.of(profile("").replace("patch: {metadata", "patch: {spec: {containers: [{image: x}]}, metadata"),
                        "denied: map: "));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("refusals")
    void koordinatorWouldRefuse(String profile, String message) throws Exception {
        Run r = run(KOORD_BATCH + profile + pod(FULL, false));
        assertEquals(3, r.exit(), r.out() + r.err());
        assertTrue(r.err().startsWith(message), r.err());
        assertEquals("", r.out());
    }

    static Stream<Arguments> badInput() {
        return Stream.of(
                Arguments.of("apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: b}\n",
                        "document 2 (Pod/b): a second Pod"),
                Arguments.of("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n", "document 1 (ConfigMap): v1 ConfigMap is not an input"),
                Arguments.of("kind: Pod\nmetadata: {name: a}\n", "document 1: apiVersion: missing"),
                Arguments.of(KOORD_BATCH.replace("value: 5999", "value: high") + pod(FULL, false),
                        "document 1 (PriorityClass/koordinator-batch): value: must be an int32"),
                Arguments.of(profile("").replace("qosClass: BE", "qosClass: 7") + pod(FULL, false), "spec.qosClass: must be a string"),
                Arguments.of(profile("").replace("testLabelA: valueA", "testLabelA: 3") + pod(FULL, false), "spec.labels.testLabelA: must be a string"),
                Arguments.of(pod("{requests: {cpu: lots}}", false), "spec.containers[0].resources.requests.cpu: \"lots\" is not a Kubernetes quantity"),
                Arguments.of(profile("") + profile("") + pod(FULL, false), "is given twice"),
                Arguments.of(KOORD_BATCH, "no Pod in the input"),
                Arguments.of("apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: a}\n"
                        + "- apiVersion: v1\n  kind: Namespace\n  metadata: {}\n", "document 1 items[1] (Namespace): metadata.name: missing"),
                Arguments.of("{a: [", "malformed YAML"),
                Arguments.of("apiVersion: v1\nkind: Pod\nmetadata: {name: !!binary aGVsbG8=}\n", "metadata.name is a !!binary YAML value"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("badInput")
    void badInputIsOneLineNamingIt(String input, String fragment) throws Exception {
        Run r = run(input);
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(r.err().startsWith("error: ") && r.err().contains(fragment) && r.err().strip().lines().count() == 1, r.err());
        assertFalse(r.err().contains("Exception"), r.err());
    }

    /** The probe's {@code yes 'a: b' |}: an endless input stops at the input cap, at once, one line naming it. */
    @Test
    void anEndlessInputStopsAtTheCap() {
        java.io.InputStream endless = new java.io.InputStream() {
            private final byte[] line = "a: b\n".getBytes(StandardCharsets.US_ASCII);
            private long i;

            @Override
            public int read() {
                return line[(int) (i++ % line.length)];
            }
        };
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        long start = System.nanoTime();
        int exit = WebhookExplainCommand.run(new String[] {"-f", "-"}, endless, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String message = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, exit, message);
        assertTrue(message.startsWith("error: <stdin>: larger than 16 MiB, the most this command reads"), message);
        assertTrue(java.time.Duration.ofNanos(System.nanoTime() - start).toSeconds() < 60, "it answers");
    }

    /** The probe's 60 MB file took 126 s to refuse: a file larger than the cap is refused by its size, before a byte is read. */
    @Test
    void aFileOverTheCapIsRefusedByItsSize() throws Exception {
        Path big = dir.resolve("big.yaml");
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(60L << 20); // sparse: 60 MB that are never read
        }
        long start = System.nanoTime();
        Run r = runArgs("-f", big.toString());
        long millis = java.time.Duration.ofNanos(System.nanoTime() - start).toMillis();
        assertEquals(1, r.exit(), r.err());
        assertTrue(r.err().startsWith("error: " + big + ": larger than 16 MiB, the most this command reads")
                && r.err().contains("(the file has 62914560 bytes)"), r.err());
        assertTrue(millis < 2_000, "refused at once: " + millis + " ms");
    }

    static Stream<Arguments> usage() {
        return Stream.of(
                Arguments.of(List.of("--draw", "100", "-f", "x"), "--draw"),
                Arguments.of(List.of("--draw", "a", "-f", "x"), "--draw"),
                Arguments.of(List.of("-f", "x", "--feature-gates", "Foo=true"), "unknown gate"),
                Arguments.of(List.of("-f", "x", "--feature-gates", "DisableExtendedResourceSpec=yes"), "NAME=true"),
                Arguments.of(List.of("-f", "x", "-o", "text"), "-o must be json or yaml"),
                Arguments.of(List.of("-f", "-", "-f", "-"), "given twice"),
                Arguments.of(List.of("--bogus"), "unknown flag"),
                Arguments.of(List.of("-f"), "needs a value"),
                Arguments.of(List.of(), "no input"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("usage")
    void usageIsExitTwoWithTheUsageLine(List<String> args, String fragment) {
        Run r = runArgs(args.toArray(String[]::new));
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().startsWith("error: ") && r.err().contains(fragment), r.err());
        assertTrue(r.err().contains("usage: colocation webhook explain"), r.err());
    }

    @Test
    void yamlIsTheDefaultAndTheWholePodIsPrinted() throws Exception {
        Path file = dir.resolve("pod.yaml");
        Files.writeString(file, KOORD_BATCH + profile("") + pod(FULL, true).replace("spec:", "spec:\n  nodeSelector: {disk: ssd}"));
        Run r = runArgs("-f", file.toString());
        assertEquals(0, r.exit(), r.err());
        JsonNode pod = YAML.readTree(r.out());
        assertEquals("Pod", pod.get("kind").asText());
        assertEquals("v1", pod.get("apiVersion").asText());
        assertEquals("ssd", pod.at("/spec/nodeSelector/disk").asText(), "every input field kept");
        assertEquals("1k", pod.at("/spec/containers/0/resources/requests/kubernetes.io~1batch-cpu").asText());
        assertFalse(r.out().contains("---"), "one document, no marker");
    }
}
