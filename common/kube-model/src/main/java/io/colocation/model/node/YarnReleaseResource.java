package io.colocation.model.node;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.colocation.model.TypedCustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A node agent's {@link YarnRelease}: the cluster-scoped {@code colocation.io/v1alpha1 YarnRelease} named after its
 * node (CRD {@code conf/kubernetes/crds/colocation.io_yarnreleases.yaml}). Only that node's koordlet may write it (the
 * node-agent webhook, failing closed), which stamps it ({@link #PROOF_ANNOTATION}); the broker honours a stamped one
 * only. The spec is kept as written and read with {@link YarnRelease#parse}.
 */
@Group(YarnReleaseResource.GROUP)
@Version("v1alpha1")
@Kind(YarnReleaseResource.KIND)
@Plural(YarnReleaseResource.PLURAL)
// Plain Jackson: fabric8's polymorphic deserializer knows only its own kinds.
@JsonDeserialize(using = JsonDeserializer.None.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public final class YarnReleaseResource extends TypedCustomResource {
    public static final String GROUP = "colocation.io";
    public static final String API_VERSION = GROUP + "/v1alpha1";
    public static final String KIND = "YarnRelease";
    public static final String PLURAL = "yarnreleases";
    /** The node-agent webhook's stamp of the release (an HMAC only the brokers can make). */
    public static final String PROOF_ANNOTATION = "colocation.io/yarn-release-proof";

    private ObjectNode spec;

    public YarnReleaseResource() {
        super(API_VERSION);
    }

    /** The release of node {@code node}, as its koordlet writes it. */
    public static YarnReleaseResource of(String node, YarnRelease release) {
        YarnReleaseResource r = new YarnReleaseResource();
        r.getMetadata().setName(node);
        r.setSpec(release.toSpec());
        return r;
    }

    public ObjectNode getSpec() {
        return spec;
    }

    public void setSpec(ObjectNode spec) {
        this.spec = spec;
    }

    /** The stamp it carries, null when none. */
    public String proof() {
        return getMetadata().getAnnotations() == null ? null : getMetadata().getAnnotations().get(PROOF_ANNOTATION);
    }
}
