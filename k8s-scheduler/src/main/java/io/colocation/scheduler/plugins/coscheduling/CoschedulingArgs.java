package io.colocation.scheduler.plugins.coscheduling;

import com.fasterxml.jackson.databind.JsonNode;
import io.colocation.api.InvalidInputException;
import io.colocation.model.GoDuration;
import java.time.Duration;

/**
 * Koordinator's {@code CoschedulingArgs} (docs/koordinator-compatibility.md §10.1): {@code defaultTimeout} (600s), a member's
 * Permit wait when its gang sets none, and {@code defaultMatchPolicy} ({@code once-satisfied}). The other fields
 * (controllerWorkers, enablePreemption, awareNetworkTopology, skipCheckScheduleCycle) are accepted and not used.
 */
public record CoschedulingArgs(Duration defaultTimeout, String defaultMatchPolicy) {
    public static final CoschedulingArgs DEFAULTS = new CoschedulingArgs(Duration.ofSeconds(600), Gang.ONCE_SATISFIED);

    public static CoschedulingArgs parse(JsonNode args, String where) throws InvalidInputException {
        if (args == null || args.isNull() || args.isMissingNode()) {
            return DEFAULTS;
        }
        if (!args.isObject()) {
            throw new InvalidInputException(where + ": must be a map of CoschedulingArgs fields");
        }
        Duration timeout = DEFAULTS.defaultTimeout();
        if (args.hasNonNull("defaultTimeout")) {
            timeout = GoDuration.parse(args.get("defaultTimeout").asText(), where + ".defaultTimeout");
            if (timeout.isZero()) {
                throw new InvalidInputException(where + ".defaultTimeout: must be positive");
            }
        }
        String policy = args.path("defaultMatchPolicy").asText(DEFAULTS.defaultMatchPolicy());
        if (!policy.equals(Gang.ONCE_SATISFIED) && !policy.equals(Gang.ONLY_WAITING) && !policy.equals(Gang.WAITING_AND_RUNNING)) {
            throw new InvalidInputException(where + ".defaultMatchPolicy: must be once-satisfied, only-waiting or"
                    + " waiting-and-running, found '" + policy + "'");
        }
        return new CoschedulingArgs(timeout, policy);
    }
}
