package io.colocation.koordlet.yarn;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
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
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One HTTP exchange with a local peer that may be hostile or broken: the answer's body is counted while it streams
 * and dropped past a size (never read whole first), and the whole exchange, headers and body, ends at a deadline (the
 * JDK client's request timeout covers the headers only, so a peer sending a byte a second would hold the caller for
 * ever).
 */
final class BoundedHttp {
    /** An answer: its status and its body. */
    record Answer(int status, byte[] body) {
    }

    /** The body went past the size allowed. */
    static final class TooLarge extends IOException {
        private static final long serialVersionUID = 1L;

        TooLarge(int max) {
            super("answered more than " + max + " bytes");
        }
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
        try {
            HttpResponse<byte[]> response = exchange.get(total.toMillis(), TimeUnit.MILLISECONDS);
            return new Answer(response.statusCode(), response.body());
        } catch (TimeoutException e) {
            LimitedBody b = body.get();
            if (b != null) {
                b.abort();
            }
            exchange.cancel(true);
            throw new HttpTimeoutException("no complete answer within " + total.toMillis() + " ms");
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
                    result.completeExceptionally(new TooLarge(max));
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
