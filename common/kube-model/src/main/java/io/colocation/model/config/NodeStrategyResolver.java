package io.colocation.model.config;

import io.colocation.api.KoordinatorKeys;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The strategy in force on one node (Koordinator's {@code GetNodeColocationStrategy}): the cluster
 * strategy, overlaid by the first {@code nodeConfigs} entry whose selector matches the node's labels,
 * then by the node's {@code node.koordinator.sh/colocation-strategy} annotation, then by the reclaim-ratio
 * labels. Node metadata that cannot be read is ignored, as Koordinator ignores it, and said in the notes.
 */
public final class NodeStrategyResolver {
    private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");

    private NodeStrategyResolver() {
    }

    /** The node's strategy and what was ignored on the way. */
    public record Resolved(ColocationStrategy strategy, String source, List<String> notes) {
    }

    public static Resolved resolve(ColocationConfig config, Map<String, String> labels, Map<String, String> annotations) {
        Map<String, String> l = labels == null ? Map.of() : labels;
        Map<String, String> a = annotations == null ? Map.of() : annotations;
        List<String> notes = new ArrayList<>();
        ColocationStrategy strategy = config.cluster();
        String source = "cluster strategy";
        for (int i = 0; i < config.nodeConfigs().size(); i++) {
            ColocationConfig.NodeConfig nodeConfig = config.nodeConfigs().get(i);
            if (nodeConfig.selector().matches(l)) {
                strategy = nodeConfig.strategy();
                source = "nodeConfigs[" + i + "]" + (nodeConfig.name().isEmpty() ? "" : " (" + nodeConfig.name() + ")");
                break;
            }
        }
        String onNode = a.get(KoordinatorKeys.ANNOTATION_NODE_COLOCATION_STRATEGY);
        if (onNode != null) {
            try {
                strategy = strategy.overlay(ColocationConfigParser.parseStrategy(onNode,
                        "annotation " + KoordinatorKeys.ANNOTATION_NODE_COLOCATION_STRATEGY));
                source += " + node annotation";
            } catch (InvalidConfigException e) {
                notes.add("ignored " + e.getMessage());
            }
        }
        Long cpu = percentFromRatio(l, KoordinatorKeys.LABEL_CPU_RECLAIM_RATIO, notes);
        Long memory = percentFromRatio(l, KoordinatorKeys.LABEL_MEMORY_RECLAIM_RATIO, notes);
        Long midCpu = percentFromRatio(l, KoordinatorKeys.LABEL_MID_STATIC_CPU_RESERVED_RATIO, notes);
        Long midMemory = percentFromRatio(l, KoordinatorKeys.LABEL_MID_STATIC_MEMORY_RESERVED_RATIO, notes);
        if (cpu != null || memory != null || midCpu != null || midMemory != null) {
            strategy = strategy.overlay(new ColocationStrategy(null, null, null, null, null, cpu, null, memory, null,
                    null, null, null, null, null, null, null, null, null, midCpu, midMemory));
            source += " + node labels";
        }
        return new Resolved(strategy, source, List.copyOf(notes));
    }

    /** A label holding a ratio (0.65) as a percent, truncated as Koordinator's {@code int64(v * 100)}. */
    private static Long percentFromRatio(Map<String, String> labels, String key, List<String> notes) {
        String value = labels.get(key);
        if (value == null) {
            return null;
        }
        if (!DECIMAL.matcher(value).matches()) {
            notes.add("ignored label " + key + "=" + value + ": not a number");
            return null;
        }
        double ratio = Double.parseDouble(value);
        if (ratio < 0 || Double.isInfinite(ratio)) {
            notes.add("ignored label " + key + "=" + value + ": must be a finite ratio >= 0");
            return null;
        }
        return (long) (ratio * 100);
    }
}
