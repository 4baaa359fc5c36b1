package io.colocation.broker.service;

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
 * Guards mutating requests (anything but GET, HEAD and OPTIONS) with {@code Authorization: Bearer <token>}.
 * Reads stay open so dashboards and probes need no secret.
 */
public final class BearerTokenFilter implements Filter {
    private final byte[] token;

    public BearerTokenFilter(String token) {
        this.token = token.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain) throws IOException, ServletException {
        HttpServletRequest http = (HttpServletRequest) request;
        String method = http.getMethod();
        if (method.equals("GET") || method.equals("HEAD") || method.equals("OPTIONS")) {
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
