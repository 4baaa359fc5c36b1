package io.colocation.scheduler.explain;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.colocation.api.InvalidInputException;
import io.colocation.model.document.ExplainArguments;
import io.colocation.model.document.KubeDocuments;
import io.colocation.scheduler.config.SchedulerConfiguration;
import io.colocation.scheduler.framework.NodeSearch;
import io.colocation.scheduler.framework.Profile;
import io.colocation.scheduler.framework.SchedulingCycle;
import java.io.InputStream;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code colocation k8s-scheduler explain}: "why is my pod pending, why did it land there". Runs every enabled plugin
 * on every node for one pending pod, with the scheduling cycle the running scheduler uses.
 */
public final class SchedulerExplainCommand {
    static final String USAGE = """
            Usage: colocation k8s-scheduler explain -f PATH [-f PATH ...] [--config FILE] [--pod NS/NAME] [--now RFC3339] [-o text|json]

            Shows what the scheduler decides for one pending pod: each plugin's filter verdict and score on every node,
            the weighted total, and the node it would choose.

              -f, --filename PATH   Node, Pod, NodeMetric (and PodGroup) documents (YAML or JSON, multi-document,
                                    kind: List), or - for standard input; repeat for several. Pods with
                                    spec.nodeName are assigned; the one without is the pod explained.
                  --config FILE     a KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1, v1beta3, v1beta2):
                                    profiles[].plugins and pluginConfig (LoadAwareSchedulingArgs); default: filters
                                    NodeResourcesFit, NodeAffinity, TaintToleration, LoadAwareScheduling; score
                                    LoadAwareScheduling
                  --pod NS/NAME     the pending pod, when the input has several
                  --now RFC3339     the current time for NodeMetric expiry and placement (default: the clock)
              -o, --output FORMAT   text (default) or json
            """;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private SchedulerExplainCommand() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.in, System.out, System.err, Clock.systemUTC()));
    }

    /** Runs the command; returns the exit code (0 done, 1 bad input, 2 bad usage). */
    static int run(String[] args, InputStream stdin, PrintStream out, PrintStream err, Clock clock) {
        ExplainArguments.Outcome parsed = ExplainArguments.read(args, clock.instant(), List.of("--config", "--pod"), "colocation k8s-scheduler explain", USAGE, out, err);
        if (parsed.arguments() == null) {
            return parsed.exitCode();
        }
        ExplainArguments a = parsed.arguments();
        List<String> files = a.files();
        String config = a.options().get("--config");
        String pod = a.options().get("--pod");
        Instant now = a.now();
        String format = a.format();
        if (pod != null && !pod.contains("/")) {
            pod = "default/" + pod;
        }
        try {
            SchedulerConfiguration.Result profiles = config == null ? SchedulerConfiguration.defaults() : readConfig(config, stdin);
            SchedulingInput.Result input = SchedulingInput.read(files, pod, now, stdin);
            List<String> notes = new ArrayList<>(profiles.notes());
            notes.addAll(input.notes());
            Profile profile = profileFor(profiles.profiles(), input.pending().pod().getSpec().getSchedulerName(), notes);
            SchedulingCycle.Decision decision = SchedulingCycle.decide(profile, input.snapshot(), input.pending());
            int nodes = input.snapshot().nodes().size();
            int searched = NodeSearch.feasibleNodesToFind(nodes, profile.percentageOfNodesToScore());
            if (searched < nodes) {
                notes.add("the running scheduler scores " + searched + " feasible nodes of these " + nodes
                        + " per decision (percentageOfNodesToScore), starting where its previous search stopped;"
                        + " explain scores them all, so the scheduler may choose another node");
            }
            Map<String, Object> result = toJson(decision, profile, notes);
            if (format.equals("json")) {
                out.println(JSON.writeValueAsString(result));
            } else {
                printText(decision, notes, out);
            }
            return 0;
        } catch (InvalidInputException e) {
            err.println("colocation k8s-scheduler explain: " + e.getMessage());
            return 1;
        } catch (JsonProcessingException e) {
            err.println("colocation k8s-scheduler explain: cannot write the result: " + e.getMessage());
            return 1;
        } catch (RuntimeException e) {
            err.println("colocation k8s-scheduler explain: " + ExplainArguments.unforeseen(e));
            return 1;
        }
    }

    private static SchedulerConfiguration.Result readConfig(String file, InputStream stdin) throws InvalidInputException {
        List<KubeDocuments.Sourced> docs = KubeDocuments.read(file, stdin);
        if (docs.size() != 1) {
            throw new InvalidInputException(file + ": must hold one KubeSchedulerConfiguration, found " + docs.size() + " documents");
        }
        return SchedulerConfiguration.parse(docs.get(0).object(), file);
    }

    /** The profile named like the pod's schedulerName; a single profile applies to any pod, with a note. */
    private static Profile profileFor(List<Profile> profiles, String schedulerName, List<String> notes) throws InvalidInputException {
        String name = schedulerName == null || schedulerName.isEmpty() ? "default-scheduler" : schedulerName;
        for (Profile p : profiles) {
            if (p.schedulerName().equals(name)) {
                return p;
            }
        }
        if (profiles.size() == 1) {
            notes.add("the pod's schedulerName is " + name + "; explained with the profile " + profiles.get(0).schedulerName()
                    + " (this scheduler only takes pods named for it)");
            return profiles.get(0);
        }
        throw new InvalidInputException("the pod's schedulerName " + name + " matches no profile ("
                + profiles.stream().map(Profile::schedulerName).toList() + ")");
    }

    static Map<String, Object> toJson(SchedulingCycle.Decision d, Profile profile, List<String> notes) {
        List<Object> nodes = new ArrayList<>();
        for (SchedulingCycle.NodeResult n : d.nodes()) {
            Map<String, Object> node = new LinkedHashMap<>();
            node.put("name", n.node());
            node.put("filter", n.filter().label());
            node.put("reasons", n.filter().reasons());
            Map<String, Object> plugins = new LinkedHashMap<>();
            n.plugins().forEach((name, view) -> {
                Map<String, Object> p = new LinkedHashMap<>();
                p.put("filter", view.filter() == null ? "Success" : view.filter().label());
                p.put("score", view.score());
                if (view.filter() != null && !view.filter().success()) {
                    p.put("reasons", view.filter().reasons());
                }
                plugins.put(name, p);
            });
            node.put("plugins", plugins);
            node.put("score", n.score());
            nodes.add(node);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("pod", d.pod());
        out.put("profile", profile.schedulerName());
        out.put("nodes", nodes);
        out.put("selected", d.selected());
        out.put("notes", notes);
        return out;
    }

    private static void printText(SchedulingCycle.Decision d, List<String> notes, PrintStream out) {
        out.println("Pod " + d.pod() + ": " + (d.selected() == null ? "no node fits" : "would be bound to " + d.selected()));
        out.println();
        for (SchedulingCycle.NodeResult n : d.nodes()) {
            out.println(n.node() + ": " + (n.filter().success() ? "fits, score " + n.score() : "filtered out: "
                    + String.join("; ", n.filter().reasons())));
            n.plugins().forEach((name, view) -> out.println("  " + name + ": "
                    + (view.filter() == null ? "" : view.filter().label() + (view.filter().success() ? "" : " ("
                            + String.join("; ", view.filter().reasons()) + ")"))
                    + (view.score() == null ? "" : (view.filter() == null ? "" : ", ") + "score " + view.score())));
        }
        if (d.selected() == null) {
            out.println();
            out.println(d.unavailableSummary());
        }
        notes.forEach(n -> out.println("note: " + n));
    }
}
