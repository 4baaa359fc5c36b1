package io.colocation.sandbox;

import io.colocation.api.InvalidInputException;
import io.colocation.model.GoDuration;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * {@code colocation sandbox [--nodes N] [--duration D] [--policy partitioned|shared] [--no-yarn] [--no-spark] [--no-real-node]
 * [--keep-running] [--summary-json FILE]}.
 *
 * @param spark       whether Spark applications run: on YARN (with YARN) and on Kubernetes (with a real node)
 * @param realNode    whether the first node is a real kubelet on this host when the host allows it
 * @param summaryJson where the summary is also written as JSON (for scripts and the sandbox's own test), or null
 */
public record SandboxOptions(int nodes, Duration duration, String policy, boolean yarn, boolean spark, boolean realNode,
        boolean keepRunning, Path summaryJson) {
    public static final int DEFAULT_NODES = 3;
    public static final Duration DEFAULT_DURATION = Duration.ofSeconds(150);
    /**
     * The spike lasts a quarter of the scenario and must outlast the way from load to preemption (the sandbox's 10 s
     * aggregation, 5 s reports, 5 s take-back): at 60 s no YARN container was preempted, at 80 s one was.
     */
    static final Duration MIN_DURATION = Duration.ofSeconds(90);
    static final Duration MAX_DURATION = Duration.ofHours(24);

    public static final String USAGE = """
            Usage: colocation sandbox [--nodes N] [--duration D] [--policy partitioned|shared] [--no-yarn] [--no-spark]
                                      [--no-real-node] [--keep-running] [--summary-json FILE]
              Runs the whole system on this machine (ZooKeeper, etcd + kube-apiserver, YARN with the scheduler plugin and
              the copilot, the broker with its console, one koordlet per node) and plays a narrated scenario.
              --nodes N          nodes, 1 to 10 (default 3); of 2 or more, the first is a real kubelet on this
                                 host when it can be
              --duration D       the scenario's length, a Go duration of 90s or more (default 2m30s)
              --policy P         the broker's arbitration policy: partitioned (default) or shared
              --no-yarn          without YARN: Batch goes to Kubernetes batch pods only
              --no-spark         no Spark application: neither on YARN beside the MapReduce job nor on Kubernetes
                                 (executor pods on the real node)
              --no-real-node     every node simulated, even where this host could run a real kubelet (root,
                                 writable cgroups, dev/install-kubelet-node.sh run)
              --keep-running     stay up after the summary, for exploring, until Ctrl-C
              --summary-json F   also write the summary to F as JSON
            """;

    /** Whether a Spark application goes to YARN. */
    public boolean sparkOnYarn() {
        return spark && yarn;
    }

    public static SandboxOptions parse(List<String> args) throws InvalidInputException {
        int nodes = DEFAULT_NODES;
        Duration duration = DEFAULT_DURATION;
        String policy = "partitioned";
        boolean yarn = true;
        boolean spark = true;
        boolean realNode = true;
        boolean keep = false;
        Path summary = null;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--nodes" -> {
                    String v = value(args, ++i, a);
                    try {
                        nodes = Integer.parseInt(v);
                    } catch (NumberFormatException e) {
                        throw new InvalidInputException("--nodes: '" + v + "' is not a number");
                    }
                    if (nodes < 1 || nodes > 10) {
                        throw new InvalidInputException("--nodes must be 1 to 10, got " + nodes);
                    }
                }
                case "--duration" -> {
                    duration = GoDuration.parse(value(args, ++i, a), "--duration");
                    if (duration.compareTo(MIN_DURATION) < 0 || duration.compareTo(MAX_DURATION) > 0) {
                        throw new InvalidInputException("--duration must be 90s to 24h, got " + GoDuration.format(duration));
                    }
                }
                case "--policy" -> {
                    policy = value(args, ++i, a);
                    if (!policy.equals("partitioned") && !policy.equals("shared")) {
                        throw new InvalidInputException("--policy must be partitioned or shared, got '" + policy + "'");
                    }
                }
                case "--no-yarn" -> yarn = false;
                case "--no-spark" -> spark = false;
                case "--no-real-node" -> realNode = false;
                case "--keep-running" -> keep = true;
                case "--summary-json" -> summary = Path.of(value(args, ++i, a));
                default -> throw new InvalidInputException("unknown option '" + a + "'");
            }
        }
        return new SandboxOptions(nodes, duration, policy, yarn, spark, realNode, keep, summary);
    }

    private static String value(List<String> args, int i, String option) throws InvalidInputException {
        if (i >= args.size() || args.get(i).startsWith("--")) {
            throw new InvalidInputException(option + " needs a value");
        }
        return args.get(i);
    }
}
