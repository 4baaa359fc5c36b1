package io.colocation.broker.service.tasks;

import io.dropwizard.servlets.tasks.Task;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;

/** {@code POST /tasks/resync}: forget what was published, compare every grant with the sides again. */
public final class ResyncTask extends Task {
    private final Runnable resync;

    public ResyncTask(Runnable resync) {
        super("resync");
        this.resync = resync;
    }

    @Override
    public void execute(Map<String, List<String>> parameters, PrintWriter output) {
        resync.run();
        output.println("resync requested: every node's grants are compared with Kubernetes and YARN in the next pass");
    }
}
