package io.colocation.broker.service;

import io.dropwizard.servlets.tasks.Task;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/** {@code POST /tasks/drain-batch?node=NAME[&undo=true]}: drain (or undrain) a node's Batch. */
final class DrainBatchTask extends Task {
    private final Broker broker;

    DrainBatchTask(Broker broker) {
        super("drain-batch");
        this.broker = broker;
    }

    @Override
    public void execute(Map<String, List<String>> parameters, PrintWriter output) {
        List<String> nodes = parameters.getOrDefault("node", List.of());
        if (nodes.isEmpty()) {
            output.println("error: give the node: POST /tasks/drain-batch?node=NAME (add &undo=true to undrain)");
            return;
        }
        boolean undo = parameters.getOrDefault("undo", List.of()).contains("true");
        for (String node : nodes) {
            try {
                NodeDrain.set(broker.kubernetes(), node, !undo);
                output.println((undo ? "undrained " : "drained ") + node);
            } catch (NoSuchElementException e) {
                output.println("error: " + e.getMessage());
            }
        }
        broker.wake();
    }
}
