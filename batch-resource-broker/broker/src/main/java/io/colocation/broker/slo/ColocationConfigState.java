package io.colocation.broker.slo;

import io.colocation.api.KoordinatorKeys;
import io.colocation.broker.state.LastGoodConfig;
import io.colocation.model.config.ColocationConfig;
import io.colocation.model.config.ColocationConfigParser;
import io.colocation.model.config.InvalidConfigException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code colocation-config} key of {@code slo-controller-config} as the pass uses it: Koordinator's defaults
 * without a ConfigMap; parsed once per resourceVersion; a malformed update keeps the last good configuration (from
 * memory, else as {@link LastGoodConfig} kept it) and says why; with none known at all, nodes are frozen.
 */
public final class ColocationConfigState {
    private static final Logger LOG = LoggerFactory.getLogger(ColocationConfigState.class);

    /**
     * @param usable   false when the ConfigMap is malformed and no good configuration is known at all
     * @param accepted the config came from a ConfigMap (now or earlier), not from Koordinator's defaults
     */
    private record Parsed(String resourceVersion, ColocationConfig config, String error, boolean usable, boolean accepted) {
    }

    private final String source;
    private final LastGoodConfig lastGood;
    private volatile Parsed parsed = new Parsed(null, ColocationConfig.defaults(), null, true, false);

    /** @param configMap names the ConfigMap in messages ({@code koordinator-system/slo-controller-config}) */
    public ColocationConfigState(String configMap, LastGoodConfig lastGood) {
        this.source = "ConfigMap " + configMap + " data." + KoordinatorKeys.COLOCATION_CONFIG_KEY;
        this.lastGood = lastGood;
    }

    /**
     * The config for the ConfigMap as it is now ({@code json} its key's text, null when the key or the ConfigMap is
     * absent; {@code resourceVersion} null when there is no ConfigMap).
     */
    public synchronized ColocationConfig update(String resourceVersion, String json, boolean configMapExists) {
        Parsed current = parsed;
        if (!configMapExists) {
            if (current.resourceVersion() != null || !current.usable()) {
                parsed = new Parsed(null, ColocationConfig.defaults(), null, true, false);
            }
            return parsed.config();
        }
        if (resourceVersion != null && resourceVersion.equals(current.resourceVersion())) {
            return current.config();
        }
        try {
            ColocationConfig config = ColocationConfigParser.parse(json, source);
            parsed = new Parsed(resourceVersion, config, null, true, true);
            if (json != null) {
                lastGood.save(json);
            }
            LOG.info("using {} (resourceVersion {})", source, resourceVersion);
        } catch (InvalidConfigException e) {
            parsed = refused(resourceVersion, current, e.getMessage());
        }
        return parsed.config();
    }

    private Parsed refused(String version, Parsed current, String error) {
        if (current.accepted()) {
            LOG.error("keeping the previous colocation config: {}", error);
            return new Parsed(version, current.config(), error, true, true);
        }
        Optional<String> kept = lastGood.load();
        if (kept.isPresent()) {
            try {
                ColocationConfig config = ColocationConfigParser.parse(kept.get(), "the last good colocation-config kept by the broker");
                LOG.error("using the last good colocation config the broker kept: {}", error);
                return new Parsed(version, config, error + " (using the last good configuration the broker kept)", true, true);
            } catch (InvalidConfigException keptInvalid) {
                LOG.error("the kept colocation config is not valid either: {}", keptInvalid.getMessage());
            }
        }
        String why = error + "; no good configuration is known: Batch already published is kept (nodes frozen) until it is fixed";
        LOG.error("{}", why);
        return new Parsed(version, current.config(), why, false, false);
    }

    /** Why the latest ConfigMap was refused, null when it was not. */
    public String error() {
        return parsed.error();
    }

    /** False when the ConfigMap is malformed and no good configuration is known: nodes must be frozen. */
    public boolean usable() {
        return parsed.usable();
    }
}
