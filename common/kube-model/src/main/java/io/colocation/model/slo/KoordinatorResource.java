package io.colocation.model.slo;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;

/** A cluster-scoped {@code slo.koordinator.sh/v1alpha1} object named after its node: apiVersion, kind, metadata. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"apiVersion", "kind", "metadata"})
public abstract class KoordinatorResource implements HasMetadata {
    public static final String GROUP = "slo.koordinator.sh";
    public static final String API_VERSION = GROUP + "/v1alpha1";

    private String apiVersion = API_VERSION;
    private ObjectMeta metadata = new ObjectMeta();

    @Override
    public ObjectMeta getMetadata() {
        return metadata;
    }

    @Override
    public void setMetadata(ObjectMeta metadata) {
        this.metadata = metadata;
    }

    @Override
    public String getApiVersion() {
        return apiVersion;
    }

    @Override
    public void setApiVersion(String apiVersion) {
        this.apiVersion = apiVersion;
    }

    /** Read back by Jackson; the kind comes from the class. */
    public void setKind(String kind) {
        // the class decides the kind
    }
}
