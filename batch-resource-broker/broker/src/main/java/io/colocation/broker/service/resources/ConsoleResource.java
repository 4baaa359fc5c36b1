package io.colocation.broker.service.resources;

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

    static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self';"
            + " object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

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
            // The console loads nothing from elsewhere and is never framed: a payload that slips past its escaping
            // cannot run script from another origin, and no other site can overlay it.
            return Response.ok(in.readAllBytes(), type).header("Cache-Control", "no-cache")
                    .header("Content-Security-Policy", CSP).header("X-Frame-Options", "DENY")
                    .header("X-Content-Type-Options", "nosniff").header("Referrer-Policy", "no-referrer").build();
        } catch (IOException e) {
            throw new NotFoundException();
        }
    }
}
