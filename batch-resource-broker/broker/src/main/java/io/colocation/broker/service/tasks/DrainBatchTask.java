package io.colocation.broker.service;

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
final class DrainBatchTask extends HttpServlet {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final transient NodeDrain drain;

    DrainBatchTask(NodeDrain drain) {
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
        boolean undo = "true".equals(request.getParameter("undo"));
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

    private static void reply(HttpServletResponse response, int status, Map<String, Object> body) throws IOException {
        response.setStatus(status);
        response.setContentType("application/json");
        JSON.writeValue(response.getOutputStream(), body);
    }
}
