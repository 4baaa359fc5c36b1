package io.colocation.charts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The chart as its tests render it: helm v3.21 (helm-java) over charts/colocation, the output split by source. */
final class Charts {
    static final Path CHART = Path.of("colocation");
    static final Path KIT = Path.of("../conf/kubernetes");
    static final String RELEASE = "colocation";
    static final String NAMESPACE = "koordinator-system";
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Pattern SOURCE = Pattern.compile("(?m)^# Source: colocation/(.+)$");

    private Charts() {
    }

    static TemplateCommand template() {
        return new Helm(CHART).template().withName(RELEASE).withNamespace(NAMESPACE);
    }

    /** The rendered documents by their source in the chart ({@code templates/broker.yaml}, {@code crds/...}), in order. */
    static Map<String, String> bySource(String rendered) {
        Map<String, StringBuilder> out = new LinkedHashMap<>();
        Matcher m = SOURCE.matcher(rendered);
        List<int[]> starts = new ArrayList<>();
        List<String> names = new ArrayList<>();
        while (m.find()) {
            starts.add(new int[] {m.start(), m.end()});
            names.add(m.group(1).trim());
        }
        for (int i = 0; i < starts.size(); i++) {
            int from = starts.get(i)[1] + 1;
            int to = i + 1 < starts.size() ? starts.get(i + 1)[0] : rendered.length();
            String doc = rendered.substring(Math.min(from, to), to).replaceAll("(?s)\\n---\\s*$", "\n").stripTrailing() + "\n";
            out.computeIfAbsent(names.get(i), k -> new StringBuilder()).append(out.containsKey(names.get(i))
                    && out.get(names.get(i)).length() > 0 ? "---\n" : "").append(doc);
        }
        Map<String, String> result = new LinkedHashMap<>();
        out.forEach((k, v) -> result.put(k, v.toString()));
        return result;
    }

    /** Every object the rendering holds. */
    static List<JsonNode> objects(String rendered) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        if (rendered == null) {
            return out; // helm-java's answer when nothing renders
        }
        try (var docs = YAML.readerFor(JsonNode.class).readValues(rendered)) {
            while (docs.hasNextValue()) {
                JsonNode doc = (JsonNode) docs.nextValue();
                if (doc != null && doc.isObject() && doc.has("kind")) {
                    out.add(doc);
                }
            }
        }
        return out;
    }
}
