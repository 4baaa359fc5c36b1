package io.colocation.simulator.measure;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the API server counted itself (its {@code /metrics}): requests by verb and resource. A day's worth is the
 * difference of a read at its start and one at its end; with the API server's and etcd's CPU over the same day it gives
 * what one request costs them. (Its {@code apiserver_watch_events_total} is not used: in our runs it counted no Node or
 * NodeMetric event although every part watches both.)
 */
public final class ApiServerRequests {
    private static final Pattern LABEL = Pattern.compile("(\\w+)=\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final java.util.Set<String> WRITES = java.util.Set.of("POST", "PUT", "PATCH", "DELETE", "DELETECOLLECTION", "APPLY");

    /** Requests by {@code VERB resource[/subresource]}. */
    public record Counts(Map<String, Double> requests) {
        public static final Counts NONE = new Counts(Map.of());

        /** What happened between {@code earlier} and this read. */
        public Counts since(Counts earlier) {
            return new Counts(difference(requests, earlier.requests));
        }

        public double totalRequests() {
            return requests.values().stream().mapToDouble(Double::doubleValue).sum();
        }

        /** The requests that change what etcd holds. */
        public double writes() {
            return requests.entrySet().stream().filter(e -> WRITES.contains(e.getKey().substring(0, e.getKey().indexOf(' '))))
                    .mapToDouble(Map.Entry::getValue).sum();
        }

        private static Map<String, Double> difference(Map<String, Double> now, Map<String, Double> before) {
            Map<String, Double> out = new TreeMap<>();
            now.forEach((k, v) -> {
                double d = v - before.getOrDefault(k, 0.0);
                if (d > 0) {
                    out.put(k, d);
                }
            });
            return out;
        }
    }

    private ApiServerRequests() {
    }

    /** Reads the counters now; {@link Counts#NONE} when the API server does not answer (the report then says 0). */
    public static Counts read(KubernetesClient client) {
        try {
            return parse(client.raw(client.getMasterUrl().toString().replaceAll("/+$", "") + "/metrics"));
        } catch (RuntimeException e) {
            return Counts.NONE;
        }
    }

    /** Parses Prometheus' text format: {@code apiserver_request_total}. */
    static Counts parse(String text) {
        Map<String, Double> requests = new TreeMap<>();
        if (text == null) {
            return Counts.NONE;
        }
        for (String line : text.split("\n")) {
            if (!line.startsWith("apiserver_request_total{")) {
                continue;
            }
            int close = line.lastIndexOf('}');
            double value;
            try {
                value = Double.parseDouble(line.substring(close + 1).trim().split(" ")[0]);
            } catch (NumberFormatException | IndexOutOfBoundsException e) {
                continue;
            }
            Map<String, String> labels = new TreeMap<>();
            Matcher m = LABEL.matcher(line.substring(line.indexOf('{') + 1, close));
            while (m.find()) {
                labels.put(m.group(1), m.group(2));
            }
            String sub = labels.getOrDefault("subresource", "");
            requests.merge(labels.getOrDefault("verb", "?") + " " + labels.getOrDefault("resource", "?") + (sub.isEmpty() ? "" : "/" + sub),
                    value, Double::sum);
        }
        return new Counts(requests);
    }
}
