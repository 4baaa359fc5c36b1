package io.colocation.api;

/**
 * Koordinator priority classes (docs/koordinator-compatibility.md §1.1): a name, the inclusive range of
 * {@code spec.priority} values it covers, and the value used when only the class is known.
 */
public enum PriorityClass {
    PROD("koord-prod", 9000, 9999, 9500),
    MID("koord-mid", 7000, 7999, 7500),
    BATCH("koord-batch", 5000, 5999, 5500),
    FREE("koord-free", 3000, 3999, 3500),
    NONE("", Integer.MIN_VALUE, Integer.MIN_VALUE, 0);

    private final String koordName;
    private final int min;
    private final int max;
    private final int defaultValue;

    PriorityClass(String koordName, int min, int max, int defaultValue) {
        this.koordName = koordName;
        this.min = min;
        this.max = max;
        this.defaultValue = defaultValue;
    }

    /** The Koordinator name, e.g. {@code koord-batch}; empty for {@link #NONE}. */
    public String koordName() {
        return koordName;
    }

    public int defaultValue() {
        return defaultValue;
    }

    /** The class a name stands for; anything but the four names is {@link #NONE}. */
    public static PriorityClass fromName(String name) {
        if (name != null && !name.isEmpty()) {
            for (PriorityClass c : values()) {
                if (c.koordName.equals(name)) {
                    return c;
                }
            }
        }
        return NONE;
    }

    /** The class whose range holds a pod's {@code spec.priority}; out of every range is {@link #NONE}. */
    public static PriorityClass fromPriorityValue(int priority) {
        for (PriorityClass c : values()) {
            if (c != NONE && priority >= c.min && priority <= c.max) {
                return c;
            }
        }
        return NONE;
    }

    /** Whether this class counts as high priority for the Batch calculation (not batch, not free). */
    public boolean isHighPriorityForBatch() {
        return this != BATCH && this != FREE;
    }

    @Override
    public String toString() {
        return this == NONE ? "none" : koordName;
    }
}
