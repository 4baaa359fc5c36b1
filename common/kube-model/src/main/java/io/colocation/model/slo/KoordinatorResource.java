package io.colocation.model.slo;

import io.colocation.model.TypedCustomResource;

/** A cluster-scoped {@code slo.koordinator.sh/v1alpha1} object named after its node: apiVersion, kind, metadata. */
public abstract class KoordinatorResource extends TypedCustomResource {
    public static final String GROUP = "slo.koordinator.sh";
    public static final String API_VERSION = GROUP + "/v1alpha1";

    protected KoordinatorResource() {
        super(API_VERSION);
    }
}
