package io.colocation.copilot;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.colocation.api.InvalidInputException;
import io.colocation.api.Quantities;
import io.colocation.copilot.api.ContainerInfo;
import io.colocation.copilot.api.CopilotApi;
import io.colocation.copilot.api.KillResult;
import io.colocation.copilot.api.PluginInfo;
import io.colocation.helpers.concurrent.Daemons;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The copilot's local API (Koordinator yarn-copilot-agent paths) on a loopback address. Callers that
 * are not on loopback get 403; every path but {@code /health} and {@code /information} needs the token (401 without
 * it) unless the token is turned off. Kill requests are logged with the caller and the reason.
 */
final class CopilotHttpServer {
    private static final Logger LOG = LoggerFactory.getLogger(CopilotHttpServer.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_BODY = 64 * 1024;

    private final ContainerRegistry registry;
    private final ContainerKiller killer;
    private final CopilotMetrics metrics;
    private final String cgroupParent;
    private final CopilotToken token;
    private final long nodeManagerPid;
    private HttpServer server;
    private ExecutorService executor;

    /** @param token null: no token required */
    CopilotHttpServer(ContainerRegistry registry, ContainerKiller killer, CopilotMetrics metrics, String cgroupParent, CopilotToken token,
            long nodeManagerPid) {
        this.registry = registry;
        this.killer = killer;
        this.metrics = metrics;
        this.cgroupParent = cgroupParent;
        this.token = token;
        this.nodeManagerPid = nodeManagerPid;
    }

    /** The token file, or null when no token is required. */
    String tokenFile() {
        return token == null ? null : token.file().toString();
    }

    InetSocketAddress start(String bindAddress, int port) throws IOException {
        server = HttpServer.create(new InetSocketAddress(bindAddress, port), 16);
        executor = Executors.newFixedThreadPool(4, Daemons.named("yarn-copilot-http"));
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
        return server.getAddress();
    }

    void stop() {
        if (server != null) {
            server.stop(0);
            executor.shutdownNow();
        }
    }

    private static final class Reply {
        private final int status;
        private final Object body;

        Reply(int status, Object body) {
            this.status = status;
            this.body = body;
        }

        public int status() {
            return status;
        }

        public Object body() {
            return body;
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        Reply reply;
        try {
            reply = route(exchange);
        } catch (RuntimeException e) {
            LOG.error("copilot API request {} {} failed", exchange.getRequestMethod(), exchange.getRequestURI(), e);
            reply = error(500, "internal error: " + e);
        }
        if (reply.status >= 400) {
            metrics.apiRequestsRefused.incr();
        } else {
            metrics.apiRequests.incr();
        }
        byte[] body = JSON.writeValueAsBytes(reply.body);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(reply.status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    private Reply route(HttpExchange exchange) throws IOException {
        if (!isAllowedCaller(exchange.getRemoteAddress().getAddress())) {
            return error(403, "the copilot API answers loopback callers only, not " + exchange.getRemoteAddress().getAddress());
        }
        String path = exchange.getRequestURI().getPath();
        boolean open = CopilotApi.HEALTH.equals(path) || CopilotApi.INFORMATION.equals(path);
        if (token != null && !open && !hasToken(exchange)) {
            return error(401, "missing or wrong token: send the content of " + token.file() + " in the " + CopilotApi.TOKEN_HEADER
                    + " header");
        }
        String method = exchange.getRequestMethod();
        Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
        switch (path) {
            case CopilotApi.HEALTH:
                return get(method, () -> new Reply(200, "ok"));
            case CopilotApi.INFORMATION:
                return get(method, () -> new Reply(200, new PluginInfo("yarn", "v1", nodeManagerPid, tokenFile())));
            case CopilotApi.CONTAINERS:
                return get(method, () -> new Reply(200, list("true".equals(query.get("all")))));
            case CopilotApi.CONTAINER:
                return get(method, () -> container(query.get("containerID")));
            case CopilotApi.KILL_CONTAINER:
                return post(method, () -> killContainer(readBody(exchange), exchange));
            case CopilotApi.KILL_CONTAINERS_BY_RESOURCE:
                return post(method, () -> killByResource(readBody(exchange), exchange));
            default:
                return error(404, "no such path: " + path);
        }
    }

    /** Only processes on this host may list or kill containers, whatever address the server is bound to. */
    static boolean isAllowedCaller(java.net.InetAddress caller) {
        return caller.isLoopbackAddress();
    }

    private interface Handler {
        Reply handle() throws IOException;
    }

    private static Reply get(String method, Handler h) throws IOException {
        return "GET".equals(method) ? h.handle() : error(405, method + " not allowed here; use GET");
    }

    private static Reply post(String method, Handler h) throws IOException {
        return "POST".equals(method) ? h.handle() : error(405, method + " not allowed here; use POST");
    }

    private List<ContainerInfo> list(boolean all) {
        List<ContainerInfo> out = new ArrayList<>();
        for (TrackedContainer c : registry.all()) {
            if (all || c.isLive()) {
                out.add(info(c));
            }
        }
        return out;
    }

    private ContainerInfo info(TrackedContainer c) {
        synchronized (registry) {
            return c.toInfo(cgroupParent);
        }
    }

    private Reply container(String id) {
        if (id == null || id.isEmpty()) {
            return error(400, "give the container: " + CopilotApi.CONTAINER + "?containerID=container_...");
        }
        return registry.get(id).map(c -> new Reply(200, info(c))).orElseGet(() -> error(404, "no container " + id + " on this node"));
    }

    private Reply killContainer(JsonNode body, HttpExchange exchange) {
        if (body == null) {
            return error(400, "the body must be JSON: {\"containerID\": \"container_...\"}");
        }
        String id = body.path("containerID").asText("");
        if (id.isEmpty()) {
            return error(400, "containerID is required: {\"containerID\": \"container_...\"}");
        }
        Optional<TrackedContainer> found = registry.get(id);
        if (!found.isPresent()) {
            return error(404, "no container " + id + " on this node; nothing killed");
        }
        TrackedContainer c = found.get();
        Integer pid;
        synchronized (registry) {
            pid = c.isLive() ? c.pid : null;
        }
        if (pid == null) {
            return error(409, "container " + id + " has no running process (state " + info(c).state() + "); nothing killed");
        }
        String given = body.path("reason").asText("");
        String reason = "killContainer requested by " + exchange.getRemoteAddress() + (given.isEmpty() ? "" : ": " + given);
        killer.kill(id, pid, reason);
        metrics.containersKilled.incr();
        registry.refresh();
        return new Reply(200, new KillResult(Collections.singletonList(info(c)), c.vcores, c.memoryMB, reason));
    }

    private Reply killByResource(JsonNode body, HttpExchange exchange) {
        if (body == null || !body.path("resources").isObject()) {
            return error(400, "the body must be JSON: {\"resources\": {\"cpu\": \"2\", \"memory\": \"4Gi\"}}");
        }
        JsonNode resources = body.get("resources");
        long cpu;
        long memory;
        try {
            cpu = resources.hasNonNull("cpu") ? Quantities.milliValue(resources.get("cpu").asText(), "resources.cpu") : 0;
            memory = resources.hasNonNull("memory") ? Quantities.value(resources.get("memory").asText(), "resources.memory") : 0;
        } catch (InvalidInputException e) {
            return error(400, e.getMessage());
        }
        if (cpu <= 0 && memory <= 0) {
            return error(400, "resources must ask for cpu or memory above zero; nothing killed");
        }
        List<TrackedContainer> live = new ArrayList<>();
        synchronized (registry) {
            for (TrackedContainer c : registry.all()) {
                if (c.isLive() && c.pid != null) {
                    live.add(c);
                }
            }
        }
        List<TrackedContainer> victims = VictimSelector.choose(live, cpu, memory);
        long freedVcores = victims.stream().mapToLong(c -> c.vcores).sum();
        long freedMemoryMB = victims.stream().mapToLong(c -> c.memoryMB).sum();
        String given = body.path("reason").asText("");
        String reason = String.format("killContainersByResource requested by %s: free cpu %dm, memory %d bytes%s; chose %d of %d"
                + " live containers (tasks before ApplicationMasters, newest first)%s", exchange.getRemoteAddress(), cpu, memory,
                given.isEmpty() ? "" : " (" + given + ")", victims.size(), live.size(),
                freedVcores * 1000 < cpu || freedMemoryMB * 1024 * 1024 < memory ? "; all of them free less than asked" : "");
        List<ContainerInfo> items = new ArrayList<>();
        Map<String, Integer> rootPids = new LinkedHashMap<>();
        for (TrackedContainer v : victims) {
            rootPids.put(v.containerId, v.pid);
        }
        killer.kill(rootPids, reason);
        metrics.containersKilled.incr(victims.size());
        registry.refresh();
        for (TrackedContainer v : victims) {
            items.add(info(v));
        }
        return new Reply(200, new KillResult(items, freedVcores, freedMemoryMB, reason));
    }

    private static JsonNode readBody(HttpExchange exchange) throws IOException {
        try (InputStream in = exchange.getRequestBody()) {
            byte[] bytes = readAtMost(in, MAX_BODY + 1);
            if (bytes.length > MAX_BODY) {
                return null;
            }
            JsonNode node = JSON.readTree(bytes);
            return node != null && node.isObject() ? node : null;
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    private boolean hasToken(HttpExchange exchange) {
        String given = exchange.getRequestHeaders().getFirst(CopilotApi.TOKEN_HEADER);
        String auth = exchange.getRequestHeaders().getFirst("Authorization");
        if (given == null && auth != null && auth.startsWith("Bearer ")) {
            given = auth.substring("Bearer ".length());
        }
        return given != null && MessageDigest.isEqual(token.bytes(), given.getBytes(StandardCharsets.UTF_8));
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> out = new LinkedHashMap<>();
        if (raw != null) {
            for (String pair : raw.split("&")) {
                int eq = pair.indexOf('=');
                String key = decode(eq < 0 ? pair : pair.substring(0, eq));
                out.put(key, eq < 0 ? "" : decode(pair.substring(eq + 1)));
            }
        }
        return out;
    }

    private static String decode(String text) {
        try {
            return URLDecoder.decode(text, "UTF-8");
        } catch (java.io.UnsupportedEncodingException e) {
            throw new IllegalStateException("UTF-8 is always supported", e);
        }
    }

    /** Up to {@code limit} bytes of {@code in}: more than the body may hold is not read. */
    private static byte[] readAtMost(InputStream in, int limit) throws IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        int n;
        while (out.size() < limit && (n = in.read(buffer, 0, Math.min(buffer.length, limit - out.size()))) > 0) {
            out.write(buffer, 0, n);
        }
        return out.toByteArray();
    }

    private static Reply error(int status, String message) {
        return new Reply(status, Collections.singletonMap("error", message));
    }
}
