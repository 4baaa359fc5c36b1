package io.colocation.sandbox.scenario;

import io.fabric8.kubernetes.api.model.Quantity;

/** The scenario's pod sizes as Kubernetes quantities, rounded to a milli-core and a mebibyte. */
final class PodSizes {
    private PodSizes() {
    }

    static Quantity milliCores(double m) {
        return new Quantity(Math.round(m) + "m");
    }

    static Quantity mebibytes(double mi) {
        return new Quantity(Math.round(mi) + "Mi");
    }
}
