package io.colocation.model.slo;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * Koordinator's {@code NodeSLO} (docs/koordinator-compatibility.md §12): per node, the QoS strategies the koordlet
 * applies, rendered by the broker's NodeSLO controller from {@code slo-controller-config}. The strategies
 * are kept as the JSON the ConfigMap holds (merged and validated by {@code SloConfigParser}), so fields this
 * version does not know pass through to the koordlet unchanged; status is empty.
 */
@Group(KoordinatorResource.GROUP)
@Version("v1alpha1")
@Kind("NodeSLO")
@Plural("nodeslos")
// Plain Jackson: fabric8's polymorphic deserializer knows only its own kinds.
@JsonDeserialize(using = JsonDeserializer.None.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public final class NodeSLO extends KoordinatorResource {
    private Spec spec;

    public Spec getSpec() {
        return spec;
    }

    public void setSpec(Spec spec) {
        this.spec = spec;
    }

    /**
     * @param extensions Koordinator's ExtensionsMap; its wire form is {@code {"Object": {...}}}
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Spec(ObjectNode resourceUsedThresholdWithBE, ObjectNode resourceQOSStrategy, ObjectNode cpuBurstStrategy,
            ObjectNode systemStrategy, JsonNode extensions, ArrayNode hostApplications) {
    }
}
