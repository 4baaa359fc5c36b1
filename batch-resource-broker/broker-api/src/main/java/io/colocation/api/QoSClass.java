package io.colocation.api;

/** Koordinator QoS classes (label {@code koordinator.sh/qosClass}, KOORDINATOR-COMPAT.md §1.2). */
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
        return switch (kubeQoS) {
            case "Guaranteed" -> LSR;
            case "Burstable" -> LS;
            case "BestEffort" -> BE;
            default -> NONE;
        };
    }

    /** The priority class a pod gets from its QoS class when it names none. */
    public PriorityClass defaultPriorityClass() {
        return switch (this) {
            case SYSTEM, LSE, LSR, LS -> PriorityClass.PROD;
            case BE -> PriorityClass.BATCH;
            case NONE -> PriorityClass.NONE;
        };
    }
}
