package io.colocation.broker.fakes;

import io.colocation.api.yarn.YarnGrant;
import io.colocation.broker.yarn.NotLeaderException;
import io.colocation.broker.yarn.YarnSide;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** A YARN cluster in memory: it applies (acknowledges) every grant at once and reports what it was told is used. */
public final class InMemoryYarnSide implements YarnSide {
    private final String clusterId;
    private final Map<String, YarnGrant> grants = new ConcurrentHashMap<>();
    private final Map<String, Usage> used = new ConcurrentHashMap<>();
    public final Set<String> unreachable = ConcurrentHashMap.newKeySet();

    public InMemoryYarnSide(String clusterId, Collection<String> nodeIds) {
        this.clusterId = clusterId;
        nodeIds.forEach(n -> used.put(n, Usage.NONE));
    }

    public void use(String nodeId, int vcores, long memoryMB) {
        used.put(nodeId, new Usage(vcores, memoryMB));
    }

    @Override
    public String clusterId() {
        return clusterId;
    }

    @Override
    public void start(Runnable onApplied) {
    }

    @Override
    public void resume() {
    }

    @Override
    public Collection<String> knownNodes() {
        return used.keySet();
    }

    @Override
    public Optional<Usage> used(String nodeId) {
        return Optional.ofNullable(used.get(nodeId));
    }

    @Override
    public Usage demand() {
        return Usage.NONE;
    }

    @Override
    public Optional<io.colocation.api.yarn.YarnApplications> applications() {
        return Optional.empty();
    }

    @Override
    public boolean reachable(String nodeId) {
        return !unreachable.contains(nodeId);
    }

    @Override
    public Health health() {
        return new Health(true, "in memory");
    }

    @Override
    public Optional<YarnGrant> grant(String nodeId) {
        return Optional.ofNullable(grants.get(nodeId));
    }

    @Override
    public Optional<Usage> applied(String nodeId) {
        return grant(nodeId).map(g -> new Usage(g.vcores(), g.memoryMB()));
    }

    @Override
    public Optional<Usage> unconfirmed(String nodeId) {
        return Optional.empty(); // every grant is applied as it is published
    }

    @Override
    public YarnGrant publish(String nodeId, int vcores, long memoryMB, Usage keep) throws NotLeaderException {
        YarnGrant previous = grants.get(nodeId);
        YarnGrant g = new YarnGrant(nodeId, 1, previous == null ? 1 : previous.version() + 1, vcores, memoryMB, System.currentTimeMillis(),
                keep.vcores(), keep.memoryMB());
        grants.put(nodeId, g);
        return g;
    }

    @Override
    public void close() {
    }
}
