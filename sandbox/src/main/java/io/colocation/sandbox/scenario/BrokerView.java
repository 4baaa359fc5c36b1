package io.colocation.sandbox.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.core.JsonProcessingException;
import io.colocation.harness.BrokerProcess;
import java.util.LinkedHashMap;
import java.util.Map;

/** The broker's ledger as its REST API shows it ({@code GET /api/v1/nodes}). */
public final class BrokerView {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final BrokerProcess broker;

    /** One node's figures: CPU in milli-cores, memory in bytes. */
    public record Ledger(String node, long originCpu, long originMemory, long kubernetesUsedCpu, long yarnUsedCpu, long kubernetesGrantCpu,
            long yarnGrantCpu, long overcommitCpu, long overcommitMemory, long excessCpu, boolean degraded, long nodeUsageCpu) {
    }

    public BrokerView(BrokerProcess broker) {
        this.broker = broker;
    }

    /** Node → ledger, empty when the broker does not answer or does not lead. */
    public Map<String, Ledger> ledgers() {
        Map<String, Ledger> result = new LinkedHashMap<>();
        String body = broker.get("/api/v1/nodes");
        if (body == null) {
            return result;
        }
        try {
            JsonNode root = JSON.readTree(body);
            for (JsonNode n : root.path("items")) {
                result.put(n.path("node").asText(), new Ledger(n.path("node").asText(), cpu(n, "origin"), n.path("origin").path("memoryBytes").asLong(),
                        cpu(n, "kubernetesUsed"), cpu(n, "yarnUsed"), cpu(n, "kubernetesGrant"), cpu(n, "yarnGrant"), cpu(n, "overcommit"),
                        n.path("overcommit").path("memoryBytes").asLong(), cpu(n, "excess"), n.path("degraded").asBoolean(),
                        cpu(n, "nodeUsage")));
            }
        } catch (JsonProcessingException e) {
            return result;
        }
        return result;
    }

    private static long cpu(JsonNode n, String field) {
        return n.path(field).path("cpuMilli").asLong();
    }
}
