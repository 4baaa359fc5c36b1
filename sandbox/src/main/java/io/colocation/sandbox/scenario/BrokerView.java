package io.colocation.sandbox.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** The broker's ledger as its REST API shows it ({@code GET /api/v1/nodes}). */
public final class BrokerView {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final URI nodes;

    /** One node's figures: CPU in milli-cores, memory in bytes. */
    public record Ledger(String node, long originCpu, long originMemory, long kubernetesUsedCpu, long yarnUsedCpu, long kubernetesGrantCpu,
            long yarnGrantCpu, long overcommitCpu, long overcommitMemory, long excessCpu, boolean degraded, long nodeUsageCpu) {
    }

    public BrokerView(String baseUrl) {
        this.nodes = URI.create(baseUrl + "/api/v1/nodes");
    }

    /** Node → ledger, empty when the broker does not answer or does not lead. */
    public Map<String, Ledger> ledgers() {
        Map<String, Ledger> result = new LinkedHashMap<>();
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(nodes).timeout(Duration.ofSeconds(3)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                return result;
            }
            JsonNode root = JSON.readTree(r.body());
            for (JsonNode n : root.path("items")) {
                result.put(n.path("node").asText(), new Ledger(n.path("node").asText(), cpu(n, "origin"), n.path("origin").path("memoryBytes").asLong(),
                        cpu(n, "kubernetesUsed"), cpu(n, "yarnUsed"), cpu(n, "kubernetesGrant"), cpu(n, "yarnGrant"), cpu(n, "overcommit"),
                        n.path("overcommit").path("memoryBytes").asLong(), cpu(n, "excess"), n.path("degraded").asBoolean(),
                        cpu(n, "nodeUsage")));
            }
        } catch (IOException e) {
            return result;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return result;
    }

    private static long cpu(JsonNode n, String field) {
        return n.path(field).path("cpuMilli").asLong();
    }
}
