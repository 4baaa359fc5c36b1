package io.colocation.scheduler.explain;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.colocation.api.InvalidInputException;
import io.colocation.model.document.ExplainArguments;
import io.colocation.model.document.KubeDocuments;
import io.colocation.scheduler.config.KubeSchedulerConfiguration;
import io.colocation.scheduler.framework.CycleState;
import io.colocation.scheduler.framework.Framework;
import io.colocation.scheduler.framework.NodeSearch;
import io.colocation.scheduler.framework.PodInfo;
import io.colocation.scheduler.framework.Profile;
import io.colocation.scheduler.framework.SchedulingCycle;
import io.colocation.scheduler.framework.Status;
import java.io.InputStream;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code colocation k8s-scheduler explain}: "why is my pod pending, why did it land there". Runs the scheduler's
 * {@link Framework} for one pending pod from PreFilter to Permit, with every filter and score plugin judged on every
 * node, so it shows a gang member held back at PreFilter or waiting at Permit for the rest of its gang.
 */
public final class SchedulerExplainCommand {
    static final String USAGE = """
            Usage: colocation k8s-scheduler explain -f PATH [-f PATH ...] [--config FILE] [--pod NS/NAME] [--now RFC3339] [-o text|json]

            Shows what the scheduler decides for one pending pod: PreFilter (a gang short of members), each plugin's
            filter verdict and score on every node, the weighted total, the node it would choose, and Permit (a gang
            member waiting for the others).

              -f, --filename PATH   Node, Pod, NodeMetric, PodGroup and ElasticQuota documents (YAML or JSON, multi-document,
                                    kind: List), or - for standard input; repeat for several. Pods with
                                    spec.nodeName are assigned; the one without is the pod explained (the other
                                    pending members of its gang count as members not placed yet).
                  --config FILE     a KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1, v1beta3, v1beta2):
                                    profiles[].plugins and pluginConfig (LoadAwareSchedulingArgs, CoschedulingArgs,
                                    ElasticQuotaArgs; ElasticQuota enabled shows the quota tree); default: filters
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
            ExplainHandle handle = new ExplainHandle();
            KubeSchedulerConfiguration.Result profiles = config == null ? KubeSchedulerConfiguration.defaults(handle)
                    : readConfig(config, stdin, handle);
            SchedulingInput.Result input = SchedulingInput.read(files, pod, now, stdin);
            handle.load(input.pods(), input.podGroups(), input.elasticQuotas());
            List<String> notes = new ArrayList<>(profiles.notes());
            notes.addAll(input.notes());
            Profile profile = profileFor(profiles.profiles(), input.pending().pod().getSpec().getSchedulerName(), notes);
            QuotasExplained quotas = QuotasExplained.of(profile, input, notes);
            Explained explained = explain(profile, input, handle);
            SchedulingCycle.Decision decision = explained.decision();
            int nodes = input.snapshot().nodes().size();
            int searched = NodeSearch.feasibleNodesToFind(nodes, profile.percentageOfNodesToScore());
            if (searched < nodes) {
                notes.add("the running scheduler scores " + searched + " feasible nodes of these " + nodes
                        + " per decision (percentageOfNodesToScore), starting where its previous search stopped;"
                        + " explain scores them all, so the scheduler may choose another node");
            }
            Map<String, Object> result = toJson(explained, profile, notes);
            if (quotas != null) {
                result.put("quota", quotas.podVerdict());
                result.put("quotas", quotas.tree());
            }
            if (format.equals("json")) {
                out.println(JSON.writeValueAsString(result));
            } else {
                printText(explained, notes, out);
                if (quotas != null) {
                    quotas.printText(out);
                }
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

    /** The cycle's outcome and the view of every plugin on every node (the latter even when PreFilter stopped the cycle). */
    record Explained(Framework.CycleResult cycle, SchedulingCycle.Decision decision) {
    }

    /** Runs the framework from PreFilter to Permit, judging every node at Filter and Score. */
    static Explained explain(Profile profile, SchedulingInput.Result input, ExplainHandle handle) {
        CycleState state = new CycleState(input.snapshot());
        SchedulingCycle.Decision[] judged = new SchedulingCycle.Decision[1];
        Framework.NodeSelector everyNode = (s, p) -> {
            judged[0] = SchedulingCycle.decide(profile, s, p);
            return new SchedulingCycle.Selection(judged[0].selected(),
                    judged[0].selected() == null ? judged[0].unavailableSummary() : null);
        };
        Framework.CycleResult cycle = new Framework(profile).schedulingCycle(state, input.pending(), everyNode, handle);
        SchedulingCycle.Decision decision = judged[0] != null ? judged[0] : SchedulingCycle.decide(profile, state, input.pending());
        return new Explained(cycle, decision);
    }

    private static KubeSchedulerConfiguration.Result readConfig(String file, InputStream stdin, ExplainHandle handle)
            throws InvalidInputException {
        List<KubeDocuments.Sourced> docs = KubeDocuments.read(file, stdin);
        if (docs.size() != 1) {
            throw new InvalidInputException(file + ": must hold one KubeSchedulerConfiguration, found " + docs.size() + " documents");
        }
        return KubeSchedulerConfiguration.parse(docs.get(0).object(), file, handle);
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

    static Map<String, Object> toJson(Explained e, Profile profile, List<String> notes) {
        SchedulingCycle.Decision d = e.decision();
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
        Map<String, Object> preFilter = new LinkedHashMap<>();
        e.cycle().preFilter().forEach((name, status) -> preFilter.put(name, status(status.label(), status)));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("pod", d.pod());
        out.put("profile", profile.schedulerName());
        out.put("preFilter", preFilter);
        out.put("nodes", nodes);
        out.put("selected", selected(e));
        out.put("permit", permit(e.cycle().permit()));
        out.put("notes", notes);
        return out;
    }

    /** The node the pod is reserved on (bound, or waiting at Permit); null when a point rejected it. */
    private static String selected(Explained e) {
        return e.cycle().reserved() ? e.cycle().node() : null;
    }

    private static Map<String, Object> status(String label, Status s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("status", label);
        if (!s.success()) {
            m.put("reasons", s.reasons());
        }
        return m;
    }

    /** Permit's verdict ({@code Allow}, {@code Wait} with its timeout and what for, {@code Reject}); null when Permit was not reached. */
    private static Map<String, Object> permit(Framework.PermitVerdict v) {
        if (v == null) {
            return null;
        }
        Map<String, Object> m = status(permitLabel(v), v.status());
        if (v.waiting()) {
            m.put("timeoutSeconds", v.timeout().toSeconds());
            m.put("waitingFor", v.waitingFor());
        }
        Map<String, Object> plugins = new LinkedHashMap<>();
        v.plugins().forEach((name, p) -> plugins.put(name, p.waiting() ? Map.of("status", "Wait", "waitingFor", p.waitingFor(),
                "timeoutSeconds", p.timeout().toSeconds()) : status(p.status().success() ? "Allow" : "Reject", p.status())));
        m.put("plugins", plugins);
        return m;
    }

    private static String permitLabel(Framework.PermitVerdict v) {
        return !v.status().success() ? "Reject" : v.waiting() ? "Wait" : "Allow";
    }

    /** The first line: what happens to the pod. */
    private static String headline(Explained e) {
        Framework.CycleResult c = e.cycle();
        if (c.reserved()) {
            return c.permit().waiting() ? "would be reserved on " + c.node() + " and wait at Permit up to "
                    + c.permit().timeout().toSeconds() + " s (" + c.permit().waitingFor() + ")" : "would be bound to " + c.node();
        }
        return switch (c.rejectedAt()) {
            case PRE_FILTER -> "not scheduled now, held back at PreFilter: " + c.reason();
            case FILTER -> "no node fits";
            case RESERVE -> "rejected at Reserve on " + c.node() + ": " + c.reason();
            case PERMIT -> "rejected at Permit on " + c.node() + ": " + c.reason();
        };
    }

    private static void printText(Explained e, List<String> notes, PrintStream out) {
        SchedulingCycle.Decision d = e.decision();
        out.println("Pod " + d.pod() + ": " + headline(e));
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
