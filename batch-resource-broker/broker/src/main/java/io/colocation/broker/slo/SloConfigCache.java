package io.colocation.broker.slo;

import io.colocation.model.config.InvalidConfigException;
import io.colocation.model.config.SloConfigKey;
import io.colocation.model.config.SloConfigParser;
import io.colocation.model.config.SloStrategies;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * The {@code slo-controller-config} keys as the NodeSLO controller uses them (docs/koordinator-compatibility.md §11.2):
 * each key parsed on its own when its text changes; an absent key means its defaults; a key that does not
 * parse keeps its last good value (or, with none, is left out so nodes keep what they have) and its error
 * is reported once per distinct text.
 */
public final class SloConfigCache {
    private final String source;
    private final BiConsumer<SloConfigKey, String> onError;
    private final Map<SloConfigKey, String> texts = new EnumMap<>(SloConfigKey.class);
    private final Map<SloConfigKey, SloStrategies> good = new EnumMap<>(SloConfigKey.class);
    private final Map<SloConfigKey, String> errors = new EnumMap<>(SloConfigKey.class);
    private boolean loaded;

    /**
     * @param source  the ConfigMap's name for messages ({@code ConfigMap koordinator-system/slo-controller-config})
     * @param onError called once per new error of a key (to log and record an Event)
     */
    public SloConfigCache(String source, BiConsumer<SloConfigKey, String> onError) {
        this.source = source;
        this.onError = onError;
    }

    /** Reads the ConfigMap's data (null: no ConfigMap, every key at its defaults). Returns whether anything changed. */
    public synchronized boolean update(Map<String, String> data) {
        boolean changed = !loaded;
        loaded = true;
        for (SloConfigKey key : SloConfigKey.values()) {
            String text = data == null ? null : data.get(key.key());
            if (texts.containsKey(key) && Objects.equals(texts.get(key), text)) {
                continue;
            }
            texts.put(key, text);
            changed = true;
            try {
                good.put(key, SloConfigParser.parse(key, text, source + " data." + key.key()));
                errors.remove(key);
            } catch (InvalidConfigException e) {
                String message = e.getMessage() + (good.containsKey(key) ? "; the last good " + key.key() + " stays in force"
                        : "; nodes keep the NodeSLO they have for it");
                errors.put(key, message);
                onError.accept(key, message);
            }
        }
        return changed;
    }

    /** The usable strategies per key; a key in error without a good value before is absent. */
    public synchronized Map<SloConfigKey, SloStrategies> strategies() {
        return Map.copyOf(good);
    }

    /** Keys refused now, with why. */
    public synchronized Map<String, String> errors() {
        Map<String, String> out = new LinkedHashMap<>();
        errors.forEach((k, v) -> out.put(k.key(), v));
        return out;
    }
}
