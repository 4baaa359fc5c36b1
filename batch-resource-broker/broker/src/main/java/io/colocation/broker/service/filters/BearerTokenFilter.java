package io.colocation.broker.service.filters;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Guards requests with {@code Authorization: Bearer <token>}; what passes without it is the filter's {@code open} rule:
 * on the API, reads (GET, HEAD, OPTIONS), so dashboards need no secret; on the admin port, only the reads of probes and
 * metrics ({@link #ADMIN_OPEN}), so thread dumps, the CPU profiler and the tasks need the token.
 */
public final class BearerTokenFilter implements Filter {
    /** Admin paths that answer a GET without the token: what kubelets and Prometheus read. */
    static final java.util.Set<String> ADMIN_OPEN = java.util.Set.of("/livez", "/readyz", "/healthcheck", "/ping", "/prometheus",
            "/metrics");

    private final byte[] token;
    private final java.util.function.Predicate<HttpServletRequest> open;

    private BearerTokenFilter(String token, java.util.function.Predicate<HttpServletRequest> open) {
        this.token = token.getBytes(StandardCharsets.UTF_8);
        this.open = open;
    }

    /** The API's: every read is open. */
    public static BearerTokenFilter forApi(String token) {
        return new BearerTokenFilter(token, r -> isRead(r.getMethod()));
    }

    /** The admin port's: only the reads of {@link #ADMIN_OPEN} are open. */
    public static BearerTokenFilter forAdmin(String token) {
        return new BearerTokenFilter(token, r -> isRead(r.getMethod()) && ADMIN_OPEN.contains(pathOf(r)));
    }

    private static boolean isRead(String method) {
        return method.equals("GET") || method.equals("HEAD") || method.equals("OPTIONS");
    }

    private static String pathOf(HttpServletRequest r) {
        String path = r.getRequestURI().substring(r.getContextPath() == null ? 0 : r.getContextPath().length());
        return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain) throws IOException, ServletException {
        HttpServletRequest http = (HttpServletRequest) request;
        if (open.test(http)) {
            chain.doFilter(request, response);
            return;
        }
        String header = http.getHeader("Authorization");
        byte[] given = header != null && header.startsWith("Bearer ")
                ? header.substring("Bearer ".length()).trim().getBytes(StandardCharsets.UTF_8) : new byte[0];
        if (!MessageDigest.isEqual(given, token)) {
            HttpServletResponse out = (HttpServletResponse) response;
            out.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
            out.setHeader("WWW-Authenticate", "Bearer realm=\"colocation-broker\"");
            out.setContentType("application/json");
            out.getWriter().write("{\"code\":401,\"message\":\"" + (header == null ? "this request needs Authorization: Bearer <auth.token>"
                    : "the bearer token is not the broker's auth.token") + "\"}");
            return;
        }
        chain.doFilter(request, response);
    }
}
