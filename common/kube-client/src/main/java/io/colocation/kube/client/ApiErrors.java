package io.colocation.kube.client;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import javax.net.ssl.SSLException;

/**
 * Why a call to the API server failed, in words an operator acts on ("connection refused", "HTTP 403: ..."), from the
 * chain of causes fabric8 wraps it in (whose outer messages often end in ": null").
 */
public final class ApiErrors {
    private ApiErrors() {
    }

    /**
     * Why a TCP connection to the client's API server fails (fabric8's informers only retry, so a start that times out
     * cannot tell a server that is down from one that is slow); null when it connects.
     */
    public static String unreachable(KubernetesClient client) {
        java.net.URL url = client.getMasterUrl();
        if (url == null) {
            return "no API server URL (kubernetes.masterUrl or the kubeconfig)";
        }
        int port = url.getPort() > 0 ? url.getPort() : url.getDefaultPort();
        try (java.net.Socket socket = new java.net.Socket()) {
            socket.connect(new java.net.InetSocketAddress(url.getHost(), port), 2000);
            return null;
        } catch (UnknownHostException e) {
            return "unknown host " + url.getHost();
        } catch (ConnectException e) {
            return "connection refused";
        } catch (java.io.IOException e) {
            return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        }
    }

    public static String describe(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof ConnectException) {
                return "connection refused" + detail(c);
            }
            if (c instanceof UnknownHostException) {
                return "unknown host " + c.getMessage();
            }
            if (c instanceof HttpConnectTimeoutException) {
                return "no connection within the client's connect timeout";
            }
            if (c instanceof HttpTimeoutException) {
                return "no answer within the client's request timeout";
            }
            if (c instanceof SSLException) {
                return "TLS failed" + detail(c);
            }
            if (c instanceof KubernetesClientException k && k.getCode() > 0) {
                return "HTTP " + k.getCode() + (k.getStatus() != null && k.getStatus().getMessage() != null
                        ? ": " + k.getStatus().getMessage() : detail(k));
            }
        }
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String m = root.getMessage();
        return m == null || m.isBlank() || m.equals("null") ? root.getClass().getSimpleName() : m.lines().findFirst().orElse(m);
    }

    private static String detail(Throwable t) {
        String m = t.getMessage();
        return m == null || m.isBlank() || m.endsWith(": null") ? "" : ": " + m.lines().findFirst().orElse(m);
    }
}
