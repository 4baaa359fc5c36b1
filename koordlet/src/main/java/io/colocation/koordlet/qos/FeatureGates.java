package io.colocation.koordlet.qos;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The koordlet feature gates this agent knows, with Koordinator's names and defaults (docs/koordinator-compatibility.md §5.1),
 * set as Koordinator's {@code --feature-gates} flag sets them: {@code BECPUEvict=true,BEMemoryEvict=false}.
 */
public final class FeatureGates {
    public static final String BE_CPU_SUPPRESS = "BECPUSuppress";
    public static final String BE_CPU_EVICT = "BECPUEvict";
    public static final String CPU_EVICT = "CPUEvict";
    public static final String CPU_ALLOCATABLE_EVICT = "CPUAllocatableEvict";
    public static final String BE_MEMORY_EVICT = "BEMemoryEvict";
    public static final String MEMORY_EVICT = "MemoryEvict";
    public static final String MEMORY_ALLOCATABLE_EVICT = "MemoryAllocatableEvict";

    private static final Map<String, Boolean> DEFAULTS = defaults();

    private final Map<String, Boolean> gates;

    private FeatureGates(Map<String, Boolean> gates) {
        this.gates = Collections.unmodifiableMap(gates);
    }

    private static Map<String, Boolean> defaults() {
        Map<String, Boolean> d = new LinkedHashMap<>();
        d.put(BE_CPU_SUPPRESS, true);
        d.put("CPUBurst", true);
        d.put("RdtResctrl", true);
        d.put(BE_CPU_EVICT, false);
        d.put(CPU_EVICT, false);
        d.put(CPU_ALLOCATABLE_EVICT, false);
        d.put(BE_MEMORY_EVICT, false);
        d.put(MEMORY_EVICT, false);
        d.put(MEMORY_ALLOCATABLE_EVICT, false);
        d.put("BECPUManager", false);
        d.put("CgroupReconcile", false);
        d.put("SystemConfig", false);
        return Collections.unmodifiableMap(d);
    }

    public static FeatureGates defaultGates() {
        return new FeatureGates(new LinkedHashMap<>(DEFAULTS));
    }

    /** The defaults with {@code overrides} applied; an unknown gate is an error, as it is to Koordinator. */
    public static FeatureGates of(Map<String, Boolean> overrides) {
        Map<String, Boolean> g = new LinkedHashMap<>(DEFAULTS);
        for (Map.Entry<String, Boolean> e : overrides.entrySet()) {
            if (!DEFAULTS.containsKey(e.getKey())) {
                throw new IllegalArgumentException("unrecognized feature gate: " + e.getKey() + " (known: "
                        + String.join(", ", DEFAULTS.keySet()) + ")");
            }
            g.put(e.getKey(), e.getValue());
        }
        return new FeatureGates(g);
    }

    /** Parses the flag's value, {@code Name=true,Other=false}; an empty value keeps the defaults. */
    public static FeatureGates parse(String flag) {
        Map<String, Boolean> overrides = new LinkedHashMap<>();
        for (String part : flag.split(",")) {
            String p = part.trim();
            if (p.isEmpty()) {
                continue;
            }
            int eq = p.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("missing bool value for " + p + " (write " + p + "=true)");
            }
            String value = p.substring(eq + 1).trim().toLowerCase(Locale.ROOT);
            if (!value.equals("true") && !value.equals("false")) {
                throw new IllegalArgumentException("invalid value of " + p.substring(0, eq) + ": " + p.substring(eq + 1)
                        + " (true or false)");
            }
            overrides.put(p.substring(0, eq).trim(), Boolean.parseBoolean(value));
        }
        return of(overrides);
    }

    public boolean enabled(String gate) {
        return gates.getOrDefault(gate, false);
    }

    public Map<String, Boolean> asMap() {
        return gates;
    }
}
