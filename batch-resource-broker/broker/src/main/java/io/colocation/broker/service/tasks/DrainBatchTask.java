package io.colocation.broker.service.tasks;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code POST /tasks/drain-batch?node=NAME[&node=...][&undo=true]} on the admin port: drain (or undrain) a
 * node's Batch. A servlet rather than a Dropwizard task so that failures carry their status: 400 for a bad
 * request, 404 for an unknown node, 5xx when the API server fails; {@code curl -f} sees them. JSON body.
 */
public final class DrainBatchTask extends HttpServlet {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final transient NodeDrain drain;

    public DrainBatchTask(NodeDrain drain) {
        this.drain = drain;
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String[] nodes = request.getParameterValues("node");
        if (nodes == null || nodes.length == 0) {
            reply(response, 400, Map.of("code", 400, "message",
                    "give the node: POST /tasks/drain-batch?node=NAME (add &undo=true to undrain)"));
            return;
        }
        String undoParam = request.getParameter("undo");
        Boolean undo = flag(undoParam);
        if (undo == null) {
            reply(response, 400, Map.of("code", 400, "message", "undo must be true or false (also 1/0, yes/no), not '" + undoParam
                    + "'; nothing drained"));
            return;
        }
        List<String> done = new ArrayList<>();
        for (String node : nodes) {
            try {
                drain.set(node, !undo);
                done.add(node);
            } catch (NodeDrain.Failure e) {
                Map<String, Object> body = new LinkedHashMap<>();
                body.put("code", e.status());
                body.put("message", e.getMessage());
                body.put(undo ? "undrained" : "drained", done);
                reply(response, e.status(), body);
                return;
            }
        }
        reply(response, 200, Map.of(undo ? "undrained" : "drained", done));
    }

    /** A boolean query parameter as people write it: absent is false; true/1/yes and false/0/no in any case; else null. */
    static Boolean flag(String value) {
        if (value == null) {
            return false;
        }
        switch (value.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "true", "1", "yes", "" -> {
                return true;
            }
            case "false", "0", "no" -> {
                return false;
            }
            default -> {
                return null;
            }
        }
    }

    private static void reply(HttpServletResponse response, int status, Map<String, Object> body) throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        JSON.writeValue(response.getOutputStream(), body);
    }
}
