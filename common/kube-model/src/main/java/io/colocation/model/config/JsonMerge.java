package io.colocation.model.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;

/**
 * Koordinator's {@code MergeCfg}: the overlay is laid onto a copy of the base; nested objects merge field by
 * field, maps merge by key, arrays and scalars replace, and an unset (null) overlay field leaves the base's.
 */
public final class JsonMerge {
    private JsonMerge() {
    }

    public static ObjectNode merge(ObjectNode base, JsonNode overlay) {
        ObjectNode out = base.deepCopy();
        if (overlay == null || !overlay.isObject()) {
            return out;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = overlay.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode value = e.getValue();
            if (value == null || value.isNull()) {
                continue;
            }
            JsonNode current = out.get(e.getKey());
            if (value.isObject() && current instanceof ObjectNode currentObject) {
                out.set(e.getKey(), merge(currentObject, value));
            } else {
                out.set(e.getKey(), value.deepCopy());
            }
        }
        return out;
    }
}
