package io.colocation.scheduler.plugins.elasticquota;

import com.fasterxml.jackson.databind.JsonNode;
import io.colocation.api.InvalidInputException;
import io.colocation.model.GoDuration;
import io.colocation.quota.QuotaDirectory;
import io.colocation.quota.QuotaUnits;
import io.colocation.quota.ResourceAmounts;
import java.time.Duration;

/**
 * Koordinator's {@code ElasticQuotaArgs} (docs/koordinator-compatibility.md §15.2), its field names and defaults:
 * {@code enableRuntimeQuota} true (false: every check against max), {@code enableMinQuotaScale} true,
 * {@code monitorAllQuotas} false, {@code delayEvictTime} 120s, {@code revokePodInterval} 1s,
 * {@code enableCheckParentQuota} false, {@code disableDefaultQuotaPreemption} true, {@code quotaGroupNamespace}
 * {@code koordinator-system}, {@code defaultQuotaGroupMax} and {@code systemQuotaGroupMax} cpu and memory
 * {@code MaxInt64/5} (cpu in milli-cores here: Koordinator's cores would not fit 64 bits as milli-cores).
 * {@code enableQueueHint}, {@code quotaSnapshotUpdateInterval} and {@code hookPlugins} are accepted and not used.
 */
public record ElasticQuotaArgs(boolean enableRuntimeQuota, boolean enableMinQuotaScale, boolean monitorAllQuotas,
        Duration delayEvictTime, Duration revokePodInterval, boolean enableCheckParentQuota, boolean disableDefaultQuotaPreemption,
        String quotaGroupNamespace, ResourceAmounts defaultQuotaGroupMax, ResourceAmounts systemQuotaGroupMax) {
    private static final ResourceAmounts BUILTIN_MAX = ResourceAmounts.of("cpu", Long.MAX_VALUE / 5, "memory", Long.MAX_VALUE / 5);
    public static final ElasticQuotaArgs DEFAULTS = new ElasticQuotaArgs(true, true, false, Duration.ofSeconds(120),
            Duration.ofSeconds(1), false, true, QuotaDirectory.DEFAULT_NAMESPACE, BUILTIN_MAX, BUILTIN_MAX);

    public static ElasticQuotaArgs parse(JsonNode args, String where) throws InvalidInputException {
        if (args == null || args.isNull() || args.isMissingNode()) {
            return DEFAULTS;
        }
        if (!args.isObject()) {
            throw new InvalidInputException(where + ": must be a map of ElasticQuotaArgs fields");
        }
        ElasticQuotaArgs d = DEFAULTS;
        String namespace = args.path("quotaGroupNamespace").asText(d.quotaGroupNamespace());
        if (namespace.isEmpty()) {
            throw new InvalidInputException(where + ".quotaGroupNamespace: must name a namespace");
        }
        return new ElasticQuotaArgs(bool(args, "enableRuntimeQuota", d.enableRuntimeQuota(), where),
                bool(args, "enableMinQuotaScale", d.enableMinQuotaScale(), where),
                bool(args, "monitorAllQuotas", d.monitorAllQuotas(), where),
                duration(args, "delayEvictTime", d.delayEvictTime(), where),
                duration(args, "revokePodInterval", d.revokePodInterval(), where),
                bool(args, "enableCheckParentQuota", d.enableCheckParentQuota(), where),
                bool(args, "disableDefaultQuotaPreemption", d.disableDefaultQuotaPreemption(), where), namespace,
                max(args, "defaultQuotaGroupMax", d.defaultQuotaGroupMax(), where),
                max(args, "systemQuotaGroupMax", d.systemQuotaGroupMax(), where));
    }

    private static boolean bool(JsonNode args, String field, boolean absent, String where) throws InvalidInputException {
        JsonNode v = args.get(field);
        if (v == null || v.isNull()) {
            return absent;
        }
        if (!v.isBoolean()) {
            throw new InvalidInputException(where + "." + field + ": must be true or false, found " + v);
        }
        return v.booleanValue();
    }

    private static Duration duration(JsonNode args, String field, Duration absent, String where) throws InvalidInputException {
        JsonNode v = args.get(field);
        if (v == null || v.isNull()) {
            return absent;
        }
        Duration d = GoDuration.parse(v.asText(), where + "." + field);
        if (d.isNegative() || d.isZero()) {
            throw new InvalidInputException(where + "." + field + ": must be positive, found " + v.asText());
        }
        return d;
    }

    private static ResourceAmounts max(JsonNode args, String field, ResourceAmounts absent, String where) throws InvalidInputException {
        JsonNode v = args.get(field);
        return v == null || v.isNull() ? absent : QuotaUnits.read(v, where + "." + field);
    }
}
