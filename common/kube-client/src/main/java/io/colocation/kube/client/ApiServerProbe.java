package io.colocation.kube.client;

import io.colocation.helpers.concurrent.Daemons;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Asks the API server for {@code /version} every few seconds on a thread of its own and remembers when it last
 * answered, so a part's readiness can say "the API server has not answered for 20 s" even while its informers still
 * believe they are connected (a server that accepts connections and never answers, a partition).
 */
public final class ApiServerProbe implements AutoCloseable {
    private final KubernetesClient client;
    private final Duration every;
    private final Clock clock;
    private final Instant started;
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(Daemons.named("api-server-probe"));
    private volatile Instant lastAnswer;
    private volatile String lastError = "not asked yet";

    public ApiServerProbe(KubernetesClient client, Duration every, Clock clock) {
        this.client = client;
        this.every = every;
        this.clock = clock;
        this.started = clock.instant();
    }

    public ApiServerProbe start() {
        thread.scheduleWithFixedDelay(this::ask, 0, every.toMillis(), TimeUnit.MILLISECONDS);
        return this;
    }

    private void ask() {
        try {
            client.raw(client.getMasterUrl().toString().replaceAll("/+$", "") + "/version");
            lastAnswer = clock.instant();
            lastError = null;
        } catch (RuntimeException e) {
            lastError = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().lines().findFirst().orElse("");
        }
    }

    /** Null when the API server answered within {@code stale}; otherwise since when it has not, and the last error. */
    public String problem(Duration stale) {
        Instant last = lastAnswer;
        Instant now = clock.instant();
        if (last != null && Duration.between(last, now).compareTo(stale) <= 0) {
            return null;
        }
        long seconds = Duration.between(last == null ? started : last, now).toSeconds();
        if (last == null && seconds < stale.toSeconds()) {
            return null; // just started: give it the same time
        }
        return "the API server " + client.getMasterUrl() + " has not answered " + (last == null ? "since the start" : "for " + seconds + " s")
                + (lastError == null ? " (its answers are slower than " + stale.toSeconds() + " s)" : ": " + lastError);
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
