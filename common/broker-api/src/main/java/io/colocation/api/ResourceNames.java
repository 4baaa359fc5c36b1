package io.colocation.api;

/**
 * Koordinator's extended resource names (docs/koordinator-compatibility.md §1.3). CPU values are integer
 * milli-cores, memory values bytes.
 */
public final class ResourceNames {
    public static final String CPU = "cpu";
    public static final String MEMORY = "memory";
    public static final String BATCH_CPU = "kubernetes.io/batch-cpu";
    public static final String BATCH_MEMORY = "kubernetes.io/batch-memory";
    public static final String MID_CPU = "kubernetes.io/mid-cpu";
    public static final String MID_MEMORY = "kubernetes.io/mid-memory";

    private ResourceNames() {
    }
}
