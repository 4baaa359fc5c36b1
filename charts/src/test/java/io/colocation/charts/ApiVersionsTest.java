package io.colocation.charts;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every API group/version/kind the chart renders and the product calls, against what Kubernetes serves from 1.20 (the
 * version the suite runs) to 1.35 (checked, not run: only 1.20 builds here). A version removed in that range is allowed
 * only where the product or the chart asks the cluster first (PodDisruptionBudget by the chart's version check, the
 * Eviction by the koordlet's fallback). docs/kubernetes-versions.md carries the same table; a group/version missing
 * there fails too.
 */
class ApiVersionsTest {
    /** An API as Kubernetes serves it: from which minor version, and the minor that removed it (0: still served in 1.35). */
    record Served(int since, int removedIn) {
    }

    /** groupVersion/kind → when Kubernetes serves it (the upstream deprecation guide and API references). */
    static final Map<String, Served> SERVED = new LinkedHashMap<>();

    static {
        for (String kind : List.of("Namespace", "Pod", "Node", "Service", "ServiceAccount", "ConfigMap", "Secret", "Event", "Binding")) {
            SERVED.put("v1/" + kind, new Served(0, 0));
        }
        SERVED.put("apps/v1/Deployment", new Served(9, 0));
        SERVED.put("apps/v1/DaemonSet", new Served(9, 0));
        SERVED.put("rbac.authorization.k8s.io/v1/ClusterRole", new Served(8, 0));
        SERVED.put("rbac.authorization.k8s.io/v1/ClusterRoleBinding", new Served(8, 0));
        SERVED.put("rbac.authorization.k8s.io/v1/Role", new Served(8, 0));
        SERVED.put("rbac.authorization.k8s.io/v1/RoleBinding", new Served(8, 0));
        SERVED.put("scheduling.k8s.io/v1/PriorityClass", new Served(14, 0));
        SERVED.put("admissionregistration.k8s.io/v1/MutatingWebhookConfiguration", new Served(16, 0));
        SERVED.put("admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration", new Served(16, 0));
        SERVED.put("admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy", new Served(30, 0));
        SERVED.put("admissionregistration.k8s.io/v1/ValidatingAdmissionPolicyBinding", new Served(30, 0));
        SERVED.put("apiextensions.k8s.io/v1/CustomResourceDefinition", new Served(16, 0));
        SERVED.put("coordination.k8s.io/v1/Lease", new Served(14, 0));
        SERVED.put("networking.k8s.io/v1/NetworkPolicy", new Served(7, 0));
        SERVED.put("policy/v1/PodDisruptionBudget", new Served(21, 0));
        SERVED.put("policy/v1beta1/PodDisruptionBudget", new Served(5, 25));
        SERVED.put("policy/v1/Eviction", new Served(22, 0));
        SERVED.put("policy/v1beta1/Eviction", new Served(5, 0));
        SERVED.put("authentication.k8s.io/v1/TokenRequest", new Served(20, 0));
        // the CRDs the chart installs: served wherever they are installed
        for (String crd : List.of("slo.koordinator.sh/v1alpha1/NodeMetric", "slo.koordinator.sh/v1alpha1/NodeSLO",
                "config.koordinator.sh/v1alpha1/ClusterColocationProfile", "scheduling.sigs.k8s.io/v1alpha1/PodGroup")) {
            SERVED.put(crd, new Served(16, 0));
        }
    }

    /**
     * What the product's code calls (fabric8's typed clients and generic resources), each with where; a version removed
     * before 1.35 must say how the code avoids it.
     */
    static final Map<String, String> CODE = new LinkedHashMap<>();

    static {
        CODE.put("v1/Pod", "every part: informers, binding (pods/binding), the webhook's reviews");
        CODE.put("v1/Node", "broker (status and annotations), k8s-scheduler, koordlet (its own Node)");
        CODE.put("v1/Namespace", "webhook (namespace selectors)");
        CODE.put("v1/ConfigMap", "broker (slo-controller-config)");
        CODE.put("v1/Secret", "broker (webhook certificate, node-agent key)");
        CODE.put("v1/Event", "every part (EventRecorder: core/v1 Events, not events.k8s.io)");
        CODE.put("v1/Binding", "k8s-scheduler (pods/binding)");
        CODE.put("coordination.k8s.io/v1/Lease", "k8s-scheduler (leader election)");
        CODE.put("scheduling.k8s.io/v1/PriorityClass", "webhook (a profile's priorityClassName)");
        CODE.put("admissionregistration.k8s.io/v1/MutatingWebhookConfiguration", "broker (caBundle)");
        CODE.put("admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration", "broker (caBundle)");
        CODE.put("policy/v1/Eviction", "koordlet (evictions, first)");
        CODE.put("policy/v1beta1/Eviction", "koordlet: only after policy/v1 answered 404/400 (a cluster before 1.22)");
        CODE.put("slo.koordinator.sh/v1alpha1/NodeMetric", "broker (spec), koordlet (status), k8s-scheduler (LoadAware)");
        CODE.put("slo.koordinator.sh/v1alpha1/NodeSLO", "broker (spec), koordlet");
        CODE.put("config.koordinator.sh/v1alpha1/ClusterColocationProfile", "webhook");
        CODE.put("scheduling.sigs.k8s.io/v1alpha1/PodGroup", "k8s-scheduler (Coscheduling, PodGroup status)");
    }

    /** Versioned strings in the product's code that are file formats, not APIs a cluster serves. */
    static final Set<String> FORMATS = Set.of("admission.k8s.io/v1", "admission.k8s.io/v1beta1", "kubescheduler.config.k8s.io/v1",
            "kubescheduler.config.k8s.io/v1beta2", "kubescheduler.config.k8s.io/v1beta3", "colocation.io/v1alpha1");
    private static final int NEWEST = 35;
    private static final Pattern GROUP_VERSION = Pattern.compile("\"((?:[a-z0-9-]+\\.)+[a-z]+/v[0-9]+(?:(?:alpha|beta)[0-9]+)?)\"");

    @Test
    void whatTheChartRendersIsServedFrom120To135() throws IOException {
        List<String> problems = new ArrayList<>();
        for (String version : List.of("1.20.2", "1.35.0")) {
            int minor = Integer.parseInt(version.split("\\.")[1]);
            for (JsonNode o : Charts.objects(Charts.template().withKubeVersion(version).set("nodeManager.enabled", true)
                    .set("broker.networkPolicy.enabled", true).set("broker.networkPolicy.apiServerCIDRs[0]", "10.0.0.1/32").call())) {
                String api = o.path("apiVersion").asText() + "/" + o.path("kind").asText();
                Served s = SERVED.get(api);
                if (s == null) {
                    problems.add(api + " (rendered for " + version + ") is not in the table");
                } else if (minor < s.since() || s.removedIn() != 0 && minor >= s.removedIn()) {
                    problems.add(api + " is rendered for " + version + " but served only from 1." + s.since()
                            + (s.removedIn() == 0 ? "" : " to 1." + (s.removedIn() - 1)));
                }
            }
        }
        assertTrue(problems.isEmpty(), problems.toString());
    }

    @Test
    void whatTheCodeCallsIsServedOrGuarded() {
        List<String> problems = new ArrayList<>();
        CODE.forEach((api, where) -> {
            Served s = SERVED.get(api);
            if (s == null) {
                problems.add(api + " is not in the table");
            } else if (s.removedIn() != 0 && s.removedIn() <= NEWEST && !where.contains("only after")) {
                problems.add(api + " (" + where + ") is removed in 1." + s.removedIn() + " and nothing guards it");
            }
        });
        assertTrue(problems.isEmpty(), problems.toString());
    }

    /** A group/version written in the product's main code is in the table or is a file format: a new one fails here. */
    @Test
    void everyGroupVersionInTheCodeIsInTheTable() throws IOException {
        Set<String> known = new TreeSet<>(FORMATS);
        CODE.keySet().forEach(api -> known.add(api.substring(0, api.lastIndexOf('/'))));
        Set<String> unknown = new TreeSet<>();
        try (Stream<Path> files = Files.walk(Path.of(".."))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java") && p.toString().contains("/src/main/java/")
                    && !p.toString().contains("/target/")).toList()) {
                Matcher m = GROUP_VERSION.matcher(Files.readString(f));
                while (m.find()) {
                    if (!known.contains(m.group(1))) {
                        unknown.add(m.group(1) + " in " + f);
                    }
                }
            }
        }
        assertTrue(unknown.isEmpty(), "add these to ApiVersionsTest.CODE (and docs/kubernetes-versions.md): " + unknown);
    }

    @Test
    void theDocsCarryTheTable() throws IOException {
        String doc = Files.readString(Path.of("../docs/kubernetes-versions.md"));
        Set<String> missing = new TreeSet<>();
        SERVED.keySet().forEach(api -> {
            if (!doc.contains("`" + api + "`")) {
                missing.add(api);
            }
        });
        assertTrue(missing.isEmpty(), "docs/kubernetes-versions.md lacks " + missing);
    }
}
