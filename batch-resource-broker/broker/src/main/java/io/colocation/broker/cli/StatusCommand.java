package io.colocation.broker.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code colocation status [--broker URL] [--top N]}: a one-screen summary of the cluster from a running
 * broker's REST API ({@code /api/v1/cluster} and {@code /api/v1/nodes}, which need no token): who leads,
 * the totals, and the nodes that need attention first (degraded, drained, use beyond origin), then the rest.
 */
public final class StatusCommand {
    static final String BROKER_ENV = "COLOCATION_BROKER_URL";
    static final String DEFAULT_BROKER = "http://localhost:8080";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final double GIB = 1024.0 * 1024 * 1024;

    private StatusCommand() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.getenv(), System.out, System.err));
    }

    /** Runs the command; returns the exit code (0 shown, 1 the broker cannot be read, 2 bad usage). */
    public static int run(String[] args, Map<String, String> env, PrintStream out, PrintStream err) {
        String broker = env.getOrDefault(BROKER_ENV, DEFAULT_BROKER);
        int top = 20;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            try {
                if (a.equals("-h") || a.equals("--help")) {
                    out.println(usage());
                    return 0;
                } else if (a.equals("--broker") && i + 1 < args.length) {
                    broker = args[++i];
                } else if (a.startsWith("--broker=")) {
                    broker = a.substring("--broker=".length());
                } else if (a.equals("--top") && i + 1 < args.length) {
                    top = Integer.parseInt(args[++i]);
                } else if (a.startsWith("--top=")) {
                    top = Integer.parseInt(a.substring("--top=".length()));
                } else {
                    err.println("colocation status: unknown argument " + a + "\n" + usage());
                    return 2;
                }
            } catch (NumberFormatException e) {
                err.println("colocation status: --top takes a number of nodes, got " + args[i]);
                return 2;
            }
        }
        if (top < 0) {
            err.println("colocation status: --top must be 0 or more, got " + top);
            return 2;
        }
        URI base;
        try {
            base = URI.create(broker.endsWith("/") ? broker.substring(0, broker.length() - 1) : broker);
            if (base.getScheme() == null || base.getHost() == null || !base.getScheme().startsWith("http")) {
                throw new IllegalArgumentException("not an http(s) URL");
            }
        } catch (IllegalArgumentException e) {
            err.println("colocation status: --broker " + broker + " is not a URL like " + DEFAULT_BROKER);
            return 2;
        }
        try {
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();
            JsonNode cluster = get(http, base, "/api/v1/cluster");
            JsonNode nodes = get(http, base, "/api/v1/nodes");
            print(base, cluster, nodes, top, out);
            JsonNode quotas;
            try {
                quotas = get(http, base, "/api/v1/quotas");
            } catch (BrokerUnreadable e) {
                quotas = null; // a broker before quotas, or the API server not answering: the rest stands
            }
            printQuotas(quotas, out);
            return 0;
        } catch (BrokerUnreadable e) {
            err.println("colocation status: " + e.getMessage());
            return 1;
        }
    }

    static String usage() {
        return "usage: colocation status [--broker URL] [--top N]\n"
                + "  --broker URL  the broker's API (default $" + BROKER_ENV + ", else " + DEFAULT_BROKER + ")\n"
                + "  --top N       nodes listed, those needing attention first (default 20)";
    }

    /** The broker could not be reached or did not answer as a broker does. */
    private static final class BrokerUnreadable extends Exception {
        BrokerUnreadable(String message) {
            super(message);
        }
    }

    private static JsonNode get(HttpClient http, URI base, String path) throws BrokerUnreadable {
        URI uri = URI.create(base + path);
        HttpResponse<String> response;
        try {
            response = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (ConnectException e) {
            throw new BrokerUnreadable("cannot reach the broker at " + base + " (connection refused): is it running? Point to it with"
                    + " --broker URL or $" + BROKER_ENV);
        } catch (HttpTimeoutException e) {
            throw new BrokerUnreadable("the broker at " + base + " did not answer " + path + " within 10 s");
        } catch (IOException e) {
            throw new BrokerUnreadable("cannot read " + uri + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BrokerUnreadable("interrupted while reading " + uri);
        }
        if (response.statusCode() != 200) {
            String body = response.body() == null ? "" : response.body();
            throw new BrokerUnreadable(uri + " answered HTTP " + response.statusCode()
                    + (body.isBlank() ? "" : ": " + (body.length() > 200 ? body.substring(0, 200) + "..." : body))
                    + " (is " + base + " a colocation broker's API port?)");
        }
        try {
            JsonNode json = JSON.readTree(response.body());
            if (json == null || !json.isObject()) {
                throw new BrokerUnreadable(uri + " did not answer a JSON object (is " + base + " a colocation broker's API port?)");
            }
            return json;
        } catch (JsonProcessingException e) {
            throw new BrokerUnreadable(uri + " did not answer JSON (is " + base + " a colocation broker's API port?)");
        }
    }

    private static void print(URI base, JsonNode c, JsonNode nodes, int top, PrintStream out) {
        String leader = c.path("epoch").isNumber() ? "this replica (epoch " + c.path("epoch").asLong() + ")"
                : c.path("leader").isTextual() ? c.path("leader").asText() : "none known (no broker publishes grants)";
        out.printf(Locale.ROOT, "broker %s: replica %s, leader %s, policy %s%n", base, c.path("replica").asText(), leader,
                c.path("policy").asText());
        out.printf(Locale.ROOT, "nodes %d (%d degraded, %d drained); capacity %s; online usage %s%n", c.path("nodes").asInt(),
                c.path("degradedNodes").asInt(), c.path("drainedNodes").asInt(), both(c.path("capacity")), cores(c.path("onlineUsage")));
        out.printf(Locale.ROOT, "Batch %s: Kubernetes granted %s, used %s; YARN granted %s, used %s; free %s; excess %s; overcommit %s%n",
                both(c.path("origin")), cores(c.path("kubernetes").path("granted")), cores(c.path("kubernetes").path("used")),
                cores(c.path("yarn").path("granted")), cores(c.path("yarn").path("used")), cores(c.path("free")),
                cores(c.path("excess")), cores(c.path("overcommit")));
        List<JsonNode> items = new ArrayList<>();
        nodes.path("items").forEach(items::add);
        if (items.isEmpty() || top == 0) {
            return;
        }
        items.sort(Comparator.comparingInt(StatusCommand::attention).reversed().thenComparing(n -> n.path("node").asText()));
        out.println();
        out.printf(Locale.ROOT, "%-28s %8s %16s %16s %8s %8s  %s%n", "NODE", "ORIGIN", "K8S GRANT/USED", "YARN GRANT/USED", "FREE",
                "EXCESS", "STATE");
        for (JsonNode n : items.subList(0, Math.min(top, items.size()))) {
            out.printf(Locale.ROOT, "%-28s %8s %16s %16s %8s %8s  %s%n", n.path("node").asText(), number(n.path("origin")),
                    number(n.path("kubernetesGrant")) + "/" + number(n.path("kubernetesUsed")),
                    n.path("yarn").isObject() ? number(n.path("yarnGrant")) + "/" + number(n.path("yarnUsed")) : "-",
                    number(n.path("free")), number(n.path("excess")), state(n));
        }
        if (items.size() > top) {
            out.printf(Locale.ROOT, "... and %d more (--top %d shows them)%n", items.size() - top, items.size());
        }
        out.println("CPU in cores; per node: GET " + base + "/api/v1/nodes/NAME");
    }

    /**
     * One line per top-level ElasticQuota, and per quota of a tree over Batch (each tenant and its Kubernetes and YARN
     * leaves): its min, its runtime and what it uses, as the k8s-scheduler (the broker, on a tree) last wrote them.
     */
    private static void printQuotas(JsonNode quotas, PrintStream out) {
        if (quotas == null || !quotas.path("installed").asBoolean()) {
            return;
        }
        List<JsonNode> top = new ArrayList<>();
        quotas.path("quotas").forEach(q -> {
            if (q.path("depth").asInt() == 1 || q.hasNonNull("tree")) {
                top.add(q);
            }
        });
        if (top.isEmpty()) {
            return;
        }
        out.println();
        for (JsonNode q : top) {
            String kind = q.hasNonNull("yarnQueue") ? " (YARN queue " + q.path("yarnQueue").asText() + ")"
                    : q.hasNonNull("tree") && q.path("depth").asInt() == 1 ? " (tree " + q.path("tree").asText() + ")" : "";
            out.printf(Locale.ROOT, "%squota %s/%s%s: min %s, runtime %s, used %s%s%n", "  ".repeat(Math.max(0, q.path("depth").asInt() - 1)),
                    q.path("namespace").asText(), q.path("name").asText(), kind,
                    list(q.path("min")), list(q.path("runtime")), list(q.path("used")),
                    q.path("state").asText().equals("unknown") ? " (not yet written)" : ", " + q.path("state").asText());
        }
    }

    private static String list(JsonNode resources) {
        if (!resources.isObject()) {
            return "-";
        }
        List<String> parts = new ArrayList<>();
        resources.fields().forEachRemaining(e -> parts.add(e.getKey() + " " + e.getValue().asText()));
        return parts.isEmpty() ? "{}" : String.join(", ", parts);
    }

    /** Higher first: degraded, then use beyond origin, then drained, then an unreachable YARN. */
    private static int attention(JsonNode n) {
        return (n.path("degraded").asBoolean() ? 8 : 0) + (n.path("excess").path("cpuMilli").asLong() > 0 ? 4 : 0)
                + (n.path("drained").asBoolean() ? 2 : 0) + (n.path("yarn").isObject() && !n.path("yarn").path("reachable").asBoolean() ? 1 : 0);
    }

    private static String state(JsonNode n) {
        List<String> states = new ArrayList<>();
        if (n.path("degraded").asBoolean()) {
            states.add("degraded" + (n.path("degradedReason").isTextual() ? ": " + n.path("degradedReason").asText() : ""));
        }
        if (n.path("drained").asBoolean()) {
            states.add("drained");
        }
        if (n.path("yarn").isObject() && !n.path("yarn").path("reachable").asBoolean()) {
            states.add("YARN unreachable");
        }
        if (n.path("excess").path("cpuMilli").asLong() > 0) {
            states.add("use beyond origin");
        }
        return states.isEmpty() ? "ok" : String.join("; ", states);
    }

    private static String number(JsonNode resources) {
        return String.format(Locale.ROOT, "%.1f", resources.path("cpuMilli").asLong() / 1000.0);
    }

    private static String cores(JsonNode resources) {
        return number(resources) + " cores";
    }

    private static String both(JsonNode resources) {
        return String.format(Locale.ROOT, "%s cores / %.1f GiB", number(resources), resources.path("memoryBytes").asLong() / GIB);
    }
}
