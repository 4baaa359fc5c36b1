package io.colocation.koordlet.explain;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.colocation.api.InvalidInputException;
import io.colocation.koordlet.qos.NodeSnapshot;
import io.colocation.koordlet.qos.QoSContext;
import io.colocation.koordlet.qos.QoSStrategies;
import io.colocation.model.document.ExplainArguments;
import io.colocation.koordlet.qos.Victim;
import io.colocation.koordlet.qos.cpusuppress.CpuSuppressDecision;
import io.colocation.koordlet.qos.evict.EvictionDecision;
import java.io.InputStream;
import java.io.PrintStream;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code colocation koordlet explain}: what the koordlet decides for one node from a snapshot (CPU suppress,
 * memory and CPU eviction), with the arithmetic, by the same code the running agent uses.
 */
public final class KoordletExplainCommand {
    static final String USAGE = """
            Usage: colocation koordlet explain -f PATH [-f PATH ...] [--node NAME] [-o text|json]

            Prints what the koordlet decides for one node in one round: the BE tier's CPU suppress budget, cpuset
            and CFS quota, and the memory and CPU evictions (what each strategy releases, its order, its victims).

              -f, --filename PATH   a file of objects (YAML or JSON, multi-document, kind: List), or - for standard
                                    input; repeat for several. Reads Node, Pod, NodeMetric and NodeSLO
                                    (slo.koordinator.sh/v1alpha1) and an optional KoordletState
                                    (colocation.io/v1alpha1: featureGates, cpuTopology, besteffort,
                                    collectIntervalSeconds, yarnContainers); skips other kinds.
                  --node NAME       the node, when the input has several
              -o, --output FORMAT   text (default) or json

            Example:
              kubectl get node n1 -o yaml > n1.yaml
              kubectl get pods -A --field-selector spec.nodeName=n1 -o yaml > pods.yaml
              kubectl get nodemetric n1 -o yaml > nm.yaml; kubectl get nodeslo n1 -o yaml > slo.yaml
              colocation koordlet explain -f n1.yaml -f pods.yaml -f nm.yaml -f slo.yaml
            """;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private KoordletExplainCommand() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.in, System.out, System.err));
    }

    /** Runs the command; returns the exit code (0 done, 1 bad input, 2 bad usage). */
    static int run(String[] args, InputStream stdin, PrintStream out, PrintStream err) {
        ExplainArguments.Outcome parsed = ExplainArguments.read(args, Instant.EPOCH, List.of("--node"), "colocation koordlet explain", USAGE, out, err);
        if (parsed.arguments() == null) {
            return parsed.exitCode();
        }
        ExplainArguments a = parsed.arguments();
        List<String> files = a.files();
        String node = a.options().get("--node");
        String format = a.format();
        try {
            SnapshotReader.Result input = SnapshotReader.read(files, node, stdin);
            Map<String, Object> result = explain(input.snapshot(), input.notes());
            if (format.equals("json")) {
                out.println(JSON.writeValueAsString(result));
            } else {
                printText(result, out);
            }
            return 0;
        } catch (InvalidInputException e) {
            err.println("colocation koordlet explain: " + e.getMessage());
            return 1;
        } catch (JsonProcessingException e) {
            err.println("colocation koordlet explain: cannot write the result: " + e.getMessage());
            return 1;
        } catch (RuntimeException e) {
            // An input shape no check foresaw: said plainly rather than with a stack trace.
            err.println("colocation koordlet explain: " + ExplainArguments.unforeseen(e));
            return 1;
        }
    }

    /** The decisions for one snapshot, in the command's JSON shape. */
    static Map<String, Object> explain(NodeSnapshot s, List<String> notes) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("node", s.nodeName());
        QoSContext context = QoSContext.offline();
        CpuSuppressDecision suppress = QoSStrategies.CPU_SUPPRESS.decide(s, context);
        Map<String, Object> cpu = new LinkedHashMap<>();
        cpu.put("enabled", suppress.enabled());
        cpu.put("policy", suppress.policy());
        cpu.put("beMilliCPU", suppress.beMilliCpu());
        cpu.put("cpusetCPUs", suppress.cpusetCpus());
        cpu.put("cfsQuotaMicros", suppress.cfsQuotaMicros());
        cpu.put("cpusetWritten", suppress.cpusetWritten());
        cpu.put("cfsQuotaWritten", suppress.quotaWritten());
        cpu.put("explain", suppress.explain());
        out.put("cpuSuppress", cpu);
        out.put("memoryEvict", eviction(QoSStrategies.MEMORY_EVICT.decide(s, context)));
        out.put("cpuEvict", eviction(QoSStrategies.CPU_EVICT.decide(s, context)));
        out.put("notes", notes);
        return out;
    }

    private static Map<String, Object> eviction(EvictionDecision d) {
        Map<String, Object> strategies = new LinkedHashMap<>();
        d.strategies().forEach((gate, st) -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("release", st.release());
            m.put("candidates", victims(st.candidates()));
            m.put("victims", victims(st.victims()));
            strategies.put(gate, m);
        });
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("strategies", strategies);
        out.put("victims", victims(d.victims()));
        out.put("explain", d.explain());
        return out;
    }

    private static List<Map<String, Object>> victims(List<Victim> victims) {
        return victims.stream().map(Victim::toJson).toList();
    }

    @SuppressWarnings("unchecked")
    private static void printText(Map<String, Object> r, PrintStream out) {
        out.println("Node " + r.get("node"));
        Map<String, Object> cpu = (Map<String, Object>) r.get("cpuSuppress");
        out.println();
        out.println("CPU suppress (" + (Boolean.TRUE.equals(cpu.get("enabled")) ? "on" : "off") + ", policy " + cpu.get("policy")
                + "): BE budget " + cpu.get("beMilliCPU") + "m; BE cpuset " + cpu.get("cpusetCPUs") + ", CFS quota "
                + cpu.get("cfsQuotaMicros"));
        ((List<String>) cpu.get("explain")).forEach(line -> out.println("  " + line));
        for (String area : List.of("memoryEvict", "cpuEvict")) {
            Map<String, Object> e = (Map<String, Object>) r.get(area);
            Map<String, Map<String, Object>> strategies = (Map<String, Map<String, Object>>) e.get("strategies");
            out.println();
            out.println((area.equals("memoryEvict") ? "Memory eviction" : "CPU eviction") + ": "
                    + (strategies.isEmpty() ? "no strategy enabled (feature gates)" : String.join(", ", strategies.keySet())));
            strategies.forEach((gate, st) -> out.println("  " + gate + ": release " + st.get("release") + "; order "
                    + names((List<Map<String, Object>>) st.get("candidates")) + "; evicts "
                    + names((List<Map<String, Object>>) st.get("victims"))));
            ((List<String>) e.get("explain")).forEach(line -> out.println("  " + line));
            out.println("  victims: " + names((List<Map<String, Object>>) e.get("victims")));
        }
        List<String> notes = (List<String>) r.get("notes");
        if (!notes.isEmpty()) {
            out.println();
            notes.forEach(n -> out.println("note: " + n));
        }
    }

    private static List<String> names(List<Map<String, Object>> victims) {
        return victims.stream().map(v -> v.get("kind").equals("Pod") ? v.get("namespace") + "/" + v.get("name")
                : "yarn:" + v.get("id")).toList();
    }
}
