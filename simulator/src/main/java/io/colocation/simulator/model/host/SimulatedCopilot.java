package io.colocation.simulator.model.host;

import io.colocation.koordlet.collect.CollectTargets;
import io.colocation.koordlet.yarn.YarnContainers;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a simulated host's koordlet learns of its NodeManager through the copilot: the YARN containers running there,
 * always current (the model's own list), and a kill. Each engine's NodeManager model says which containers and how a
 * kill is carried out.
 */
public abstract class SimulatedCopilot implements YarnContainers {
    /** The last answer and the collection it was read from. */
    private record Listed(Collection<BatchTask> running, Optional<List<CollectTargets.YarnTarget>> targets) {
    }

    private volatile Listed last;

    /**
     * The YARN containers running on the host now: a collection not changed once returned; the same one again while
     * nothing changed spares the agent reading it again.
     */
    protected abstract Collection<BatchTask> running();

    @Override
    public Optional<List<CollectTargets.YarnTarget>> current() {
        Collection<BatchTask> running = running();
        Listed listed = last;
        if (listed != null && listed.running() == running) {
            return listed.targets();
        }
        List<CollectTargets.YarnTarget> out = new ArrayList<>(running.size());
        for (BatchTask t : running) {
            out.add(new CollectTargets.YarnTarget(t.id(), "", List.of(), (int) (t.requestMilli() / 1000), t.requestMemory() >> 20,
                    t.priority(), t.applicationMaster()));
        }
        Optional<List<CollectTargets.YarnTarget>> targets = Optional.of(List.copyOf(out));
        last = new Listed(running, targets);
        return targets;
    }

    @Override
    public void refresh() {
        // the model's own list is always current
    }

    @Override
    public Map<String, String> problems() {
        return Map.of();
    }

    @Override
    public Map<String, Long> refusals() {
        return Map.of();
    }

    @Override
    public boolean ownedByNodeManager(int pid) {
        return false;
    }
}
