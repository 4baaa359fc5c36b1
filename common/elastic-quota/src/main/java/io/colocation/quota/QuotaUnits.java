package io.colocation.quota;

import com.fasterxml.jackson.databind.JsonNode;
import io.colocation.api.InvalidInputException;
import io.colocation.model.KubeQuantity;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Koordinator's units for quota arithmetic: {@code getQuantityValue} (cpu in milli-cores, every other resource its
 * {@code Quantity.Value()}, both rounded up) and back, {@code createQuantity} (cpu as milli-cores, memory binary SI,
 * the rest decimal SI), printed as Kubernetes prints a quantity, as Koordinator's annotations carry them.
 */
public final class QuotaUnits {
    private static final String CPU = "cpu";
    private static final String MEMORY = "memory";
    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    private QuotaUnits() {
    }

    /**
     * A ResourceList (JSON object of quantities) in quota units.
     *
     * @throws InvalidInputException naming {@code where} and the resource: not an object, not a quantity, negative, or
     *                               beyond 64 bits in its unit
     */
    public static ResourceAmounts read(JsonNode list, String where) throws InvalidInputException {
        if (list == null || list.isNull() || list.isMissingNode()) {
            return ResourceAmounts.NONE;
        }
        if (!list.isObject()) {
            throw new InvalidInputException(where + ": must be a ResourceList (an object of quantities)");
        }
        Map<String, Long> out = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = list.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            String at = where + "." + e.getKey();
            JsonNode v = e.getValue();
            if (!v.isTextual() && !v.isNumber()) {
                throw new InvalidInputException(at + ": must be a quantity (examples: 500m, 4, 1.5Gi)");
            }
            KubeQuantity q = KubeQuantity.parse(v.asText(), at);
            if (q.value().signum() < 0) {
                throw new InvalidInputException(at + ": negative quantity \"" + v.asText() + "\"");
            }
            BigDecimal units = (CPU.equals(e.getKey()) ? q.value().scaleByPowerOfTen(3) : q.value()).setScale(0, RoundingMode.CEILING);
            if (units.toBigInteger().bitLength() > 63) {
                throw new InvalidInputException(at + ": \"" + v.asText() + "\" is beyond what a quota holds (2^63 - 1 "
                        + (CPU.equals(e.getKey()) ? "milli-cores" : "units") + ")");
            }
            out.put(e.getKey(), units.longValueExact());
        }
        return ResourceAmounts.of(out);
    }

    /**
     * A ResourceList as the scheduler writes it in an annotation or in {@code status.used} (JSON text or a tree), read
     * back; null when it is not one (not JSON, not an object of quantities). A missing or JSON null list is empty.
     */
    public static ResourceAmounts readOrNull(JsonNode list) {
        try {
            return read(list, "a written ResourceList");
        } catch (InvalidInputException e) {
            return null;
        }
    }

    /** As {@link #readOrNull(JsonNode)}, from JSON text (null text: a missing list). */
    public static ResourceAmounts readOrNull(String json) {
        try {
            return readOrNull(json == null ? null : JSON.readTree(json));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return null;
        }
    }

    /** The amounts as Koordinator writes them in its annotations: name → quantity string. */
    public static Map<String, String> write(ResourceAmounts amounts) {
        Map<String, String> out = new LinkedHashMap<>();
        amounts.asMap().forEach((name, v) -> out.put(name, quantity(name, v).canonical()));
        return out;
    }

    private static KubeQuantity quantity(String name, long v) {
        return switch (name) {
            case CPU -> new KubeQuantity(BigDecimal.valueOf(v, 3), KubeQuantity.Format.DECIMAL_SI, -3);
            case MEMORY -> new KubeQuantity(BigDecimal.valueOf(v), KubeQuantity.Format.BINARY_SI, 0);
            default -> KubeQuantity.integer(v);
        };
    }
}
