package io.colocation.model.document;

import java.io.PrintStream;
import io.colocation.model.KubeTime;
import io.colocation.api.InvalidInputException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The command line the snapshot commands share ({@code calc}, {@code koordlet explain}, {@code k8s-scheduler explain}):
 * {@code -f/--filename PATH} (repeated, {@code -} for stdin), {@code -o/--output text|json}, {@code --now RFC3339},
 * {@code -h/--help}, and the command's own single-value options; {@code --opt=value} works for every long option.
 *
 * @param options the command's own options that were given, by long name
 */
public record ExplainArguments(boolean help, List<String> files, String format, Instant now, Map<String, String> options) {

    /** Wrong usage: the message says what; {@code showUsage} when the usage text helps. */
    public static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;
        private final boolean showUsage;

        UsageException(String message, boolean showUsage) {
            super(message);
            this.showUsage = showUsage;
        }

        public boolean showUsage() {
            return showUsage;
        }
    }

    /**
     * What a snapshot command says about an input shape no check foresaw (a bug to report): plain words, never the
     * exception's class or the code's names, which mean nothing to the person who ran it.
     */
    public static String unforeseen(RuntimeException e) {
        String message = e.getMessage();
        boolean plain = message != null && !(e instanceof NullPointerException) && !(e instanceof ClassCastException)
                && !message.contains("java.") && !message.contains("\"");
        return "cannot use the input: a field it needs is missing or of another shape than Kubernetes gives it"
                + (plain ? " (" + message.lines().findFirst().orElse("") + ")" : "") + "; check it with kubectl, or report it with the input";
    }

    /** The arguments, or (when help was asked for or the usage is wrong) the exit code after saying so. */
    public record Outcome(ExplainArguments arguments, int exitCode) {
    }

    /** Parses for {@code command}; prints the usage for help (exit 0) and the problem for wrong usage (exit 2). */
    public static Outcome read(String[] args, Instant defaultNow, List<String> ownOptions, String command, String usage,
            PrintStream out, PrintStream err) {
        try {
            ExplainArguments a = parse(args, defaultNow, ownOptions);
            if (a.help()) {
                out.print(usage);
                return new Outcome(null, 0);
            }
            return new Outcome(a, 0);
        } catch (UsageException e) {
            err.println(command + ": " + e.getMessage());
            if (e.showUsage()) {
                err.print(usage);
            }
            return new Outcome(null, 2);
        }
    }

    public static ExplainArguments parse(String[] args, Instant defaultNow, List<String> ownOptions) throws UsageException {
        List<String> files = new ArrayList<>();
        Map<String, String> options = new LinkedHashMap<>();
        Instant now = defaultNow;
        String format = "text";
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("-h") || a.equals("--help")) {
                return new ExplainArguments(true, files, format, now, options);
            }
            String option = a;
            String value = null;
            int eq = a.indexOf('=');
            if (a.startsWith("--") && eq > 0) {
                option = a.substring(0, eq);
                value = a.substring(eq + 1);
            }
            if (!List.of("-f", "--filename", "--now", "-o", "--output").contains(option) && !ownOptions.contains(option)) {
                throw new UsageException("unknown argument '" + a + "'", true);
            }
            if (value == null) {
                if (i + 1 >= args.length) {
                    throw new UsageException(option + " needs a value", false);
                }
                value = args[++i];
            }
            switch (option) {
                case "-f", "--filename" -> files.add(value);
                case "-o", "--output" -> format = value;
                case "--now" -> {
                    try {
                        now = KubeTime.parse(value, "--now");
                    } catch (InvalidInputException e) {
                        throw new UsageException(e.getMessage(), false);
                    }
                }
                default -> options.put(option, value);
            }
        }
        if (!format.equals("text") && !format.equals("json")) {
            throw new UsageException("-o must be text or json, not '" + format + "'", false);
        }
        if (files.isEmpty()) {
            throw new UsageException("no input: give at least one -f PATH", true);
        }
        return new ExplainArguments(false, files, format, now, options);
    }
}
