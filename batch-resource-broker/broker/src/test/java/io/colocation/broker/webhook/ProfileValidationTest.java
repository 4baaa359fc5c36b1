package io.colocation.broker.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Which profiles the pod webhook skips, and which the validating webhook refuses at apply, each problem naming its field. */
class ProfileValidationTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private static ColocationProfile profile(String spec) throws Exception {
        return ColocationProfile.read(YAML.readTree("""
                apiVersion: config.koordinator.sh/v1alpha1
                kind: ClusterColocationProfile
                metadata: {name: p}
                spec:
                """ + spec.indent(2)), "p");
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                // spec, skipped by the pod webhook (fragment or ""), refused at apply (fragment or "")
                Arguments.of("selector: {matchLabels: {app: web}}\nprobability: 50", "", ""),
                Arguments.of("probability: \"100%\"", "", ""),
                Arguments.of("probability: \"0%\"", "", ""),
                Arguments.of("selector: {matchExpressions: [{key: app, operator: in, values: [web]}]}",
                        "spec.selector: \"in\" is not a valid label selector operator", "spec.selector"),
                Arguments.of("namespaceSelector: {matchExpressions: [{key: team, operator: In}]}",
                        "spec.namespaceSelector: for 'in', 'notin' operators, values set can't be empty", "spec.namespaceSelector"),
                Arguments.of("selector: {matchExpressions: [{key: app, operator: Exists, values: [x]}]}",
                        "values set must be empty", "values set must be empty"),
                Arguments.of("selector: {matchLabels: {\"a b\": x}}", "key \"a b\"", "key \"a b\""),
                Arguments.of("probability: \"50\"", "spec.probability: \"50\" is not a percentage", "spec.probability"),
                Arguments.of("probability: \"abc%\"", "spec.probability: \"abc%\" is not a percentage", "spec.probability"),
                Arguments.of("probability: 4294967396", "spec.probability: 4294967396 is not an int32", "spec.probability"),
                Arguments.of("probability: 150", "", "spec.probability: 150 is not from 0 to 100"),
                Arguments.of("probability: -5", "", "spec.probability: -5 is not from 0 to 100"),
                Arguments.of("probability: \"101%\"", "", "spec.probability: \"101%\" is not from 0 to 100"),
                Arguments.of("patch: [1, 2]", "spec.patch: must be an object", "spec.patch: must be an object"),
                Arguments.of("labels: {app: \"not a value\"}", "", "spec.labels.app: value \"not a value\""),
                Arguments.of("labels: {\"-bad\": x}", "", "spec.labels: key \"-bad\""),
                Arguments.of("labelSuffixes: {app: \"" + "x".repeat(64) + "\"}", "", "spec.labelSuffixes.app"),
                Arguments.of("labelSuffixes: {app: \"-end-\"}", "", "spec.labelSuffixes.app: \"-end-\" cannot end a label value"),
                Arguments.of("labelKeysMapping: {app: \"not/a/key\"}", "", "spec.labelKeysMapping.app: key \"not/a/key\""),
                Arguments.of("priorityClassName: Koord_Batch", "", "spec.priorityClassName: \"Koord_Batch\" is not a PriorityClass name"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void skippedAndRefused(String spec, String skipped, String refused) throws Exception {
        ColocationProfile p = profile(spec);
        List<String> unusable = ProfileValidation.unusable(p);
        List<String> problems = ProfileValidation.problems(p);
        assertEquals(unusable, p.problems(), "the profile carries what makes it unusable");
        if (skipped.isEmpty()) {
            assertTrue(unusable.isEmpty(), unusable.toString());
        } else {
            assertTrue(unusable.stream().anyMatch(u -> u.contains(skipped)), unusable.toString());
        }
        if (refused.isEmpty()) {
            assertTrue(problems.isEmpty(), problems.toString());
        } else {
            assertTrue(problems.stream().anyMatch(u -> u.contains(refused)), problems.toString());
            assertTrue(problems.containsAll(unusable), "what the pod webhook skips is refused at apply too");
        }
    }
}
