package io.colocation.copilot;

import java.util.Optional;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.MetricsSystem;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.lib.MutableGaugeInt;
import org.apache.hadoop.metrics2.lib.MutableGaugeLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The exit code the NodeManager itself recorded for a finished container. Its container state machine
 * writes the code into the container's metrics source ({@code ContainerResource_<container_id>}, kept
 * while {@code yarn.nodemanager.container-metrics.enable} is true, the default) before it tells aux
 * services that the container stopped, so the code is there when {@code stopContainer} runs, however
 * busy the host: the executor's exit-code file is not (the NodeManager deletes it while cleaning up,
 * and on a loaded host the copilot's watcher may come too late).
 *
 * <p>The gauges are public fields of the NodeManager's {@code ContainerMetrics} (Hadoop 3.3 to 3.5), a
 * class private to the NodeManager, hence reflection; they are read, never snapshotted, since a snapshot
 * clears the "changed" flags the NodeManager's own metrics sinks rely on. A NodeManager without them
 * leaves the exit-code file as the only source.
 */
final class NodeManagerExitCodes {
    private static final Logger LOG = LoggerFactory.getLogger(NodeManagerExitCodes.class);
    private static final String SOURCE_PREFIX = "ContainerResource_";

    private final MetricsSystem metrics = DefaultMetricsSystem.instance();
    private volatile boolean warned;

    /** The recorded exit code, once the NodeManager has recorded the container's finish; else empty. */
    Optional<Integer> recorded(String containerId) {
        MetricsSource source = metrics.getSource(SOURCE_PREFIX + containerId);
        if (source == null) {
            return Optional.empty();
        }
        try {
            MutableGaugeLong finishTime = (MutableGaugeLong) source.getClass().getField("finishTime").get(source);
            if (finishTime == null || finishTime.value() <= 0) {
                return Optional.empty();
            }
            MutableGaugeInt exitCode = (MutableGaugeInt) source.getClass().getField("exitCode").get(source);
            return exitCode == null ? Optional.empty() : Optional.of(exitCode.value());
        } catch (ReflectiveOperationException | ClassCastException e) {
            if (!warned) {
                warned = true;
                LOG.warn("this NodeManager's container metrics ({}) have no finishTime/exitCode gauges ({}): exit codes come from "
                        + "the executor's exit-code files only", source.getClass().getName(), e.toString());
            }
            return Optional.empty();
        }
    }
}
