package io.colocation.broker.service;

import io.dropwizard.core.Application;
import io.dropwizard.core.cli.Cli;
import io.dropwizard.core.cli.ServerCommand;
import java.util.ArrayList;
import java.util.List;
import net.sourceforge.argparse4j.inf.Namespace;

/**
 * Dropwizard's {@code server} command, with start-up failures told in one line (each cause's message,
 * outermost first) instead of a stack trace; {@code --verbose} brings the stack trace back.
 */
final class BrokerServerCommand extends ServerCommand<BrokerConfiguration> {
    private final boolean verbose;

    BrokerServerCommand(Application<BrokerConfiguration> application, boolean verbose) {
        super(application);
        this.verbose = verbose;
    }

    @Override
    public void onError(Cli cli, Namespace namespace, Throwable e) {
        cli.getStdErr().println("colocation broker: cannot start: " + oneLine(e)
                + (verbose ? "" : " (run with --verbose for the stack trace)"));
        if (verbose) {
            e.printStackTrace(cli.getStdErr());
        }
    }

    /** The distinct messages of the cause chain, joined: "what failed: why". */
    static String oneLine(Throwable e) {
        List<String> parts = new ArrayList<>();
        for (Throwable t = e; t != null && parts.size() < 5; t = t.getCause() == t ? null : t.getCause()) {
            String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage().strip().replace('\n', ' ');
            if (parts.stream().noneMatch(p -> p.contains(m))) {
                parts.add(m);
            }
        }
        return String.join(": ", parts);
    }
}
