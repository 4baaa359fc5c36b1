package io.colocation.scheduler.framework;

import java.util.List;
import java.util.Optional;

/**
 * The post-filter extension point: the pod was held back at PreFilter or no node fits it ({@code why} is the cycle's
 * summary), as kube-scheduler's. A plugin may answer a {@link Nomination}: the node the pod can take once the victims
 * are gone (preemption); the first plugin that nominates wins. Others only react (a gang lets its members go).
 */
public interface PostFilterPlugin extends Plugin {
    Optional<Nomination> postFilter(CycleState state, PodInfo pod, String why);

    /** The node the pod may take once {@code victims} are gone, and why they go. */
    record Nomination(String node, List<PodInfo> victims, String why) {
        public Nomination {
            victims = List.copyOf(victims);
        }
    }
}
