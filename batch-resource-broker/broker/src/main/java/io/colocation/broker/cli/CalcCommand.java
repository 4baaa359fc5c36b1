package io.colocation.broker.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.colocation.api.KoordinatorKeys;
import io.colocation.api.ResourceNames;
import io.colocation.broker.calculation.NodeReclaim;
import io.colocation.model.config.ColocationConfig;
import io.colocation.model.config.ColocationConfigParser;
import io.colocation.model.config.InvalidConfigException;
import io.colocation.model.document.ExplainArguments;
import io.colocation.model.document.KubeDocuments;
import io.colocation.api.InvalidInputException;
import io.colocation.broker.calculation.NodeCalculation;
import io.colocation.broker.calculation.NodeStateReader;
import io.colocation.broker.calculation.NodeMetricInputs;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.io.InputStream;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code colocation calc}: explains a node's Batch and Mid numbers from {@code kubectl get -o yaml}
 * output, computing exactly what Koordinator's slo-controller would write to the node.
 */
public final class CalcCommand {
    static final String USAGE = """
            Usage: colocation calc -f PATH [-f PATH ...] [--now RFC3339] [-o text|json]

            Computes each node's reclaimable Batch and Mid resources as Koordinator's slo-controller does,
            and explains every figure.

              -f, --filename PATH   a file of Kubernetes objects (YAML or JSON, multi-document, kind: List),
                                    or - for standard input; repeat for several files. Reads Node, Pod,
                                    NodeMetric (slo.koordinator.sh/v1alpha1) and the ConfigMap
                                    slo-controller-config (defaults when absent); skips other kinds.
                  --now RFC3339     the current time for NodeMetric staleness (default: the clock)
              -o, --output FORMAT   text (default) or json

            Example:
              kubectl get node n1 -o yaml > n1.yaml
              kubectl get pods -A --field-selector spec.nodeName=n1 -o yaml > pods.yaml
              kubectl get nodemetric n1 -o yaml > nm.yaml
              kubectl -n koordinator-system get cm slo-controller-config -o yaml > slo.yaml
              colocation calc -f n1.yaml -f pods.yaml -f nm.yaml -f slo.yaml
            """;
    private static final ObjectMapper JSON = new ObjectMapper();

    private CalcCommand() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.in, System.out, System.err, Clock.systemUTC()));
    }

    /** Runs the command; returns the exit code (0 done, 1 bad input, 2 bad usage). */
    static int run(String[] args, InputStream stdin, PrintStream out, PrintStream err, Clock clock) {
        ExplainArguments.Outcome parsed = ExplainArguments.read(args, clock.instant(), List.of(), "colocation calc", USAGE, out, err);
        if (parsed.arguments() == null) {
            return parsed.exitCode();
        }
        ExplainArguments a = parsed.arguments();
        List<String> files = a.files();
        Instant now = a.now();
        String format = a.format();
        try {
            List<NodeReclaim> results = calculate(files, stdin, now, err);
            if (format.equals("json")) {
                out.println(JSON.writeValueAsString(toJson(results)));
            } else {
                printText(results, out);
            }
            return 0;
        } catch (CalcException | InvalidInputException e) {
            err.println("colocation calc: " + e.getMessage());
            return 1;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            err.println("colocation calc: cannot write the result: " + e.getMessage());
            return 1;
        } catch (RuntimeException e) {
            // An input shape no check above foresaw: say so plainly rather than with a stack trace.
            err.println("colocation calc: " + ExplainArguments.unforeseen(e));
            return 1;
        }
    }

    static List<NodeReclaim> calculate(List<String> files, InputStream stdin, Instant now, PrintStream warnings)
            throws CalcException, InvalidInputException {
        Map<String, KubeDocuments.Sourced> nodes = new LinkedHashMap<>();
        Map<String, List<Pod>> podsByNode = new LinkedHashMap<>();
        Map<String, KubeDocuments.Sourced> nodeMetrics = new LinkedHashMap<>();
        Map<String, String> podSources = new LinkedHashMap<>();
        KubeDocuments.Sourced sloConfig = null;
        for (String file : files) {
            for (KubeDocuments.Sourced doc : KubeDocuments.read(file, stdin)) {
                String kind = doc.kind();
                String apiVersion = doc.object().path("apiVersion").asText("");
                if (List.of("Node", "Pod", "NodeMetric").contains(kind)
                        && doc.object().path("metadata").path("name").asText("").isEmpty()) {
                    throw new CalcException(doc.file() + ": a " + kind + " without metadata.name");
                }
                if (kind.equals("Node")) {
                    if (nodes.putIfAbsent(doc.name(), doc) != null) {
                        throw new CalcException(doc.file() + ": Node " + doc.name() + " is given twice");
                    }
                } else if (kind.equals("Pod")) {
                    Pod pod = doc.as(Pod.class);
                    String previous = podSources.put(doc.name(), doc.file());
                    if (previous != null) {
                        throw new CalcException(doc.file() + ": Pod " + doc.name() + " is given twice (also in " + previous + ")");
                    }
                    try {
                        NodeStateReader.pod(pod, new ArrayList<>());
                    } catch (InvalidInputException e) {
                        throw new CalcException(doc.file() + ": " + e.getMessage());
                    }
                    String nodeName = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
                    if (nodeName != null && !nodeName.isEmpty()) {
                        podsByNode.computeIfAbsent(nodeName, k -> new ArrayList<>()).add(pod);
                    }
                } else if (kind.equals("NodeMetric") && apiVersion.startsWith("slo.koordinator.sh/")) {
                    if (nodeMetrics.put(doc.name(), doc) != null) {
                        throw new CalcException(doc.file() + ": NodeMetric " + doc.name() + " is given twice");
                    }
                } else if (kind.equals("ConfigMap") && doc.object().path("metadata").path("name").asText()
                        .equals(KoordinatorKeys.SLO_CONFIGMAP_NAME)) {
                    if (sloConfig != null) {
                        throw new CalcException(doc.file() + ": ConfigMap " + doc.name() + ": a second "
                                + KoordinatorKeys.SLO_CONFIGMAP_NAME + " (the first is " + sloConfig.name() + " in " + sloConfig.file() + ")");
                    }
                    sloConfig = doc;
                } else {
                    warnings.println("colocation calc: warning: " + doc.file() + ": skipped " + (kind.isEmpty() ? "an object without kind" : kind + " " + doc.name())
                            + " (calc reads Node, Pod, NodeMetric and ConfigMap " + KoordinatorKeys.SLO_CONFIGMAP_NAME + ")");
                }
            }
        }
        for (KubeDocuments.Sourced metric : nodeMetrics.values()) {
            if (!nodes.containsKey(metric.name())) {
                throw new CalcException(metric.file() + ": NodeMetric " + metric.name() + " names no Node in the input");
            }
        }
        if (nodes.isEmpty()) {
            throw new CalcException("no Node in the input (" + String.join(", ", files) + ")");
        }
        for (Map.Entry<String, List<Pod>> bound : podsByNode.entrySet()) {
            if (!nodes.containsKey(bound.getKey())) {
                for (Pod pod : bound.getValue()) {
                    String ns = pod.getMetadata().getNamespace();
                    String name = ns == null || ns.isEmpty() ? pod.getMetadata().getName() : ns + "/" + pod.getMetadata().getName();
                    warnings.println("colocation calc: warning: " + podSources.get(name) + ": Pod " + name
                            + " is bound to Node " + bound.getKey() + ", which is not in the input: not counted");
                }
            }
        }
        ColocationConfig config = ColocationConfig.defaults();
        if (sloConfig != null) {
            JsonNode value = sloConfig.object().path("data").path(KoordinatorKeys.COLOCATION_CONFIG_KEY);
            if (!value.isMissingNode() && !value.isNull() && !value.isTextual()) {
                throw new CalcException(sloConfig.file() + ": ConfigMap " + sloConfig.name() + ": data."
                        + KoordinatorKeys.COLOCATION_CONFIG_KEY + " must be a string holding JSON (write it as "
                        + KoordinatorKeys.COLOCATION_CONFIG_KEY + ": |, then the JSON indented below), found a YAML "
                        + value.getNodeType().name().toLowerCase(java.util.Locale.ROOT));
            }
            if (value.isMissingNode()) {
                warnings.println("colocation calc: warning: " + sloConfig.file() + ": ConfigMap " + sloConfig.name() + " has no data."
                        + KoordinatorKeys.COLOCATION_CONFIG_KEY + ": Koordinator's defaults apply (colocation disabled)");
            }
            String json = value.isTextual() ? value.textValue() : null;
            try {
                config = ColocationConfigParser.parse(json, sloConfig.file() + ": ConfigMap " + sloConfig.name()
                        + ": data." + KoordinatorKeys.COLOCATION_CONFIG_KEY);
            } catch (InvalidConfigException e) {
                throw new CalcException(e.getMessage());
            }
        }

        List<NodeReclaim> results = new ArrayList<>();
        for (KubeDocuments.Sourced nodeDoc : nodes.values()) {
            Node node = nodeDoc.as(Node.class);
            KubeDocuments.Sourced metricDoc = nodeMetrics.get(nodeDoc.name());
            NodeCalculation.Metric metric;
            if (metricDoc == null) {
                metric = NodeCalculation.Metric.unusable("no NodeMetric " + nodeDoc.name() + " in the input");
            } else {
                io.colocation.model.slo.NodeMetric typed = metricDoc.as(io.colocation.model.slo.NodeMetric.class); // names the file
                try {
                    metric = NodeCalculation.Metric.of(NodeMetricInputs.read(typed));
                } catch (InvalidInputException e) {
                    throw new CalcException(metricDoc.file() + ": " + e.getMessage());
                }
            }
            NodeCalculation.Outcome outcome = NodeCalculation.calculate(config, node,
                    podsByNode.getOrDefault(nodeDoc.name(), List.of()), metric, now);
            if (outcome.invalidInput() != null) {
                throw new CalcException(nodeDoc.file() + ": " + outcome.invalidInput());
            }
            for (String note : outcome.notes()) {
                warnings.println("colocation calc: note: Node " + nodeDoc.name() + ": " + note);
            }
            results.add(outcome.reclaim());
        }
        return results;
    }

    static Map<String, Object> toJson(List<NodeReclaim> results) {
        List<Object> nodes = new ArrayList<>();
        for (NodeReclaim r : results) {
            Map<String, Object> node = new LinkedHashMap<>();
            node.put("name", r.name());
            node.put("allocatable", r.allocatable());
            Map<String, Long> origin = new LinkedHashMap<>();
            origin.put(ResourceNames.BATCH_CPU, r.originBatch().cpuMilli());
            origin.put(ResourceNames.BATCH_MEMORY, r.originBatch().memoryBytes());
            node.put("originExtendedAllocatable", origin);
            node.put("degraded", r.degraded());
            node.put("explain", r.explain());
            nodes.add(node);
        }
        return Map.of("nodes", nodes);
    }

    private static void printText(List<NodeReclaim> results, PrintStream out) {
        String header = "%-24s %12s %16s %12s %16s %14s %16s %s%n";
        out.printf(header, "NODE", "BATCH-CPU(m)", "BATCH-MEMORY(B)", "MID-CPU(m)", "MID-MEMORY(B)", "ORIGIN-CPU(m)",
                "ORIGIN-MEMORY(B)", "DEGRADED");
        for (NodeReclaim r : results) {
            out.printf(header, r.name(), cell(r, ResourceNames.BATCH_CPU), cell(r, ResourceNames.BATCH_MEMORY),
                    cell(r, ResourceNames.MID_CPU), cell(r, ResourceNames.MID_MEMORY), r.originBatch().cpuMilli(),
                    r.originBatch().memoryBytes(), r.degraded());
        }
        for (NodeReclaim r : results) {
            out.println();
            out.println(r.name() + ":");
            r.explain().forEach(line -> out.println("  " + line));
        }
        out.println();
        out.println("A '-' resource is removed from the node (reset: colocation disabled or NodeMetric missing/stale).");
    }

    private static String cell(NodeReclaim r, String resource) {
        Long v = r.allocatable().get(resource);
        return v == null ? "-" : v.toString();
    }
}
