package io.colocation.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;

/**
 * A custom resource of ours or Koordinator's, typed: apiVersion (given by the subclass), kind (from the class's
 * {@code @Kind}) and metadata; the subclass adds its spec and status.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"apiVersion", "kind", "metadata"})
public abstract class TypedCustomResource implements HasMetadata {
    private String apiVersion;
    private ObjectMeta metadata = new ObjectMeta();

    protected TypedCustomResource(String apiVersion) {
        this.apiVersion = apiVersion;
    }

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
