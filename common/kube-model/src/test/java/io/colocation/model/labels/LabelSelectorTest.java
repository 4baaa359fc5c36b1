package io.colocation.model.labels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The one label-selector matcher: apimachinery's operators, node selectors' Gt/Lt, and what it refuses to compile. */
class LabelSelectorTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    static Stream<Arguments> operators() {
        return Stream.of(
                // operator, label value (null: absent), values, holds
                Arguments.of("In", "a", List.of("a", "b"), true),
                Arguments.of("In", "c", List.of("a", "b"), false),
                Arguments.of("In", null, List.of("a"), false),
                Arguments.of("NotIn", "c", List.of("a", "b"), true),
                Arguments.of("NotIn", "a", List.of("a", "b"), false),
                Arguments.of("NotIn", null, List.of("a"), true),
                Arguments.of("Exists", "", List.of(), true),
                Arguments.of("Exists", null, List.of(), false),
                Arguments.of("DoesNotExist", null, List.of(), true),
                Arguments.of("DoesNotExist", "x", List.of(), false),
                Arguments.of("Gt", "8", List.of("4"), true),
                Arguments.of("Gt", "4", List.of("4"), false),
                Arguments.of("Lt", "3", List.of("4"), true),
                Arguments.of("Lt", "x", List.of("4"), false),
                Arguments.of("Gt", "8", List.of("4", "5"), false),
                Arguments.of("Gt", null, List.of("4"), false),
                Arguments.of("Near", "a", List.of("a"), false),
                Arguments.of(null, "a", List.of("a"), false));
    }

    @ParameterizedTest(name = "{0} over {1} in {2}: {3}")
    @MethodSource("operators")
    void operatorsHoldAsKubernetesDefinesThem(String operator, String value, List<String> values, boolean holds) {
        assertEquals(holds, LabelSelector.Requirement.holds(operator, value, values));
    }

    @Test
    void everyTermMustHoldAndAnEmptySelectorMatchesEverything() {
        LabelSelector s = new LabelSelector(Map.of("pool", "batch"), List.of(
                new LabelSelector.Requirement("zone", "In", List.of("a", "b")),
                new LabelSelector.Requirement("gpu", "DoesNotExist", List.of())));
        assertTrue(s.matches(Map.of("pool", "batch", "zone", "a")));
        assertFalse(s.matches(Map.of("pool", "batch", "zone", "c")));
        assertFalse(s.matches(Map.of("pool", "batch", "zone", "a", "gpu", "t4")));
        assertFalse(s.matches(Map.of("zone", "a")));
        assertFalse(s.matches(null));
        assertTrue(LabelSelector.EVERYTHING.matches(null));
        assertTrue(LabelSelector.EVERYTHING.isEmpty());
    }

    @Test
    void readsTheJsonOfAnApiObject() throws Exception {
        LabelSelector s = LabelSelector.fromJson(JSON.readTree("""
                {"matchLabels": {"app": "spark"},
                 "matchExpressions": [{"key": "tier", "operator": "NotIn", "values": ["online"]}]}"""));
        assertEquals(Map.of("app", "spark"), s.matchLabels());
        assertEquals(List.of(new LabelSelector.Requirement("tier", "NotIn", List.of("online"))), s.matchExpressions());
        assertTrue(s.matches(Map.of("app", "spark")));
        assertEquals(LabelSelector.EVERYTHING, LabelSelector.fromJson(null));
        assertTrue(LabelSelector.fromJson(JSON.readTree("{}")).isEmpty());
    }

    @Test
    void refusesWhatApimachineryRefuses() {
        assertEquals(List.of(), new LabelSelector(Map.of("example.com/app", "spark-1"), List.of(
                new LabelSelector.Requirement("a", "Exists", List.of()))).problems());
        assertEquals(List.of("for 'in', 'notin' operators, values set can't be empty"),
                new LabelSelector.Requirement("a", "In", List.of()).problems());
        assertEquals(List.of("values set must be empty for exists and does not exist"),
                new LabelSelector.Requirement("a", "DoesNotExist", List.of("x")).problems());
        assertEquals(List.of("\"Gt\" is not a valid label selector operator (In, NotIn, Exists, DoesNotExist)"),
                new LabelSelector.Requirement("a", "Gt", List.of("1")).problems());
        List<String> syntax = new LabelSelector(Map.of("Bad_/x", "-v"), List.of()).problems();
        assertEquals(2, syntax.size(), syntax.toString());
        assertTrue(syntax.get(0).startsWith("key \"Bad_/x\": prefix part must be a DNS subdomain"), syntax.toString());
        assertTrue(syntax.get(1).startsWith("value \"-v\": a valid label"), syntax.toString());
    }
}
