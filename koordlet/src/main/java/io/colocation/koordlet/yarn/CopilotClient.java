package io.colocation.koordlet.yarn;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.colocation.api.log.DistinctWarnings;
import io.colocation.copilot.api.ContainerInfo;
import io.colocation.copilot.api.CopilotApi;
import io.colocation.koordlet.collect.CollectTargets.YarnTarget;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the NodeManager's copilot (yarn-copilot-nm) for the host's YARN containers. A copilot that is down, slow
 * or answers something that is not its container list is warned about once, with the URL and the cause; the
 * list is then unknown (empty optional), so YARN usage is reported missing rather than 0.
 */
public final class CopilotClient {
    private static final Logger LOG = LoggerFactory.getLogger(CopilotClient.class);
    private static final ObjectMapper JSON = new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    private static final int MAX_BODY = 8 * 1024 * 1024;

    private final URI containers;
    private final URI kill;
    private final String token;
    private final HttpClient http;
    private final DistinctWarnings warnings = new DistinctWarnings(LOG);

    public CopilotClient(String baseUrl, String token) {
        this.containers = URI.create(baseUrl.replaceAll("/+$", "") + CopilotApi.CONTAINERS);
        this.kill = URI.create(baseUrl.replaceAll("/+$", "") + CopilotApi.KILL_CONTAINER);
        this.token = token;
        this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    }

    /** Reads the copilot's token from {@code tokenFile} (empty: no token). */
    public static CopilotClient create(String baseUrl, String tokenFile) throws IOException {
        String token = null;
        if (tokenFile != null && !tokenFile.isBlank()) {
            try {
                token = java.nio.file.Files.readString(java.nio.file.Path.of(tokenFile)).trim();
            } catch (IOException e) {
                throw new IOException("yarn.tokenFile '" + tokenFile + "' cannot be read: " + e.getMessage(), e);
            }
        }
        try {
            return new CopilotClient(baseUrl, token);
        } catch (IllegalArgumentException e) {
            throw new IOException("yarn.copilotUrl '" + baseUrl + "' is not a URL: " + e.getMessage(), e);
        }
    }

    public String describe() {
        return containers.toString();
    }

    public java.util.Map<String, String> problems() {
        return warnings.current();
    }

    /** Running containers with their cgroup directory and processes; empty when the copilot cannot be asked. */
    public Optional<List<YarnTarget>> runningContainers() {
        HttpRequest.Builder request = HttpRequest.newBuilder(containers).timeout(Duration.ofSeconds(3)).GET();
        if (token != null && !token.isEmpty()) {
            request.header(CopilotApi.TOKEN_HEADER, token);
        }
        String subject = "copilot " + containers;
        try {
            HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            if (response.statusCode() != 200) {
                warnings.warn(subject, "answered HTTP " + response.statusCode() + (response.statusCode() == 401
                        ? " (set yarn.tokenFile to the copilot's token file)" : ""));
                return Optional.empty();
            }
            if (response.body().length > MAX_BODY) {
                warnings.warn(subject, "answered more than 8 MiB; not a container list");
                return Optional.empty();
            }
            List<YarnTarget> result = parse(response.body());
            warnings.resolved(subject);
            return Optional.of(result);
        } catch (IOException e) {
            warnings.warn(subject, "cannot be asked: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())
                    + " (is the NodeManager with the yarn_copilot aux service running on this host?)");
            return Optional.empty();
        } catch (InvalidAnswer e) {
            warnings.warn(subject, "answered something that is not its container list: " + e.getMessage());
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** Asks the copilot to kill the container now (SIGTERM, then SIGKILL after its grace period); returns why not. */
    public Optional<String> killContainer(String containerID, String reason) {
        String body;
        try {
            body = JSON.writeValueAsString(java.util.Map.of("containerID", containerID, "reason", reason));
        } catch (IOException e) {
            return Optional.of("cannot write the request: " + e.getMessage());
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(kill).timeout(Duration.ofSeconds(5))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null && !token.isEmpty()) {
            request.header(CopilotApi.TOKEN_HEADER, token);
        }
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? Optional.empty()
                    : Optional.of("the copilot answered HTTP " + response.statusCode() + ": " + response.body());
        } catch (IOException e) {
            return Optional.of("the copilot cannot be asked: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted");
        }
    }

    static List<YarnTarget> parse(byte[] body) throws InvalidAnswer {
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (IOException e) {
            throw new InvalidAnswer("not JSON (" + e.getClass().getSimpleName() + ")");
        }
        if (root == null || !root.isArray()) {
            throw new InvalidAnswer("expected a JSON list of containers");
        }
        List<YarnTarget> result = new ArrayList<>();
        for (int i = 0; i < root.size(); i++) {
            ContainerInfo c;
            try {
                c = JSON.treeToValue(root.get(i), ContainerInfo.class);
            } catch (IOException e) {
                throw new InvalidAnswer("container [" + i + "]: " + e.getMessage().lines().findFirst().orElse(""));
            }
            if (c == null || c.containerID() == null || c.containerID().isEmpty()) {
                throw new InvalidAnswer("container [" + i + "] has no containerID");
            }
            if (!"RUNNING".equals(c.state())) {
                continue;
            }
            String dir = c.cgroupDir() == null ? "" : c.cgroupDir().replaceAll("^/+", "");
            if (dir.contains("..")) {
                dir = "";
            }
            List<Integer> pids = c.pids() == null ? List.of() : c.pids().stream().filter(java.util.Objects::nonNull).toList();
            result.add(new YarnTarget(c.containerID(), dir, pids, c.vcores(), c.memoryMB(), c.priority(),
                    "APPLICATION_MASTER".equals(c.type())));
        }
        return result;
    }

    static final class InvalidAnswer extends Exception {
        private static final long serialVersionUID = 1L;

        InvalidAnswer(String message) {
            super(message);
        }
    }
}
