package io.colocation.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The chart itself: lint clean, every part switchable, a wrong value refused by name, and its pods as real charts have them. */
class ChartTest {
    @Test
    void lintIsCleanStrict() {
        LintResult lint = new Helm(Charts.CHART).lint().strict().call();
        assertFalse(lint.isFailed(), String.join("\n", lint.getMessages()));
        assertTrue(lint.getMessages().stream().noneMatch(m -> m.contains("[WARNING]") || m.contains("[ERROR]")), lint.getMessages().toString());
    }

    @Test
    void theChartsVersionIsTheProjects() throws Exception {
        String pom = Files.readString(Path.of("pom.xml"));
        String version = pom.substring(pom.indexOf("<version>") + 9, pom.indexOf("</version>"));
        String chart = Files.readString(Charts.CHART.resolve("Chart.yaml"));
        assertTrue(chart.contains("\nversion: " + version + "\n") && chart.contains("\nappVersion: " + version + "\n"), chart);
    }

    static Stream<Arguments> wrongValues() {
        return Stream.of(
                Arguments.of("broker.replicas", "two", "/broker/replicas"),
                Arguments.of("broker.replicaz", 2, "replicaz"),
                Arguments.of("broker.policy", "greedy", "/broker/policy"),
                Arguments.of("broker.webhook.certificate", "selfsigned", "/broker/webhook/certificate"),
                Arguments.of("koordlet.copilotUrl", "http://10.0.0.5:8049", "/koordlet/copilotUrl"),
                Arguments.of("nodeManager.localDir", "relative/dir", "/nodeManager/localDir"),
                Arguments.of("image.pullPolicy", "Sometimes", "/image/pullPolicy"));
    }

    /** values.schema.json: a wrong value is refused before anything is rendered or installed, with its path. */
    @ParameterizedTest(name = "{0}={1}")
    @MethodSource("wrongValues")
    void aWrongValueIsRefusedNamed(String key, Object value, String named) {
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> Charts.template().set(key, value).call());
        assertTrue(refused.getMessage().contains(named) && refused.getMessage().contains("schema"), refused.getMessage());
    }

    @Test
    void everyPartIsSwitchable() throws Exception {
        List<JsonNode> none = Charts.objects(Charts.template().skipCrds().set("broker.enabled", false).set("scheduler.enabled", false)
                .set("koordlet.enabled", false).set("priorityClasses.create", false).set("sloControllerConfig.create", false).call());
        assertEquals(List.of(), none.stream().map(o -> o.path("kind").asText() + "/" + o.at("/metadata/name").asText()).toList());
        List<JsonNode> all = Charts.objects(Charts.template().set("nodeManager.enabled", true).call());
        for (String name : List.of("Deployment/colocation-broker", "Deployment/koord-scheduler", "DaemonSet/koordlet",
                "DaemonSet/yarn-nodemanager", "MutatingWebhookConfiguration/colocation-pod-mutating",
                "ValidatingWebhookConfiguration/colocation-validating", "ConfigMap/slo-controller-config", "PriorityClass/koord-batch",
                "Service/colocation-broker")) {
            assertTrue(all.stream().anyMatch(o -> (o.path("kind").asText() + "/" + o.at("/metadata/name").asText()).equals(name)), name);
        }
    }

    /**
     * Security contexts as real charts have them: non-root, read-only root, every capability dropped, for all but the
     * koordlet (root and privileged, saying why); requests and limits; probes; a disruption budget for the 2-replica parts.
     */
    @Test
    void podsAreLockedDownAndBudgeted() throws Exception {
        List<JsonNode> objects = Charts.objects(Charts.template().skipCrds().call());
        for (JsonNode o : objects) {
            String kind = o.path("kind").asText();
            if (!kind.equals("Deployment") && !kind.equals("DaemonSet")) {
                continue;
            }
            String name = o.at("/metadata/name").asText();
            for (JsonNode c : o.at("/spec/template/spec/containers")) {
                JsonNode sc = c.get("securityContext");
                assertTrue(c.at("/resources/requests").size() > 0 && c.at("/resources/limits/memory").isTextual(), name + " resources");
                assertTrue(c.has("startupProbe") && c.has("livenessProbe") && c.has("readinessProbe"), name + " probes");
                assertTrue(sc.path("readOnlyRootFilesystem").asBoolean(), name + " read-only root");
                if (name.equals("koordlet")) {
                    assertTrue(sc.path("privileged").asBoolean(), "the koordlet writes the host's cgroups");
                } else {
                    assertTrue(sc.path("runAsNonRoot").asBoolean() && !sc.path("allowPrivilegeEscalation").asBoolean(true), name);
                    assertEquals("ALL", sc.at("/capabilities/drop/0").asText(), name);
                }
            }
            if (kind.equals("Deployment")) {
                assertTrue(objects.stream().anyMatch(p -> p.path("kind").asText().equals("PodDisruptionBudget")
                        && p.at("/metadata/name").asText().equals(name)), name + " has a PodDisruptionBudget");
            }
        }
    }

    /** scheduler.config: the scheduler reads that KubeSchedulerConfiguration, from a ConfigMap, and rolls when it changes. */
    @Test
    void theSchedulersConfigurationIsAValue(@TempDir Path dir) throws Exception {
        Path values = Files.writeString(dir.resolve("values.yaml"), """
                scheduler:
                  config:
                    apiVersion: kubescheduler.config.k8s.io/v1beta2
                    kind: KubeSchedulerConfiguration
                    profiles:
                      - schedulerName: koord-scheduler
                        pluginConfig:
                          - {name: LoadAwareScheduling, args: {usageThresholds: {cpu: 80}}}
                """);
        List<JsonNode> objects = Charts.objects(Charts.template().skipCrds().withValuesFile(values).call());
        JsonNode config = objects.stream().filter(o -> o.path("kind").asText().equals("ConfigMap")
                && o.at("/metadata/name").asText().equals("koord-scheduler-config")).findFirst().orElseThrow();
        JsonNode read = Charts.YAML.readTree(config.at("/data/config.yaml").asText());
        assertEquals(80, read.at("/profiles/0/pluginConfig/0/args/usageThresholds/cpu").asInt(), config.toString());
        JsonNode deployment = objects.stream().filter(o -> o.path("kind").asText().equals("Deployment")
                && o.at("/metadata/name").asText().equals("koord-scheduler")).findFirst().orElseThrow();
        JsonNode container = deployment.at("/spec/template/spec/containers/0");
        assertTrue(container.at("/env/0/value").asText().contains("-Dk8s-scheduler.profileFile=/etc/koord-scheduler/config.yaml"),
                container.toString());
        assertTrue(deployment.at("/spec/template/metadata/annotations/checksum~1config").isTextual(), "rolls on a change");
        List<JsonNode> defaults = Charts.objects(Charts.template().skipCrds().call());
        assertTrue(defaults.stream().noneMatch(o -> o.at("/metadata/name").asText().equals("koord-scheduler-config")),
                "no configuration by default: Koordinator's defaults");
    }

    /** Where Kubernetes 1.20 and later differ, the chart asks the version: PodDisruptionBudget's API. */
    @Test
    void theDisruptionBudgetsApiFollowsTheClustersVersion() throws Exception {
        for (Map.Entry<String, String> v : Map.of("1.20.2", "policy/v1beta1", "1.21.0", "policy/v1", "1.35.0", "policy/v1").entrySet()) {
            List<JsonNode> objects = Charts.objects(Charts.template().skipCrds().withKubeVersion(v.getKey()).call());
            assertTrue(objects.stream().filter(o -> o.path("kind").asText().equals("PodDisruptionBudget"))
                    .allMatch(o -> o.path("apiVersion").asText().equals(v.getValue())), v.getKey());
        }
    }

    /**
     * The node agent's evictions fail closed where the API server can tell whose they are before calling the webhook
     * (matchConditions, 1.28 on), and open before, so that kubectl drain and the autoscaler never wait on the broker;
     * its writes of YarnRelease and NodeMetric status, which only node agents make, fail closed on every version.
     */
    @Test
    void theNodeAgentsWebhooksFailClosedWhereNobodyElseIsHeldUp() throws Exception {
        for (Map.Entry<String, String> v : Map.of("1.20.2", "Ignore", "1.27.9", "Ignore", "1.28.0", "Fail", "1.35.0", "Fail").entrySet()) {
            JsonNode configuration = Charts.objects(Charts.template().skipCrds().withKubeVersion(v.getKey()).call()).stream()
                    .filter(o -> o.path("kind").asText().equals("MutatingWebhookConfiguration")).findFirst().orElseThrow();
            JsonNode writes = null;
            JsonNode evictions = null;
            for (JsonNode w : configuration.path("webhooks")) {
                if (w.path("name").asText().equals("mnode-agent.colocation.io")) {
                    writes = w;
                } else if (w.path("name").asText().equals("mnode-agent-eviction.colocation.io")) {
                    evictions = w;
                }
            }
            assertEquals("Fail", writes.path("failurePolicy").asText(), v.getKey());
            assertEquals(v.getValue(), evictions.path("failurePolicy").asText(), v.getKey());
            assertEquals(v.getValue().equals("Fail"), evictions.has("matchConditions"), v.getKey());
            if (evictions.has("matchConditions")) {
                assertEquals("request.userInfo.username == 'system:serviceaccount:koordinator-system:koordlet'",
                        evictions.at("/matchConditions/0/expression").asText());
            }
        }
    }
}
