package io.colocation.copilot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A plain HTTP client of the copilot API, as the koordlet calls it: the token read from the file /information names. */
final class CopilotClient {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;
    private final String token;

    record Response(int status, JsonNode body) {
    }

    CopilotClient(String hostPort, String token) {
        this.base = "http://" + hostPort;
        this.token = token;
    }

    /** A client with the copilot's own token (the test runs as the NodeManager's user, so it may read the file). */
    static CopilotClient withTokenOf(String hostPort) throws Exception {
        JsonNode info = new CopilotClient(hostPort, null).get("/information").body();
        String file = info.path("tokenFile").asText("");
        return new CopilotClient(hostPort, file.isEmpty() ? null : java.nio.file.Files.readString(java.nio.file.Path.of(file)).trim());
    }

    Response get(String pathAndQuery) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(base + pathAndQuery)).GET());
    }

    Response post(String path, String body) throws Exception {
        return send(HttpRequest.newBuilder(URI.create(base + path)).POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private Response send(HttpRequest.Builder request) throws Exception {
        if (token != null) {
            request.header("X-Copilot-Token", token);
        }
        HttpResponse<String> response = http.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        return new Response(response.statusCode(), JSON.readTree(response.body()));
    }
}
