package io.colocation.koordlet.kube;

import io.colocation.helpers.log.DistinctWarnings;
import io.colocation.koordlet.cgroup.CgroupLayout;
import io.colocation.model.GoDuration;
import io.colocation.model.slo.NodeMetric;
import io.colocation.model.slo.NodeSLO;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the koordlet reads from its node's NodeMetric spec (the collect policy) and NodeSLO (the host applications),
 * read again only when their resourceVersion changed. A NodeMetric that cannot be read leaves the policy in force as
 * it is; what cannot be used is named through the agent's warnings.
 */
public final class NodeSpecs {
    private static final Logger LOG = LoggerFactory.getLogger(NodeSpecs.class);

    private final NodeView watches;
    private final String nodeName;
    private final CgroupLayout layout;
    private final String yarnHostApplication;
    private final DistinctWarnings warnings;
    private String metricVersion;
    private String sloVersion;
    private boolean policyRead;
    private CollectPolicy policy = CollectPolicy.DEFAULT;
    private List<HostApplications.HostApp> hostApps = List.of();

    /** @param yarnHostApplication the host application YARN is reported as; null when YARN is not measured */
    public NodeSpecs(NodeView watches, String nodeName, CgroupLayout layout, String yarnHostApplication, DistinctWarnings warnings) {
        this.watches = watches;
        this.nodeName = nodeName;
        this.layout = layout;
        this.yarnHostApplication = yarnHostApplication;
        this.warnings = warnings;
    }

    /** Re-reads what changed since the last call. */
    public synchronized void refresh() {
        Optional<NodeMetric> metric = watches.nodeMetric();
        var entry = watches.nodeMetricEntry();
        String mv = entry.map(e -> e.resourceVersion()).orElse("");
        if (!mv.equals(metricVersion) && entry.map(e -> e.readable()).orElse(true)) {
            metricVersion = mv;
            CollectPolicy read = CollectPolicy.of(metric.map(NodeMetric::getSpec).orElse(null));
            // Most changes are our own status writes: only a changed spec is news.
            if (!read.equals(policy) || !policyRead) {
                policyRead = true;
                policy = read;
                warnAll("NodeMetric " + nodeName + " spec", policy.problems());
                LOG.info("collect policy: aggregate {}s, report every {}s, durations {}, memory {}", policy.aggregateWindow().getSeconds(),
                        policy.reportInterval().getSeconds(), policy.aggregateDurations().stream().map(GoDuration::format).toList(),
                        policy.memoryPolicy().wireName());
            }
        }
        Optional<NodeSLO> slo = watches.nodeSlo();
        String sv = slo.map(s -> s.getMetadata().getResourceVersion()).orElse("");
        if (!sv.equals(sloVersion)) {
            sloVersion = sv;
            HostApplications.Parsed parsed = HostApplications.parse(slo.map(NodeSLO::getSpec).map(NodeSLO.Spec::hostApplications)
                    .orElse(null), layout, yarnHostApplication);
            hostApps = parsed.apps();
            warnAll("NodeSLO " + nodeName + " hostApplications", parsed.problems());
        }
    }

    public synchronized CollectPolicy policy() {
        return policy;
    }

    public synchronized List<HostApplications.HostApp> hostApps() {
        return hostApps;
    }

    private void warnAll(String subject, List<String> problems) {
        if (problems.isEmpty()) {
            warnings.resolved(subject);
        } else {
            warnings.warn(subject, String.join("; ", problems));
        }
    }
}
