package io.colocation.broker.nodeagent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The ValidatingAdmissionPolicy of conf/kubernetes/optional/node-agent-policy-1.30.yaml, evaluated as the API server
 * evaluates it (its match condition, then its variables, then every validation; Google's CEL for Java, the language
 * Kubernetes runs) against the node agent's requests: the same verdicts as the node-agent webhook where both judge.
 */
class NodeAgentPolicyTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNode POLICY = policy();
    private static final CelCompiler COMPILER = CelCompilerFactory.standardCelCompilerBuilder()
            .addVar("request", SimpleType.DYN).addVar("object", SimpleType.DYN).addVar("oldObject", SimpleType.DYN)
            .addVar("variables", SimpleType.DYN).build();
    private static final CelRuntime RUNTIME = CelRuntimeFactory.standardCelRuntimeBuilder().build();
    private static final String AGENT = "system:serviceaccount:koordinator-system:koordlet";
    private static final String SPEC = "{\"limit\": {\"cpu\": \"1\", \"memory\": \"1Gi\"}, \"expires\": \"2026-11-23T10:00:40Z\"}";

    private static JsonNode policy() {
        try {
            return new ObjectMapper(new YAMLFactory()).readTree(Path.of("../../conf/kubernetes/optional/node-agent-policy-1.30.yaml")
                    .toFile());
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The request of {@code user} on node {@code node} (null: a token without the node claim). */
    private static ObjectNode request(String user, String node, String group, String resource, String sub, String kind, String op) {
        ObjectNode r = JSON.createObjectNode().put("operation", op).put("subResource", sub);
        r.putObject("resource").put("group", group).put("version", "v1").put("resource", resource);
        r.putObject("kind").put("group", group).put("version", "v1").put("kind", kind);
        ObjectNode info = r.putObject("userInfo").put("username", user);
        ObjectNode extra = info.putObject("extra");
        if (node != null) {
            extra.putArray("authentication.kubernetes.io/node-name").add(node);
        }
        return r;
    }

    private static JsonNode object(String name, String spec) throws Exception {
        return JSON.readTree("{\"metadata\": {\"name\": \"" + name + "\"}, \"spec\": " + spec + "}");
    }

    static Stream<Arguments> requests() throws Exception {
        ObjectNode release = request(AGENT, "node-a", "colocation.io", "yarnreleases", "", "YarnRelease", "CREATE");
        ObjectNode status = request(AGENT, "node-a", "slo.koordinator.sh", "nodemetrics", "status", "NodeMetric", "UPDATE");
        ObjectNode spec = request(AGENT, "node-a", "slo.koordinator.sh", "nodemetrics", "", "NodeMetric", "UPDATE");
        ObjectNode nodeUpdate = request(AGENT, "node-a", "", "nodes", "", "Node", "UPDATE");
        ObjectNode unclaimed = request(AGENT, null, "colocation.io", "yarnreleases", "", "YarnRelease", "CREATE");
        ObjectNode admin = request("admin", null, "", "nodes", "", "Node", "UPDATE");
        return Stream.of(
                // name, request, object, allowed, message of the first refusal
                Arguments.of("its own node's release", release, object("node-a", SPEC), true, ""),
                Arguments.of("another node's release", release, object("node-b", SPEC), false,
                        "the node agent on node-a may write the YarnRelease of its own node only, not node-b"),
                Arguments.of("its own NodeMetric's status", status, object("node-a", "{}"), true, ""),
                Arguments.of("another node's NodeMetric status", status, object("node-b", "{}"), false,
                        "the node agent on node-a may write the NodeMetric of its own node only, not node-b"),
                Arguments.of("a NodeMetric's spec", spec, object("node-a", "{}"), false, "a NodeMetric's spec is the broker's"),
                Arguments.of("its own Node", nodeUpdate, object("node-a", "{\"unschedulable\": true}"), false,
                        "the node agent writes no Node (its releases are YarnRelease objects, its reports NodeMetric status)"),
                Arguments.of("another Node", nodeUpdate, object("node-b", "{}"), false, "the node agent writes no Node"),
                Arguments.of("a token without the node claim", unclaimed, object("node-a", SPEC), false,
                        "the node agent on no node (a token without the node claim) may write the YarnRelease of its own node only"),
                Arguments.of("anyone else: not matched", admin, object("node-b", "{\"unschedulable\": true}"), true, ""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("requests")
    void judged(String name, ObjectNode request, JsonNode object, boolean allowed, String message) throws Exception {
        Map<String, Object> inputs = new HashMap<>();
        inputs.put("request", plain(request));
        inputs.put("object", plain(object));
        inputs.put("oldObject", plain(object));
        List<String> refusals = new ArrayList<>();
        boolean matched = true;
        for (JsonNode condition : POLICY.at("/spec/matchConditions")) {
            matched &= (Boolean) eval(condition.path("expression").asText(), inputs);
        }
        if (matched) {
            Map<String, Object> variables = new LinkedHashMap<>();
            inputs.put("variables", variables);
            for (JsonNode v : POLICY.at("/spec/variables")) {
                variables.put(v.path("name").asText(), eval(v.path("expression").asText(), inputs));
            }
            for (JsonNode v : POLICY.at("/spec/validations")) {
                if (!(Boolean) eval(v.path("expression").asText(), inputs)) {
                    refusals.add(v.has("messageExpression") ? (String) eval(v.path("messageExpression").asText(), inputs)
                            : v.path("message").asText());
                }
            }
        }
        assertEquals(allowed, refusals.isEmpty(), refusals.toString());
        if (!allowed) {
            assertTrue(refusals.get(0).startsWith(message), refusals.toString());
        }
    }

    private static Object eval(String expression, Map<String, Object> inputs) throws Exception {
        return RUNTIME.createProgram(COMPILER.compile(expression).getAst()).eval(inputs);
    }

    /** JSON as CEL's dynamic values: maps, lists, strings, longs, doubles, booleans. */
    private static Object plain(JsonNode n) {
        if (n.isObject()) {
            Map<String, Object> m = new LinkedHashMap<>();
            n.fields().forEachRemaining(e -> m.put(e.getKey(), plain(e.getValue())));
            return m;
        }
        if (n.isArray()) {
            List<Object> l = new ArrayList<>();
            n.forEach(e -> l.add(plain(e)));
            return l;
        }
        if (n.isIntegralNumber()) {
            return n.asLong();
        }
        if (n.isNumber()) {
            return n.asDouble();
        }
        return n.isBoolean() ? (Object) n.asBoolean() : n.asText();
    }
}
