package io.colocation.harness;

import io.colocation.localclusters.process.ChildProcess;
import java.time.Duration;

/** A part of the distribution running as its own process with an HTTP API on a loopback port. */
abstract class LoopbackPart implements AutoCloseable {
    private final ChildProcess process;
    private final String url;
    private final LoopbackHttp http;

    LoopbackPart(ChildProcess process, String url, LoopbackHttp http) {
        this.process = process;
        this.url = url;
        this.http = http;
    }

    /** Its API, {@code http://127.0.0.1:PORT}. */
    public String url() {
        return url;
    }

    /** A GET of a path of its API; null when it does not answer 200. */
    public String get(String path) {
        return http.get(url + path, Duration.ofSeconds(10));
    }

    public ChildProcess process() {
        return process;
    }

    @Override
    public void close() {
        process.close();
    }
}
