package io.colocation.api;

/** Koordinator QoS classes (label {@code koordinator.sh/qosClass}, docs/koordinator-compatibility.md §1.2). */
public enum QoSClass {
    SYSTEM, LSE, LSR, LS, BE, NONE;

    /** The class a label value stands for; anything else is {@link #NONE}. */
    public static QoSClass fromLabel(String value) {
        if (value != null) {
            for (QoSClass c : values()) {
                if (c != NONE && c.name().equals(value)) {
                    return c;
                }
            }
        }
        return NONE;
    }

    /** Default for a pod without the label, from its Kubernetes QoS class (Guaranteed, Burstable, BestEffort). */
    public static QoSClass fromKubeQoS(String kubeQoS) {
        if (kubeQoS == null) {
            return NONE;
        }
        switch (kubeQoS) {
            case "Guaranteed":
                return LSR;
            case "Burstable":
                return LS;
            case "BestEffort":
                return BE;
            default:
                return NONE;
        }
    }

    /** The priority class a pod gets from its QoS class when it names none. */
    public PriorityClass defaultPriorityClass() {
        switch (this) {
            case BE:
                return PriorityClass.BATCH;
            case NONE:
                return PriorityClass.NONE;
            default: // SYSTEM, LSE, LSR, LS
                return PriorityClass.PROD;
        }
    }
}
