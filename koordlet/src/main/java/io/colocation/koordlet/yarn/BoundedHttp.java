package io.colocation.koordlet.yarn;

import io.colocation.helpers.io.LimitedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One HTTP exchange with a local peer that may be hostile or broken: the answer's body is counted while it streams
 * and dropped past a size (never read whole first), and the whole exchange, headers and body, ends at a deadline (the
 * JDK client's request timeout covers the headers only, so a peer sending a byte a second would hold the caller for
 * ever). {@link #send} collects a small body; {@link #stream} hands a large one to a reader as it arrives, so what is
 * held is what the reader keeps of it.
 */
final class BoundedHttp {
    /** An answer: its status and its body. */
    record Answer(int status, byte[] body) {
    }

    private final HttpClient http;

    BoundedHttp(HttpClient http) {
        this.http = http;
    }

    Answer send(HttpRequest request, int maxBytes, Duration total) throws IOException, InterruptedException {
        AtomicReference<LimitedBody> body = new AtomicReference<>();
        CompletableFuture<HttpResponse<byte[]>> exchange = http.sendAsync(request, info -> {
            LimitedBody b = new LimitedBody(maxBytes);
            body.set(b);
            return b;
        });
        HttpResponse<byte[]> response = await(exchange, total, "no complete answer", () -> {
            LimitedBody b = body.get();
            if (b != null) {
                b.abort();
            }
        });
        return new Answer(response.statusCode(), response.body());
    }

    /** The exchange's response within {@code total}, else {@code onTimeout} run, the exchange cancelled and a timeout thrown. */
    private static <T> HttpResponse<T> await(CompletableFuture<HttpResponse<T>> exchange, Duration total, String missing,
            Runnable onTimeout) throws IOException, InterruptedException {
        try {
            return exchange.get(total.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            onTimeout.run();
            exchange.cancel(true);
            throw new HttpTimeoutException(missing + " within " + total.toMillis() + " ms");
        } catch (InterruptedException e) {
            exchange.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            throw new IOException(cause == null ? e.toString() : cause.toString(), cause);
        }
    }

    /** Reads a body as it streams; what it returns becomes the answer's value. */
    @FunctionalInterface
    interface BodyReader<T> {
        T read(InputStream body) throws IOException;
    }

    /** An answer read as it streamed: its status and what the reader made of its body (null when the status is not 200). */
    record Streamed<T>(int status, T value) {
    }

    /**
     * The exchange with the body read by {@code reader} as it arrives, never held whole: at most {@code maxBytes} of it
     * ({@link LimitedInputStream.TooLarge} past that) and all of it within {@code total} (the stream is closed at the deadline, which ends
     * a read that waits on a slow peer). A status other than 200 is returned without reading the body.
     */
    <T> Streamed<T> stream(HttpRequest request, int maxBytes, Duration total, BodyReader<T> reader)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + total.toNanos();
        HttpResponse<InputStream> response = await(http.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream()), total,
                "no answer", () -> { });
        try (InputStream body = new LimitedInputStream(response.body(), maxBytes, "answered more than " + maxBytes + " bytes")) {
            if (response.statusCode() != 200) {
                return new Streamed<>(response.statusCode(), null);
            }
            long left = deadline - System.nanoTime();
            ScheduledFuture<?> cut = DEADLINES.schedule(() -> close(body), Math.max(left, 0), TimeUnit.NANOSECONDS);
            try {
                return new Streamed<>(200, reader.read(body));
            } catch (IOException e) {
                if (System.nanoTime() - deadline >= 0 && !(e instanceof LimitedInputStream.TooLarge)) {
                    throw new HttpTimeoutException("no complete answer within " + total.toMillis() + " ms");
                }
                throw e;
            } finally {
                cut.cancel(false);
            }
        }
    }

    private static void close(InputStream body) {
        try {
            body.close();
        } catch (IOException ignored) {
            // closing is how the deadline ends the read; nothing more to do
        }
    }

    /** Ends the reads that run past their deadline. */
    private static final ScheduledExecutorService DEADLINES = Executors.newSingleThreadScheduledExecutor(
            io.colocation.helpers.concurrent.Daemons.named("copilot-deadlines"));

    /** Collects a body up to {@code max} bytes; beyond that it cancels the stream and fails. */
    private static final class LimitedBody implements HttpResponse.BodySubscriber<byte[]> {
        private final int max;
        private final CompletableFuture<byte[]> result = new CompletableFuture<>();
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();
        private volatile Flow.Subscription subscription;

        LimitedBody(int max) {
            this.max = max;
        }

        @Override
        public CompletionStage<byte[]> getBody() {
            return result;
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            s.request(1);
        }

        @Override
        public void onNext(List<ByteBuffer> items) {
            for (ByteBuffer b : items) {
                if (out.size() + b.remaining() > max) {
                    subscription.cancel();
                    result.completeExceptionally(new LimitedInputStream.TooLarge("answered more than " + max + " bytes"));
                    return;
                }
                byte[] chunk = new byte[b.remaining()];
                b.get(chunk);
                out.write(chunk, 0, chunk.length);
            }
            subscription.request(1);
        }

        @Override
        public void onError(Throwable t) {
            result.completeExceptionally(t);
        }

        @Override
        public void onComplete() {
            result.complete(out.toByteArray());
        }

        void abort() {
            Flow.Subscription s = subscription;
            if (s != null) {
                s.cancel();
            }
            result.completeExceptionally(new HttpTimeoutException("aborted at the deadline"));
        }
    }
}
