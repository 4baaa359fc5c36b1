package io.colocation.broker.service;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;

/**
 * The operator console at {@code /}: one page and its script and style, shipped in the jar (no CDN, works offline),
 * that polls {@code /api/v1/cluster}, {@code /api/v1/nodes} and {@code /api/v1/health}.
 */
@Path("/")
public final class ConsoleResource {
    private static final Map<String, String> FILES = Map.of(
            "index.html", "text/html; charset=utf-8",
            "console.js", "text/javascript; charset=utf-8",
            "console.css", "text/css; charset=utf-8");

    @GET
    public Response page() {
        return file("index.html");
    }

    @GET
    @Path("console/{file}")
    public Response asset(@PathParam("file") String file) {
        return file(file);
    }

    private static Response file(String name) {
        String type = FILES.get(name);
        if (type == null) {
            throw new NotFoundException();
        }
        try (InputStream in = ConsoleResource.class.getResourceAsStream("/console/" + name)) {
            if (in == null) {
                throw new NotFoundException();
            }
            return Response.ok(in.readAllBytes(), type).header("Cache-Control", "no-cache").build();
        } catch (IOException e) {
            throw new NotFoundException();
        }
    }
}
