package io.colocation.harness.koordlet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.colocation.api.InvalidInputException;
import io.colocation.api.Quantities;
import io.colocation.koordlet.collect.Usage;
import io.colocation.model.GoDuration;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A simulated node's load over time, read from a small YAML file (format in docs/sandbox.md, "Simulated hosts"):
 * curves of CPU and memory per pod ({@code namespace/name}), host application and YARN container, plus the
 * system's own usage, each a list of points {@code {at: 90s, cpu: 1.5, memory: 2Gi}} interpolated linearly and
 * repeated every {@code period} (held at the last point without one).
 */
public record LoadCurve(long periodMillis, Curve system, Curve defaultPod, Map<String, Curve> pods, Map<String, Curve> hostApps,
        Map<String, Curve> yarnContainers, Curve defaultYarnContainer) {

    /** Points sorted by time; CPU in milli-cores, memory in bytes. */
    public record Curve(long[] atMillis, long[] cpuMilli, long[] memoryBytes) {
        /** Usage {@code t} ms after the start (t already folded into the period). */
        public Usage at(long t) {
            int n = atMillis.length;
            if (t <= atMillis[0]) {
                return usage(0);
            }
            if (t >= atMillis[n - 1]) {
                return usage(n - 1);
            }
            int i = 1;
            while (atMillis[i] < t) {
                i++;
            }
            double f = (double) (t - atMillis[i - 1]) / (atMillis[i] - atMillis[i - 1]);
            return new Usage((cpuMilli[i - 1] + f * (cpuMilli[i] - cpuMilli[i - 1])) / 1000.0,
                    (long) (memoryBytes[i - 1] + f * (memoryBytes[i] - memoryBytes[i - 1])));
        }

        private Usage usage(int i) {
            return new Usage(cpuMilli[i] / 1000.0, memoryBytes[i]);
        }
    }

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    public static LoadCurve read(Path file) throws InvalidInputException {
        String source = file.toString();
        JsonNode root;
        try {
            if (Files.size(file) > 16L * 1024 * 1024) {
                throw new InvalidInputException(source + ": larger than 16 MiB");
            }
            root = YAML.readTree(file.toFile());
        } catch (IOException e) {
            throw new InvalidInputException(source + ": cannot be read as YAML: " + e.getMessage().lines().findFirst().orElse(""));
        }
        if (root == null || !root.isObject()) {
            throw new InvalidInputException(source + ": expected a map with pods, hostApplications, yarnContainers, system, period");
        }
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!List.of("period", "system", "defaultPod", "pods", "hostApplications", "yarnContainers",
                    "defaultYarnContainer").contains(f)) {
                throw new InvalidInputException(source + ": unknown field '" + f + "'");
            }
        }
        long period = 0;
        if (root.hasNonNull("period")) {
            period = GoDuration.parse(root.get("period").asText(), source + ": period").toMillis();
        }
        Curve system = root.hasNonNull("system") ? curve(root.get("system"), source + ": system") : null;
        Curve defaultPod = root.hasNonNull("defaultPod") ? curve(root.get("defaultPod"), source + ": defaultPod") : null;
        return new LoadCurve(period, system, defaultPod, curves(root.get("pods"), source + ": pods"),
                curves(root.get("hostApplications"), source + ": hostApplications"),
                curves(root.get("yarnContainers"), source + ": yarnContainers"),
                root.hasNonNull("defaultYarnContainer") ? curve(root.get("defaultYarnContainer"), source + ": defaultYarnContainer") : null);
    }

    private static Map<String, Curve> curves(JsonNode node, String where) throws InvalidInputException {
        Map<String, Curve> result = new LinkedHashMap<>();
        if (node == null || node.isNull()) {
            return result;
        }
        if (!node.isObject()) {
            throw new InvalidInputException(where + ": expected a map of name → points");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            result.put(e.getKey(), curve(e.getValue(), where + "." + e.getKey()));
        }
        return result;
    }

    private static Curve curve(JsonNode points, String where) throws InvalidInputException {
        if (points == null || !points.isArray() || points.isEmpty()) {
            throw new InvalidInputException(where + ": expected a non-empty list of points {at, cpu, memory}");
        }
        List<long[]> rows = new ArrayList<>();
        for (int i = 0; i < points.size(); i++) {
            JsonNode p = points.get(i);
            String at = where + "[" + i + "]";
            if (!p.isObject() || !p.hasNonNull("at") || !p.hasNonNull("cpu") || !p.hasNonNull("memory")) {
                throw new InvalidInputException(at + ": a point needs at, cpu and memory");
            }
            long t = GoDuration.parse(p.get("at").asText(), at + ".at").toMillis();
            long cpu = Quantities.milliValue(p.get("cpu").asText(), at + ".cpu");
            long mem = Quantities.value(p.get("memory").asText(), at + ".memory");
            if (!rows.isEmpty() && t <= rows.get(rows.size() - 1)[0]) {
                throw new InvalidInputException(at + ".at: points must be in increasing time");
            }
            rows.add(new long[] {t, cpu, mem});
        }
        long[] ts = new long[rows.size()];
        long[] cs = new long[rows.size()];
        long[] ms = new long[rows.size()];
        for (int i = 0; i < rows.size(); i++) {
            ts[i] = rows.get(i)[0];
            cs[i] = rows.get(i)[1];
            ms[i] = rows.get(i)[2];
        }
        return new Curve(ts, cs, ms);
    }

    /** Folds time since the start into the period. */
    public long fold(long sinceStartMillis) {
        return periodMillis > 0 ? Math.floorMod(sinceStartMillis, periodMillis) : sinceStartMillis;
    }
}
