package io.colocation.koordlet.explain;

import com.fasterxml.jackson.databind.JsonNode;
import io.colocation.api.InvalidInputException;
import io.colocation.copilot.api.YarnContainerIds;
import io.colocation.koordlet.qos.BestEffortState;
import io.colocation.koordlet.qos.FeatureGates;
import io.colocation.koordlet.qos.Processor;
import io.colocation.koordlet.qos.YarnContainerState;
import io.colocation.model.node.NodeAnnotations;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code KoordletState} document ({@code apiVersion: colocation.io/v1alpha1}): what only the agent knows, fields
 * at the top level. A missing field means what it means to the agent: default gates, unknown topology, a fresh BE
 * cgroup (all CPUs, no quota), no BE samples, a 1 s collect interval, no YARN containers.
 */
record KoordletState(FeatureGates featureGates, List<Processor> cpuTopology, BestEffortState bestEffort,
        long collectIntervalSeconds, List<YarnContainerState> yarnContainers) {
    static final String API_VERSION = "colocation.io/v1alpha1";
    static final String KIND = "KoordletState";

    static KoordletState none() {
        return new KoordletState(FeatureGates.defaultGates(), null, freshBestEffort(), 1, List.of());
    }

    private static BestEffortState freshBestEffort() {
        return new BestEffortState(null, BestEffortState.UNSET_QUOTA, BestEffortState.DEFAULT_PERIOD, null, null);
    }

    static KoordletState read(JsonNode doc, String where) throws InvalidInputException {
        FeatureGates gates = FeatureGates.defaultGates();
        JsonNode g = doc.get("featureGates");
        if (g != null && !g.isNull()) {
            if (!g.isObject()) {
                throw new InvalidInputException(where + "featureGates: must be a map of gate name to true/false");
            }
            Map<String, Boolean> overrides = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = g.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!e.getValue().isBoolean()) {
                    throw new InvalidInputException(where + "featureGates." + e.getKey() + ": must be true or false, found "
                            + e.getValue());
                }
                overrides.put(e.getKey(), e.getValue().booleanValue());
            }
            try {
                gates = FeatureGates.of(overrides);
            } catch (IllegalArgumentException e) {
                throw new InvalidInputException(where + "featureGates: " + e.getMessage());
            }
        }
        List<Processor> topology = null;
        JsonNode t = doc.get("cpuTopology");
        if (t != null && !t.isNull()) {
            if (!t.isArray()) {
                throw new InvalidInputException(where + "cpuTopology: must be a list of {cpu, core, socket, node}");
            }
            topology = new ArrayList<>();
            for (int i = 0; i < t.size(); i++) {
                String at = where + "cpuTopology[" + i + "].";
                JsonNode p = t.get(i);
                topology.add(new Processor(integer(p, "cpu", at, true), integer(p, "core", at, false),
                        integer(p, "socket", at, false), integer(p, "node", at, false)));
            }
        }
        BestEffortState be = freshBestEffort();
        JsonNode b = doc.get("besteffort");
        if (b != null && !b.isNull()) {
            if (!b.isObject()) {
                throw new InvalidInputException(where + "besteffort: must be an object");
            }
            List<Integer> cpuset = null;
            JsonNode c = b.get("cpusetCPUs");
            if (c != null && !c.isNull()) {
                cpuset = c.asText().isEmpty() ? List.of() : NodeAnnotations.cpuList(c.asText());
                if (!c.isTextual() || cpuset == null) {
                    throw new InvalidInputException(where + "besteffort.cpusetCPUs: must be a CPU list such as \"0-3,8\", found " + c);
                }
            }
            JsonNode cpu = b.path("cpu");
            be = new BestEffortState(cpuset, longField(b, "cfsQuotaMicros", where + "besteffort.", BestEffortState.UNSET_QUOTA),
                    longField(b, "cfsPeriodMicros", where + "besteffort.", BestEffortState.DEFAULT_PERIOD),
                    beCpu(cpu.get("windowAverage"), where + "besteffort.cpu.windowAverage."),
                    beCpu(cpu.get("latest"), where + "besteffort.cpu.latest."));
        }
        long interval = longField(doc, "collectIntervalSeconds", where, 1);
        if (interval <= 0) {
            throw new InvalidInputException(where + "collectIntervalSeconds: must be positive, found " + interval);
        }
        return new KoordletState(gates, topology, be, interval, yarnContainers(doc.get("yarnContainers"), where));
    }

    private static BestEffortState.BeCpu beCpu(JsonNode n, String where) throws InvalidInputException {
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isObject()) {
            throw new InvalidInputException(where.replaceAll("\\.$", "") + ": must be {usedMilli, limitMilli, requestMilli}");
        }
        Double request = n.has("requestMilli") && !n.get("requestMilli").isNull() ? number(n, "requestMilli", where) : null;
        return new BestEffortState.BeCpu(number(n, "usedMilli", where), number(n, "limitMilli", where), request);
    }

    private static List<YarnContainerState> yarnContainers(JsonNode list, String where) throws InvalidInputException {
        if (list == null || list.isNull()) {
            return List.of();
        }
        if (!list.isArray()) {
            throw new InvalidInputException(where + "yarnContainers: must be a list");
        }
        List<YarnContainerState> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            String at = where + "yarnContainers[" + i + "].";
            JsonNode c = list.get(i);
            String id = c.path("id").asText("");
            if (id.isEmpty()) {
                throw new InvalidInputException(at + "id: missing (a container id such as container_1700000000000_0001_01_000002)");
            }
            // the agent's own check on what a copilot says: an id that is not YARN's names no container
            if (!YarnContainerIds.isValid(id)) {
                throw new InvalidInputException(at + "id: '" + id + "' is not a YARN container id (container_<cluster timestamp>_<app>"
                        + "_<attempt>_<container>); the agent refuses it");
            }
            JsonNode used = c.path("usage");
            out.add(new YarnContainerState(id, (int) longField(c, "applicationPriority", at, 0),
                    c.path("applicationMaster").asBoolean(false), (long) number(c.path("resources"), "cpuMilli", at + "resources."),
                    (long) number(c.path("resources"), "memoryBytes", at + "resources."),
                    used.has("cpuMilli") ? (long) number(used, "cpuMilli", at + "usage.") : null,
                    used.has("memoryBytes") ? (long) number(used, "memoryBytes", at + "usage.") : null));
        }
        return out;
    }

    private static int integer(JsonNode n, String field, String where, boolean required) throws InvalidInputException {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            if (required) {
                throw new InvalidInputException(where + field + ": missing");
            }
            return 0;
        }
        if (!v.isIntegralNumber() || v.asLong() < 0 || v.asLong() > 65535) {
            throw new InvalidInputException(where + field + ": must be an integer from 0 to 65535, found " + v);
        }
        return v.intValue();
    }

    private static long longField(JsonNode n, String field, String where, long absent) throws InvalidInputException {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return absent;
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw new InvalidInputException(where + field + ": must be an integer, found " + v);
        }
        return v.longValue();
    }

    private static double number(JsonNode n, String field, String where) throws InvalidInputException {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return 0;
        }
        if (!v.isNumber() || v.asDouble() < 0 || Double.isInfinite(v.asDouble())) {
            throw new InvalidInputException(where + field + ": must be a non-negative number, found " + v);
        }
        return v.asDouble();
    }
}
