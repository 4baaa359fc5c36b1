package io.colocation.koordlet.yarn;

import io.colocation.koordlet.collect.CollectTargets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The copilot's list of running YARN containers as the koordlet uses it: asked on a thread of its own, trusted as current
 * for {@link #maxAge()} only (a slow or silent copilot makes YARN unknown, never stale).
 */
public final class CopilotListing implements YarnContainers {
    private static final Logger LOG = LoggerFactory.getLogger(CopilotListing.class);

    private final CopilotClient copilot;
    private final String yarnParent;
    private final int refreshSeconds;
    private final Clock clock;
    private volatile Optional<List<CollectTargets.YarnTarget>> listed = Optional.empty();
    /** When the copilot last answered a list (agent clock, ms); 0: never. */
    private volatile long listedMillis;

    /** @param yarnParent the cgroup where YARN containers without one are put, passed on to the copilot's list */
    public CopilotListing(CopilotClient copilot, String yarnParent, int refreshSeconds, Clock clock) {
        this.copilot = copilot;
        this.yarnParent = yarnParent;
        this.refreshSeconds = refreshSeconds;
        this.clock = clock;
    }

    /** Asks the copilot for its list; the copilot thread's own. */
    @Override
    public void refresh() {
        try {
            Optional<List<CollectTargets.YarnTarget>> answer = copilot.runningContainers(yarnParent);
            if (answer.isPresent()) {
                listedMillis = clock.millis();
            }
            listed = answer;
        } catch (RuntimeException e) {
            listed = Optional.empty();
            LOG.error("koordlet: asking the copilot failed; trying again in {} s", refreshSeconds, e);
        }
    }

    /** The last list while it is recent enough; unknown (empty) otherwise. */
    @Override
    public Optional<List<CollectTargets.YarnTarget>> current() {
        Optional<List<CollectTargets.YarnTarget>> l = listed;
        return l.isPresent() && clock.millis() - listedMillis <= maxAge().toMillis() ? l : Optional.empty();
    }

    /** Two refreshes and the longest a copilot answer may take: a list older than this is not trusted as current. */
    public Duration maxAge() {
        return Duration.ofSeconds(2L * refreshSeconds).plus(CopilotClient.LIST_DEADLINE);
    }

    @Override
    public String describe() {
        return copilot.describe();
    }

    @Override
    public Map<String, String> problems() {
        return copilot.problems();
    }

    @Override
    public Map<String, Long> refusals() {
        return copilot.refusals();
    }

    @Override
    public boolean ownedByNodeManager(int pid) {
        return copilot.ownedByNodeManager(pid);
    }

    @Override
    public Optional<String> kill(String containerID, String reason) {
        return copilot.killContainer(containerID, reason);
    }
}
