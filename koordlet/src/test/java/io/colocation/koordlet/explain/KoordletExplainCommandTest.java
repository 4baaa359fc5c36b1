package io.colocation.koordlet.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code colocation koordlet explain} on Koordinator's own numeric cases (cpu_suppress_test.go, memory_evict_test.go,
 * cpu_evict_test.go) and cases hand-derived from docs/koordinator-compatibility.md §5, through the command's JSON.
 */
class KoordletExplainCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private record Run(int exit, String out, String err) {
        JsonNode json() throws Exception {
            return JSON.readTree(out);
        }
    }

    private Run run(String yaml, String... extra) throws Exception {
        Path file = dir.resolve("input.yaml");
        Files.writeString(file, yaml);
        List<String> args = new ArrayList<>(List.of("-f", file.toString(), "-o", "json"));
        args.addAll(List.of(extra));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = KoordletExplainCommand.run(args.toArray(String[]::new), new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    static String node(String name, String cpu, String memory, String extraAllocatable) {
        return """
                apiVersion: v1
                kind: Node
                metadata: {name: %s}
                status:
                  capacity: {cpu: "%s", memory: %s}
                  allocatable: {cpu: "%s", memory: %s%s}
                ---
                """.formatted(name, cpu, memory, cpu, memory, extraAllocatable);
    }

    static String pod(String name, String qos, int priority, String requests, String labels) {
        return """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: %s
                  namespace: default
                  labels: {koordinator.sh/qosClass: %s%s}
                spec:
                  priority: %d
                  containers:
                  - name: main
                    resources: {requests: {%s}, limits: {%s}}
                status: {phase: Running}
                ---
                """.formatted(name, qos, labels, priority, requests, requests);
    }

    static String nodeMetric(String node, String cpu, String memory, String... pods) {
        StringBuilder s = new StringBuilder("""
                apiVersion: slo.koordinator.sh/v1alpha1
                kind: NodeMetric
                metadata: {name: %s}
                status:
                  nodeMetric:
                    nodeUsage: {resources: {cpu: "%s", memory: %s}}
                  podsMetric:%s
                """.formatted(node, cpu, memory, pods.length == 0 ? " []" : ""));
        for (int i = 0; i < pods.length; i += 3) {
            s.append("  - {namespace: default, name: ").append(pods[i]).append(", podUsage: {resources: {cpu: \"")
                    .append(pods[i + 1]).append("\", memory: ").append(pods[i + 2]).append("}}}\n");
        }
        return s + "---\n";
    }

    static String nodeSlo(String node, String thresholds) {
        return """
                apiVersion: slo.koordinator.sh/v1alpha1
                kind: NodeSLO
                metadata: {name: %s}
                spec:
                  resourceUsedThresholdWithBE: %s
                ---
                """.formatted(node, thresholds);
    }

    static String state(String body) {
        return "apiVersion: colocation.io/v1alpha1\nkind: KoordletState\n" + body + "\n---\n";
    }

    // --- CPU suppress ---

    /** cpu_suppress_test.go "calculate be suppress cfsQuota correctly": 16 × 70 % − LS 8 − system 2 = 1.2 cores. */
    @Test
    void cfsQuotaPolicyFromKoordinatorsCase() throws Exception {
        Run r = run(node("test-node0", "16", "40G", "")
                + pod("ls-pod", "LS", 9500, "cpu: \"10\", memory: 20G", "")
                + pod("be-pod", "BE", 5500, "kubernetes.io/batch-cpu: \"4000\", kubernetes.io/batch-memory: 6G", "")
                + nodeMetric("test-node0", "12", "20G", "ls-pod", "8", "10G", "be-pod", "2", "1G")
                + nodeSlo("test-node0", "{enable: true, cpuSuppressPolicy: cfsQuota, cpuSuppressThresholdPercent: 70}")
                + state("besteffort: {cpusetCPUs: \"0-9\", cfsQuotaMicros: 1500000}\ncpuTopology: " + topology16()));
        assertEquals(0, r.exit(), r.err());
        JsonNode cpu = r.json().get("cpuSuppress");
        assertTrue(cpu.get("enabled").asBoolean());
        assertEquals("cfsQuota", cpu.get("policy").asText());
        assertEquals(1200, cpu.get("beMilliCPU").asLong());
        assertEquals(120000, cpu.get("cfsQuotaMicros").asLong());
        assertEquals(16, cpu.get("cpusetCPUs").size(), "the cpuset is restored to all CPUs under cfsQuota");
    }

    /** "missing podMeta or transient metrics": a metric without a Pod is ignored, so it counts as system use: 3.2 cores. */
    @Test
    void podMetricWithoutPodCountsAsSystemUse() throws Exception {
        Run r = run(node("test-node0", "16", "40G", "")
                + pod("be-pod", "BE", 5500, "kubernetes.io/batch-cpu: \"4000\"", "")
                + nodeMetric("test-node0", "12", "20G", "ls-pod", "8", "10G", "be-pod", "4", "1G")
                + nodeSlo("test-node0", "{enable: true, cpuSuppressPolicy: cfsQuota, cpuSuppressThresholdPercent: 70}")
                + state("besteffort: {cfsQuotaMicros: 1000000}"));
        assertEquals(0, r.exit(), r.err());
        assertEquals(3200, r.json().at("/cpuSuppress/beMilliCPU").asLong());
        assertEquals(320000, r.json().at("/cpuSuppress/cfsQuotaMicros").asLong());
    }

    /** Hand-derived (§5.2): budget 5 cores on the 16-CPU box; picked by HT pairs across NUMA nodes; quota reset to -1. */
    @Test
    void cpusetPolicyPicksPairsAcrossNumaNodes() throws Exception {
        Run r = run(node("n1", "16", "64Gi", "")
                + pod("ls", "LS", 9500, "cpu: \"8\"", "")
                + nodeMetric("n1", "8", "20G", "ls", "6", "10G")
                + nodeSlo("n1", "{enable: true, cpuSuppressThresholdPercent: 65}")
                + state("cpuTopology: " + topology16()));
        assertEquals(0, r.exit(), r.err());
        JsonNode cpu = r.json().get("cpuSuppress");
        // 16000 × 65 % = 10400 − LS 6000 − system max(8000 − 6000, 0) = 2400 → ceil → 3 CPUs: the pair 0,1 of the
        // first socket, then one CPU of the next socket (the groups are per NUMA node and socket)
        assertEquals(2400, cpu.get("beMilliCPU").asLong());
        assertEquals(List.of(0, 1, 4), ints(cpu.get("cpusetCPUs")));
        assertEquals(-1, cpu.get("cfsQuotaMicros").asLong());
    }

    @Test
    void disabledNodeSloRestoresTheBeTier() throws Exception {
        Run r = run(node("n1", "16", "64Gi", "")
                + pod("ls", "LS", 9500, "cpu: \"8\"", "")
                + nodeMetric("n1", "8", "20G", "ls", "6", "10G")
                + nodeSlo("n1", "{enable: false}")
                + state("besteffort: {cpusetCPUs: \"0-3\", cfsQuotaMicros: 200000}\ncpuTopology: " + topology16()));
        assertEquals(0, r.exit(), r.err());
        JsonNode cpu = r.json().get("cpuSuppress");
        assertFalse(cpu.get("enabled").asBoolean());
        assertEquals(-1, cpu.get("cfsQuotaMicros").asLong());
        assertEquals(16, cpu.get("cpusetCPUs").size());
    }

    // --- memory eviction ---

    private static String memoryCase(String thresholds, String gates) {
        return memoryCase(thresholds, gates, "");
    }

    private static String memoryCase(String thresholds, String gates, String moreState) {
        return node("node-1", "80", "120G", "")
                + pod("test_lsr_pod", "LSR", 1000, "cpu: \"1\"", "")
                + pod("test_ls_pod", "LS", 500, "cpu: \"1\"", "")
                + pod("test_noqos_pod", "\"\"", 100, "cpu: \"1\"", "")
                + pod("test_be_pod_priority100_1", "BE", 100, "", "")
                + pod("test_be_pod_priority100_2", "BE", 100, "", "")
                + pod("test_be_pod_priority120", "BE", 120, "", "")
                + nodeMetric("node-1", "10", "115G", "test_lsr_pod", "1", "40G", "test_ls_pod", "1", "30G", "test_noqos_pod", "1",
                        "10G", "test_be_pod_priority100_1", "1", "5G", "test_be_pod_priority100_2", "1", "20G",
                        "test_be_pod_priority120", "1", "10G")
                + nodeSlo("node-1", thresholds)
                + state("featureGates: {" + gates + "}" + moreState);
    }

    /** memory_evict_test.go "MemoryEvictLowerPercent_78": 95 % used, release 120G × 17 % = 20.4G: two BE pods go. */
    @Test
    void beMemoryEvictFromKoordinatorsCase() throws Exception {
        Run r = run(memoryCase("{enable: true, memoryEvictThresholdPercent: 82, memoryEvictLowerPercent: 78}",
                "BEMemoryEvict: true"));
        assertEquals(0, r.exit(), r.err());
        JsonNode be = r.json().at("/memoryEvict/strategies/BEMemoryEvict");
        assertEquals(20400000000L, be.at("/release/memory").asLong());
        assertEquals(List.of("test_be_pod_priority100_2", "test_be_pod_priority100_1", "test_be_pod_priority120"),
                names(be.get("candidates")));
        assertEquals(List.of("test_be_pod_priority100_2", "test_be_pod_priority100_1"), names(be.get("victims")));
        assertEquals(names(be.get("victims")), names(r.json().at("/memoryEvict/victims")));
    }

    /** "MemoryEvictLowerPercent_80": release 18G, the 20G pod covers it alone. */
    @Test
    void oneVictimWhenItCoversTheRelease() throws Exception {
        Run r = run(memoryCase("{enable: true, memoryEvictThresholdPercent: 82, memoryEvictLowerPercent: 80}",
                "BEMemoryEvict: true"));
        assertEquals(List.of("test_be_pod_priority100_2"), names(r.json().at("/memoryEvict/victims")));
    }

    /**
     * A lower percent equal to its threshold: Koordinator's strategy logs it and skips itself for the round; the NodeSLO
     * stands, so suppression and the other evictions run (before, the whole NodeSLO was refused: exit 1).
     */
    @Test
    void aLowerPercentEqualToItsThresholdSkipsOnlyItsStrategy() throws Exception {
        Run r = run(memoryCase("{enable: true, memoryEvictThresholdPercent: 82, memoryEvictLowerPercent: 82,"
                + " cpuEvictThresholdPercent: 70, cpuEvictLowerPercent: 70, cpuSuppressThresholdPercent: 65}",
                "BEMemoryEvict: true, BECPUSuppress: true"));
        assertEquals(0, r.exit(), r.err());
        JsonNode be = r.json().at("/memoryEvict/strategies/BEMemoryEvict");
        assertEquals(0, be.get("release").size(), be.toString());
        assertTrue(r.out().contains("BEMemoryEvict skipped: memoryEvictLowerPercent (82) must be below memoryEvictThresholdPercent (82)"),
                r.out());
        assertTrue(r.json().at("/cpuSuppress/enabled").asBoolean(), "suppression still runs: " + r.json().get("cpuSuppress"));
    }

    /** A strategy whose gate is off is absent; one whose config is invalid is present and releases nothing. */
    @Test
    void memoryEvictNeedsItsPriorityThreshold() throws Exception {
        Run r = run(memoryCase("{enable: true, memoryEvictThresholdPercent: 82, memoryEvictLowerPercent: 74}",
                "BEMemoryEvict: true, MemoryEvict: true"));
        JsonNode strategies = r.json().at("/memoryEvict/strategies");
        assertTrue(strategies.has("MemoryEvict"));
        assertEquals(0, strategies.at("/MemoryEvict/release").size());
        assertFalse(strategies.has("MemoryAllocatableEvict"));
        assertEquals(3, r.json().at("/memoryEvict/victims").size());
    }

    /** The combined case: BE pods go by usage, then MemoryAllocatableEvict takes the 30Gi batch pod for batch-memory. */
    @Test
    void allocatableEvictAfterBeEvict() throws Exception {
        String gi20 = "memory: 20Gi, kubernetes.io/batch-memory: 20Gi";
        String gi30 = "memory: 30Gi, kubernetes.io/batch-memory: 30Gi";
        String input = node("node-1", "80", "120G", ", kubernetes.io/batch-memory: \"107374182400\"")
                + pod("test_be_pod_priority100_1", "BE", 100, "", "")
                + pod("test_be_pod_priority100_2", "BE", 100, "", "")
                + pod("test_be_pod_priority120", "BE", 120, "", "")
                + pod("batch-pod-1", "BE", 5000, gi20, ", koordinator.sh/eviction-enabled: \"true\"")
                + pod("batch-pod-2", "BE", 5000, gi30, ", koordinator.sh/eviction-enabled: \"true\"")
                + nodeMetric("node-1", "10", "115G", "test_be_pod_priority100_1", "1", "5G", "test_be_pod_priority100_2", "1", "20G",
                        "test_be_pod_priority120", "1", "10G", "batch-pod-1", "1", "10G", "batch-pod-2", "1", "20G")
                + nodeSlo("node-1", "{enable: true, memoryEvictThresholdPercent: 82, memoryEvictLowerPercent: 74,"
                        + " evictEnabledPriorityThreshold: 3000, memoryAllocatableEvictThresholdPercent: 45,"
                        + " memoryAllocatableEvictLowerPercent: 40, allocatableEvictPriorityThreshold: 5000}")
                + state("featureGates: {BEMemoryEvict: true, MemoryEvict: true, MemoryAllocatableEvict: true}");
        Run r = run(input);
        assertEquals(0, r.exit(), r.err());
        JsonNode alloc = r.json().at("/memoryEvict/strategies/MemoryAllocatableEvict");
        // 50Gi of 100Gi = 50 % > 45 %: release (0.50 − 0.40) × 100Gi in Koordinator's float64 arithmetic, truncated
        // (float32 would give 10737417216, 4 KiB less)
        assertEquals(10737418239L, alloc.at("/release/kubernetes.io~1batch-memory").asLong());
        assertEquals(List.of("batch-pod-2", "batch-pod-1"), names(alloc.get("candidates")));
        assertEquals(List.of("test_be_pod_priority100_2", "test_be_pod_priority100_1", "test_be_pod_priority120", "batch-pod-2"),
                names(r.json().at("/memoryEvict/victims")));
    }

    // --- CPU eviction ---

    /**
     * Hand-derived (§5.5): BE limit 4000m against a 20000m request is 20 % satisfaction (≤ lower 40 %) while it uses
     * 3800m (95 % ≥ 90 %): release 20000 × (0.60 − 0.20) = 7999m (float64, truncated, as Koordinator computes it),
     * counted as batch-cpu requests.
     */
    @Test
    void beCpuEvictBySatisfaction() throws Exception {
        String input = node("n1", "32", "64Gi", ", kubernetes.io/batch-cpu: \"20000\"")
                + pod("be-a", "BE", 5500, "kubernetes.io/batch-cpu: \"6000\"", "")
                + pod("be-b", "BE", 5500, "kubernetes.io/batch-cpu: \"10000\"", "")
                + pod("be-c", "BE", 5100, "kubernetes.io/batch-cpu: \"4000\"", "")
                + nodeMetric("n1", "20", "20G", "be-a", "1.5", "1G", "be-b", "1.5", "1G", "be-c", "0.8", "1G")
                + nodeSlo("n1", "{enable: true, cpuEvictBESatisfactionLowerPercent: 40, cpuEvictBESatisfactionUpperPercent: 60}")
                + state("featureGates: {BECPUEvict: true}\nbesteffort:\n  cpu:\n"
                        + "    windowAverage: {usedMilli: 3800, limitMilli: 4000, requestMilli: 20000}\n"
                        + "    latest: {usedMilli: 3900, limitMilli: 4000, requestMilli: 20000}");
        Run r = run(input);
        assertEquals(0, r.exit(), r.err());
        JsonNode be = r.json().at("/cpuEvict/strategies/BECPUEvict");
        // keyed kubernetes.io/batch-cpu, as Koordinator's calculateMilliReleaseByBESatisfaction
        assertEquals(7999, be.at("/release/kubernetes.io~1batch-cpu").asLong());
        // priority 5100 first; then by usage/request: be-a 0.25 before be-b 0.15
        assertEquals(List.of("be-c", "be-a", "be-b"), names(be.get("candidates")));
        assertEquals(List.of("be-c", "be-a"), names(be.get("victims")), "4000 + 6000 ≥ 7999");
    }

    /** Hand-derived: node CPU 29000m of 32000m = 90 % ≥ 85 %: release 32000 × (90 − 83) % = 2240m of usage. */
    @Test
    void cpuEvictByNodeUsage() throws Exception {
        String input = node("n1", "32", "64Gi", "")
                + pod("mid-a", "LS", 7100, "cpu: \"2\"", ", koordinator.sh/eviction-enabled: \"true\"")
                + pod("mid-b", "LS", 7100, "cpu: \"2\"", ", koordinator.sh/eviction-enabled: \"true\", koordinator.sh/priority: \"1\"")
                + pod("prod", "LS", 9500, "cpu: \"2\"", ", koordinator.sh/eviction-enabled: \"true\"")
                + nodeMetric("n1", "29", "20G", "mid-a", "3", "1G", "mid-b", "1", "1G", "prod", "10", "1G")
                + nodeSlo("n1", "{enable: true, cpuEvictThresholdPercent: 85, evictEnabledPriorityThreshold: 7999}")
                + state("featureGates: {CPUEvict: true}");
        Run r = run(input);
        assertEquals(0, r.exit(), r.err());
        JsonNode st = r.json().at("/cpuEvict/strategies/CPUEvict");
        assertEquals(2240, st.at("/release/cpu").asLong());
        assertEquals(List.of("mid-b", "mid-a"), names(st.get("candidates")), "label priority 1 < default 7100");
        assertEquals(List.of("mid-b", "mid-a"), names(st.get("victims")));
    }

    /** YARN containers rank with BE pods; their ApplicationMaster goes last. */
    @Test
    void yarnContainersAreBeVictimsWithTheirMasterLast() throws Exception {
        Run r = run(memoryCase("{enable: true, memoryEvictThresholdPercent: 82, memoryEvictLowerPercent: 50}",
                "BEMemoryEvict: true", "\nyarnContainers:\n"
                        + "- {id: container_1_0001_01_000001, applicationMaster: true, resources: {cpuMilli: 1000, memoryBytes: 2000000000},"
                        + " usage: {memoryBytes: 30000000000}}\n"
                        + "- {id: container_1_0001_01_000002, resources: {cpuMilli: 1000, memoryBytes: 2000000000},"
                        + " usage: {memoryBytes: 1000000000}}"));
        assertEquals(0, r.exit(), r.err());
        List<String> order = names(r.json().at("/memoryEvict/strategies/BEMemoryEvict/candidates"));
        assertEquals("container_1_0001_01_000001", order.get(order.size() - 1));
        assertTrue(order.indexOf("container_1_0001_01_000002") > order.indexOf("test_be_pod_priority120"),
                "a YARN container ranks in the koord-batch range, after BE pods of priority 100-120");
    }

    // --- input errors ---

    @Test
    void badQuantityNamesFileObjectAndField() throws Exception {
        Run r = run(node("n1", "16", "64Gi", "") + nodeMetric("n1", "lots", "20G"));
        assertEquals(1, r.exit());
        assertTrue(r.err().contains("input.yaml: NodeMetric n1: status.nodeMetric.nodeUsage.resources.cpu"), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
    }

    @Test
    void unknownFeatureGateIsAnError() throws Exception {
        Run r = run(node("n1", "16", "64Gi", "") + state("featureGates: {BEMemoryEvicted: true}"));
        assertEquals(1, r.exit());
        assertTrue(r.err().contains("KoordletState: featureGates: unrecognized feature gate: BEMemoryEvicted"), r.err());
    }

    @Test
    void wrongUsageExitsTwo() throws Exception {
        assertEquals(2, run("", "--bogus").exit());
        assertEquals(2, run("", "-o", "xml").exit());
    }

    private static String topology16() {
        StringBuilder s = new StringBuilder("[");
        for (int cpu = 0; cpu < 16; cpu++) {
            s.append(cpu == 0 ? "" : ", ").append("{cpu: ").append(cpu).append(", core: ").append(cpu / 2)
                    .append(", socket: ").append(cpu / 4).append(", node: ").append(cpu / 8).append("}");
        }
        return s + "]";
    }

    private static List<String> names(JsonNode victims) {
        List<String> out = new ArrayList<>();
        victims.forEach(v -> out.add(v.has("name") ? v.get("name").asText() : v.get("id").asText()));
        return out;
    }

    private static List<Integer> ints(JsonNode list) {
        List<Integer> out = new ArrayList<>();
        list.forEach(v -> out.add(v.asInt()));
        return out;
    }

    /** A rich input with one field set to null, each in turn: a decision, or an error naming the file; never an exception. */
    @org.junit.jupiter.api.TestFactory
    java.util.stream.Stream<org.junit.jupiter.api.DynamicTest> aNullFieldAnywhereIsADecisionOrANamedError() throws Exception {
        String gi30 = "memory: 30Gi, kubernetes.io/batch-memory: 30Gi";
        String input = node("node-1", "80", "120G", ", kubernetes.io/batch-memory: \"107374182400\"")
                + pod("be-1", "BE", 100, "", "")
                + pod("batch-pod-2", "BE", 5000, gi30, ", koordinator.sh/eviction-enabled: \"true\"")
                + nodeMetric("node-1", "10", "115G", "be-1", "1", "5G", "batch-pod-2", "1", "20G")
                + nodeSlo("node-1", "{enable: true, memoryEvictThresholdPercent: 82, memoryEvictLowerPercent: 74,"
                        + " evictEnabledPriorityThreshold: 3000, memoryAllocatableEvictThresholdPercent: 45,"
                        + " memoryAllocatableEvictLowerPercent: 40, allocatableEvictPriorityThreshold: 5000}")
                + state("featureGates: {BEMemoryEvict: true, MemoryEvict: true, MemoryAllocatableEvict: true}\n"
                        + "yarnContainers:\n- {id: container_1_0001_01_000002, resources: {cpuMilli: 1000, memoryBytes: 2000000000},"
                        + " usage: {cpuMilli: 500, memoryBytes: 1000000000}}");
        List<JsonNode> docs = new ArrayList<>();
        com.fasterxml.jackson.databind.ObjectMapper yaml = new com.fasterxml.jackson.databind.ObjectMapper(
                new com.fasterxml.jackson.dataformat.yaml.YAMLFactory());
        try (var it = yaml.readerFor(JsonNode.class).readValues(input)) {
            while (it.hasNext()) {
                JsonNode d = (JsonNode) it.next();
                if (d != null && d.isObject()) {
                    docs.add(d);
                }
            }
        }
        assertEquals(0, run(input).exit(), "the unchanged input is valid");
        List<org.junit.jupiter.api.DynamicTest> cases = new ArrayList<>();
        for (io.colocation.testsupport.cli.NullFieldVariants.Variant v : io.colocation.testsupport.cli.NullFieldVariants.of(docs)) {
            cases.add(org.junit.jupiter.api.DynamicTest.dynamicTest(v.field() + " = null", () -> {
                Run r = run(JSON.writeValueAsString(v.documents()));
                assertTrue(r.exit() == 0 || r.exit() == 1, v.field() + " = null: " + r.err());
                if (r.exit() == 1) {
                    assertTrue(r.err().contains("input.yaml") && !r.err().contains("Exception") && !r.err().contains("java.")
                            && !r.err().contains("cannot use the input"), v.field() + " = null: " + r.err());
                }
            }));
        }
        return cases.stream();
    }
}
