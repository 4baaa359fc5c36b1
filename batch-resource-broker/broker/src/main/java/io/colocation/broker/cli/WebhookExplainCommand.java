package io.colocation.broker.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import io.colocation.api.InvalidInputException;
import io.colocation.broker.webhook.PodMutation;
import io.colocation.broker.webhook.WebhookExplain;
import io.colocation.model.document.ExplainArguments;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * {@code colocation webhook explain}: what Koordinator's pod-mutating webhook makes of a Pod, as a dry run
 * (docs/koordinator-compatibility.md §14.11). Exit 0 printed, 1 bad input, 2 usage, 3 Koordinator would refuse the pod.
 */
public final class WebhookExplainCommand {
    static final String USAGE_LINE = "usage: colocation webhook explain -f FILE [-f FILE]... [--draw N[,N]...] "
            + "[--feature-gates NAME=BOOL[,NAME=BOOL]...] [--namespace NS] [-o json|yaml]";
    static final String USAGE = USAGE_LINE + """


            Prints the Pod that Koordinator's pod-mutating webhook would make of it on create: the
            ClusterColocationProfiles that match (in name order, each by its probability), their mutations, the
            batch/mid resource conversion, and the node.koordinator.sh/extended-resource-spec annotation.

              -f, --filename FILE      one Pod and any ClusterColocationProfile, Namespace and PriorityClass
                                       (YAML or JSON, multi-document, kind: List), or - for standard input;
                                       repeat for several files. What is not given does not exist.
                  --draw N[,N]...      what each probability draw returns (0..99), in profile-name order; the
                                       last repeats; default: random, as Koordinator
                  --feature-gates G    ColocationProfileSkipMutatingResources=BOOL, DisableExtendedResourceSpec=BOOL
                  --namespace NS       the request's namespace for a Pod without one (default: default)
              -o, --output FORMAT      yaml (default) or json

            Exit codes: 0 printed, 1 bad input, 2 usage, 3 Koordinator would refuse the pod.
            """;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES).enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS).build());

    private WebhookExplainCommand() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.in, System.out, System.err));
    }

    /** Wrong usage, said in one line. */
    private static final class Usage extends Exception {
        private static final long serialVersionUID = 1L;

        Usage(String message) {
            super(message);
        }
    }

    private record Arguments(List<String> files, List<Integer> draws, PodMutation.Gates gates, String namespace, String format,
            boolean help) {
    }

    /** Runs the command; returns the exit code. */
    public static int run(String[] args, InputStream stdin, PrintStream out, PrintStream err) {
        Arguments a;
        try {
            a = parse(args);
        } catch (Usage e) {
            err.println("error: " + e.getMessage());
            err.println(USAGE_LINE);
            return 2;
        }
        if (a.help()) {
            out.print(USAGE);
            return 0;
        }
        try {
            List<Integer> given = a.draws();
            int[] next = {0};
            PodMutation.Draws draws = given.isEmpty() ? () -> ThreadLocalRandom.current().nextInt(100)
                    : () -> given.get(Math.min(next[0]++, given.size() - 1));
            WebhookExplain.Outcome outcome = WebhookExplain.run(a.files(), stdin, a.namespace(), a.gates(), draws);
            outcome.notes().forEach(n -> err.println("note: " + n));
            out.println((a.format().equals("json") ? JSON : YAML).writeValueAsString(outcome.pod()).stripTrailing());
            return 0;
        } catch (InvalidInputException e) {
            err.println("error: " + e.getMessage());
            return 1;
        } catch (PodMutation.Denied e) {
            err.println("denied: " + e.getMessage());
            return 3;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            err.println("error: cannot write the Pod: " + e.getOriginalMessage());
            return 1;
        } catch (RuntimeException e) {
            err.println("error: " + ExplainArguments.unforeseen(e));
            return 1;
        }
    }

    private static Arguments parse(String[] args) throws Usage {
        List<String> files = new ArrayList<>();
        List<Integer> draws = new ArrayList<>();
        PodMutation.Gates gates = PodMutation.Gates.DEFAULTS;
        String namespace = "default";
        String format = "yaml";
        boolean stdin = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("-h") || arg.equals("--help")) {
                return new Arguments(files, draws, PodMutation.Gates.DEFAULTS, namespace, format, true);
            }
            String option = arg;
            String value = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                option = arg.substring(0, eq);
                value = arg.substring(eq + 1);
            }
            if (!List.of("-f", "--filename", "--draw", "--feature-gates", "--namespace", "-o", "--output").contains(option)) {
                throw new Usage("unknown flag " + arg);
            }
            if (value == null) {
                if (i + 1 >= args.length) {
                    throw new Usage(option + " needs a value");
                }
                value = args[++i];
            }
            switch (option) {
                case "-f", "--filename" -> {
                    if (value.equals("-")) {
                        if (stdin) {
                            throw new Usage("- (standard input) is given twice");
                        }
                        stdin = true;
                    }
                    files.add(value);
                }
                case "--draw" -> {
                    for (String d : value.split(",", -1)) {
                        try {
                            int n = Integer.parseInt(d.trim());
                            if (n < 0 || n > 99) {
                                throw new NumberFormatException();
                            }
                            draws.add(n);
                        } catch (NumberFormatException e) {
                            throw new Usage("--draw: \"" + d + "\" is not an integer from 0 to 99");
                        }
                    }
                }
                case "--feature-gates" -> {
                    try {
                        gates = PodMutation.Gates.parse(value);
                    } catch (InvalidInputException e) {
                        throw new Usage("--feature-gates: " + e.getMessage());
                    }
                }
                case "--namespace" -> namespace = value;
                default -> {
                    if (!value.equals("json") && !value.equals("yaml")) {
                        throw new Usage("-o must be json or yaml, not '" + value + "'");
                    }
                    format = value;
                }
            }
        }
        if (files.isEmpty()) {
            throw new Usage("no input: give at least one -f FILE");
        }
        return new Arguments(files, draws, gates, namespace, format, false);
    }
}
