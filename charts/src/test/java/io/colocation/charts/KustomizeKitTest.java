package io.colocation.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * conf/kubernetes, the kit for {@code kubectl apply -k}, is the chart's CRDs and the chart rendered with its defaults
 * (release colocation, namespace koordinator-system, Kubernetes 1.20.2 so the kit applies from 1.20 on): this test
 * fails when the two drift. {@code dev/render-kit.sh} (this test with {@code -Dkit.write=true}) writes the kit anew.
 */
class KustomizeKitTest {
    static final String HEADER = "# Rendered from charts/colocation by dev/render-kit.sh (helm template, the chart's defaults):"
            + " edit the chart, not this file.\n";
    /** Kubernetes 1.20.2, the oldest the kit serves: where 1.20 and later differ the chart asks the version. */
    static final String KIT_KUBE_VERSION = "1.20.2";
    private static final List<String> KIT_ONLY = List.of("kustomization.yaml", "namespace.yaml");

    /** The kit's files as the chart renders them: relative path → content. */
    static Map<String, String> rendered() {
        Map<String, String> files = new LinkedHashMap<>();
        // helm template leaves the CRDs out (helm install applies them first): the kit copies them
        try (var crds = Files.list(Charts.CHART.resolve("crds"))) {
            for (Path crd : crds.sorted().toList()) {
                files.put("crds/" + crd.getFileName(), HEADER + Files.readString(crd));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Charts.bySource(Charts.template().withKubeVersion(KIT_KUBE_VERSION).call())
                .forEach((source, content) -> files.put(kitPath(source), HEADER + content));
        // the NodeManager DaemonSet is an example: off by default, applied apart
        Charts.bySource(Charts.template().withKubeVersion(KIT_KUBE_VERSION)
                .set("nodeManager.enabled", true).skipCrds().call()).forEach((source, content) -> {
                    if (source.equals("templates/nodemanager-daemonset.yaml")) {
                        files.put("nodemanager-daemonset.example.yaml", HEADER + content);
                    }
                });
        return files;
    }

    private static String kitPath(String source) {
        return source.startsWith("templates/") ? source.substring("templates/".length()) : source;
    }

    @Test
    void theKitIsTheChartRendered() throws IOException {
        Map<String, String> expected = rendered();
        if (Boolean.getBoolean("kit.write")) {
            write(expected);
        }
        List<String> drifted = new ArrayList<>();
        for (Map.Entry<String, String> e : expected.entrySet()) {
            Path file = Charts.KIT.resolve(e.getKey());
            if (!Files.exists(file) || !Files.readString(file).equals(e.getValue())) {
                drifted.add(e.getKey());
            }
        }
        for (String file : generatedFiles()) {
            if (!expected.containsKey(file)) {
                drifted.add(file + " (not rendered by the chart any more)");
            }
        }
        assertTrue(drifted.isEmpty(), "conf/kubernetes differs from the chart in " + drifted + ": run dev/render-kit.sh");
    }

    /** kustomization.yaml lists the namespace and every rendered file but the example. */
    @Test
    void theKustomizationListsEveryRenderedFile() throws IOException {
        JsonNode k = new ObjectMapper(new YAMLFactory()).readTree(Charts.KIT.resolve("kustomization.yaml").toFile());
        TreeSet<String> listed = new TreeSet<>();
        k.get("resources").forEach(r -> listed.add(r.asText()));
        TreeSet<String> wanted = new TreeSet<>(rendered().keySet());
        wanted.remove("nodemanager-daemonset.example.yaml");
        wanted.add("namespace.yaml");
        assertEquals(wanted, listed);
    }

    /** The kit's files the chart generates (those that carry the header), relative to conf/kubernetes. */
    private static List<String> generatedFiles() throws IOException {
        List<String> out = new ArrayList<>();
        try (var files = Files.walk(Charts.KIT)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                if (Files.readString(f).startsWith(HEADER)) {
                    out.add(Charts.KIT.relativize(f).toString());
                }
            }
        }
        return out;
    }

    private static void write(Map<String, String> files) throws IOException {
        for (String stale : generatedFiles()) {
            if (!files.containsKey(stale)) {
                Files.delete(Charts.KIT.resolve(stale));
            }
        }
        for (Map.Entry<String, String> e : files.entrySet()) {
            Path file = Charts.KIT.resolve(e.getKey());
            Files.createDirectories(file.getParent());
            Files.writeString(file, e.getValue());
        }
        assertTrue(KIT_ONLY.stream().allMatch(f -> Files.exists(Charts.KIT.resolve(f))), "the kit keeps " + KIT_ONLY);
    }
}
