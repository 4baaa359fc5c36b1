package io.colocation.broker.publication;

import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * Every node's {@link NodeMemory}. A pass decides and publishes a node on one thread, and nodes in parallel; each node's
 * memory is replaced whole, so a reader sees one publication's state or the next, never half of one.
 */
public final class PublicationMemory {
    private final Map<String, NodeMemory> nodes = new ConcurrentHashMap<>();
    private final Duration settle;

    /** @param settle how long a shrink of Batch settles before YARN may grow into it (arbitration.kubernetesShrinkSettle) */
    public PublicationMemory(Duration settle) {
        this.settle = settle;
    }

    public NodeMemory of(String node) {
        return nodes.getOrDefault(node, NodeMemory.NONE);
    }

    public Duration settle() {
        return settle;
    }

    /** Whether a shrink of the node has settled since last asked (no event announces it: the node is to be decided again). */
    public boolean settledSinceAsked(String node) {
        boolean[] settled = {false};
        nodes.computeIfPresent(node, (n, m) -> {
            if (m.settling() != null && m.settling().settled(System.nanoTime(), settle)) {
                settled[0] = true;
                return m.withSettled();
            }
            return m;
        });
        return settled[0];
    }

    void update(String node, UnaryOperator<NodeMemory> change) {
        nodes.compute(node, (n, m) -> change.apply(m == null ? NodeMemory.NONE : m));
    }

    /** Forgets what this replica wrote as leader, so the next pass compares with the sides again. */
    public void forgetWritten() {
        nodes.replaceAll((n, m) -> m.forgetWritten());
    }

    public void retain(Collection<String> names) {
        nodes.keySet().retainAll(names);
    }
}
