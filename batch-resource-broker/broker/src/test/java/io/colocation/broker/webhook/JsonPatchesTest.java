package io.colocation.broker.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.zjsonpatch.JsonPatch;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** The webhook's JSON patch: applied (by zjsonpatch, as the API server applies RFC 6902) it makes the target, in ops that grow with the change. */
class JsonPatchesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    static Stream<Arguments> pairs() {
        return Stream.of(
                Arguments.of("{}", "{}"),
                Arguments.of("{\"a\": 1}", "{\"a\": 2}"),
                Arguments.of("{\"a\": 1, \"b\": 2}", "{\"b\": 2}"),
                Arguments.of("{\"a\": {\"x/y\": \"1\", \"t~\": 2}}", "{\"a\": {\"x/y\": \"2\", \"u~/\": 3}}"),
                Arguments.of("{\"l\": [1, 2, 3]}", "{\"l\": [1, 5, 3]}"),
                Arguments.of("{\"l\": [1, 2, 3]}", "{\"l\": [3, 2]}"),
                Arguments.of("{\"l\": [{\"n\": \"a\", \"r\": {\"cpu\": \"1\"}}]}", "{\"l\": [{\"n\": \"a\", \"r\": {\"kubernetes.io/batch-cpu\": \"1000\"}}]}"),
                Arguments.of("{\"a\": [1]}", "{\"a\": {\"b\": 1}}"),
                Arguments.of("{\"a\": null}", "{\"a\": \"x\"}"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("pairs")
    void thePatchMakesTheTarget(String from, String to) throws Exception {
        JsonNode a = JSON.readTree(from);
        JsonNode b = JSON.readTree(to);
        JsonNode patch = JsonPatches.diff(a, b);
        assertEquals(b, JsonPatch.apply(patch, a), patch.toString());
        patch.forEach(op -> assertTrue(op.get("op").asText().matches("add|remove|replace"), op.toString()));
    }

    /** 16,000 containers converted (a 1.2 MB pod): a few ops per container, found in one pass over the pod. */
    @Test
    void aPodOfSixteenThousandContainersTakesOpsInProportion() {
        ObjectNode pod = JSON.createObjectNode();
        ArrayNode containers = pod.putObject("spec").putArray("containers");
        for (int i = 0; i < 16_000; i++) {
            containers.addObject().put("name", "c" + i).putObject("resources").putObject("requests").put("cpu", "100m").put("memory", "1Mi");
        }
        ObjectNode converted = pod.deepCopy();
        converted.get("spec").get("containers").forEach(c -> {
            ObjectNode requests = (ObjectNode) c.get("resources").get("requests");
            requests.remove("cpu");
            requests.put("kubernetes.io/batch-cpu", "100");
        });
        JsonNode patch = JsonPatches.diff(pod, converted);
        assertEquals(2 * 16_000, patch.size(), "one remove and one add per container");
        assertEquals(converted, JsonPatch.apply(patch, pod));
    }
}
