package io.colocation.model.slo;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;

/** Koordinator's {@code ResourceMap}: {@code {"resources": {"cpu": "2", "memory": "4Gi"}}}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ResourceMap(Map<String, Quantity> resources) {
}
