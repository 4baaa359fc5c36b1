package io.colocation.broker.ledger;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Every node's latest {@link NodeLedger}, read by the API, the metrics and the next pass. */
public final class Ledger {
    private final Map<String, NodeLedger> nodes = new ConcurrentHashMap<>();

    public void put(NodeLedger entry) {
        nodes.put(entry.node(), entry);
    }

    public Optional<NodeLedger> get(String node) {
        return Optional.ofNullable(nodes.get(node));
    }

    public Collection<NodeLedger> all() {
        return nodes.values();
    }

    /** Drops nodes that no longer exist. */
    public void retain(Collection<String> existing) {
        nodes.keySet().retainAll(existing);
    }
}
