package dev.idempotent.client.internal;

import dev.idempotent.client.AttemptCustomizer;
import dev.idempotent.client.Transport;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The default {@link Transport}: one HTTP exchange over {@code java.net.http}, and nothing else: no retry, no
 * classification, no sleeping. Thread-safe; one per client. Besides the asynchronous {@link #send(Attempt)} every
 * transport has, it sends a blocking call on the caller's thread ({@link #sendBlocking}), which the watchdog
 * interrupts: the JDK then cancels the exchange, with no thread hop.
 *
 * <p>A client this library builds speaks HTTP/1.1 (an h2c upgrade on plain http would only add a failure mode) and
 * never follows redirects: a redirected POST goes somewhere the key was not made for, outside the classifier. Leave
 * {@code jdk.httpclient.enableAllMethodRetry} unset: with it, the JDK resends a POST by itself on a dropped
 * connection, invisible to the classifier, the attempt count and the events.
 */
public final class JdkTransport implements Transport {

    private final HttpClient client;
    private final AttemptCustomizer customizer;

    /**
     * A transport on the given client.
     *
     * @param client     the JDK client to send with
     * @param customizer called on every attempt's request builder before the attempt's headers; null for none
     */
    public JdkTransport(HttpClient client, AttemptCustomizer customizer) {
        this.client = Objects.requireNonNull(client, "client");
        this.customizer = customizer;
    }

    /**
     * A client fit for idempotent retries: HTTP/1.1, no redirects, the given connect timeout.
     *
     * @param connectTimeout the TCP connect budget
     * @param executor       the client's executor; null for the JDK's default
     * @return a new client
     */
    public static HttpClient newClient(Duration connectTimeout, Executor executor) {
        HttpClient.Builder b = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(connectTimeout);
        if (executor != null) {
            b.executor(executor);
        }
        return b.build();
    }

    /**
     * Sends one attempt and reads its answer, the body up to the limit.
     *
     * <p>The JDK's own request timeout, set by {@link #request}, stops at the response headers; the body is bounded
     * by the limit, and the time past the headers by the caller's {@link Watchdog}, which interrupts this thread: the
     * JDK's {@code send} then cancels the exchange, and the body is abandoned.
     *
     * @param request      the attempt's request, from {@link #request}
     * @param maxBodyBytes the most of the body kept
     * @return the answer, whatever its status
     * @throws IOException          when no answer arrived (refused, reset, EOF, timeout)
     * @throws InterruptedException if the calling thread is interrupted (the JDK then cancels the exchange)
     */
    public Answer sendBlocking(HttpRequest request, int maxBodyBytes) throws IOException, InterruptedException {
        LimitedBody body = new LimitedBody(maxBodyBytes);
        boolean answered = false;
        try {
            Answer answer = answer(client.send(request, body));
            answered = true;
            return answer;
        } finally {
            if (!answered) {
                // Interrupted, or failed some other way (a channel closed by the interrupt, say): read no more.
                body.abandon();
            }
        }
    }

    /**
     * Starts one attempt without blocking; the same request and body limit as {@link #sendBlocking}. Cancelling the
     * returned future cancels the exchange (the JDK aborts it) and abandons the body.
     *
     * @param attempt the attempt
     * @return the answer, or a future failed with the transport's {@link IOException} (possibly wrapped in a
     *     {@link java.util.concurrent.CompletionException})
     * @throws IllegalArgumentException naming a header whose value the customizer set wrong
     */
    @Override
    public CompletableFuture<Answer> send(Attempt attempt) {
        LimitedBody body = new LimitedBody(attempt.maxBodyBytes());
        CompletableFuture<HttpResponse<LimitedBody.Read>> exchange = client.sendAsync(request(attempt), body);
        // A stage chained on the exchange would not pass a cancel back to it; this future does.
        CompletableFuture<Answer> answer = new CompletableFuture<>() {
            @Override
            public boolean cancel(boolean mayInterruptIfRunning) {
                exchange.cancel(true);
                body.abandon();
                return super.cancel(mayInterruptIfRunning);
            }
        };
        exchange.whenComplete((response, failure) -> {
            if (failure == null) {
                answer.complete(answer(response));
            } else {
                answer.completeExceptionally(failure);
            }
        });
        return answer;
    }

    /**
     * The request for one attempt. The caller's customizer runs first, told the key and the attempt, on a builder
     * that refuses a header value HTTP cannot carry ({@code invalid value for header NAME}); then the attempt's
     * headers (the request's, {@code Content-Type} and the key) replace what it set under their names; then the
     * URI, the method, the body and the timeout, which nothing before can change. Built before the attempt is
     * watched, so the watchdog never interrupts the caller's customizer.
     *
     * @param attempt the attempt; its timeout is the JDK's request timeout, which stops at the headers
     * @return the request to send
     * @throws IllegalArgumentException naming a header whose value the customizer set wrong
     */
    public HttpRequest request(Attempt attempt) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(attempt.uri());
        if (customizer != null) {
            customizer.customize(new CheckedHeaders(builder), attempt.key(), attempt.number());
        }
        for (Map.Entry<String, List<String>> header : attempt.headers().map().entrySet()) {
            // The first value replaces the customizer's; a second value under the same name is added beside it.
            List<String> values = header.getValue();
            builder.setHeader(header.getKey(), values.get(0));
            for (int i = 1; i < values.size(); i++) {
                builder.header(header.getKey(), values.get(i));
            }
        }
        byte[] body = attempt.body();
        return builder
                .uri(attempt.uri())
                .timeout(attempt.timeout())
                .method(attempt.method(), body.length == 0 && attempt.headers().firstValue("Content-Type").isEmpty()
                        ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
    }

    /**
     * The body, read up to the attempt's limit. Past it, the read is cancelled (the JDK closes the connection, so
     * it is never reused) and the answer completes with what was kept, marked truncated: the client never holds
     * more than the limit of one answer, whatever the server sends.
     *
     * <p>It reaches the JDK through {@link HttpResponse.BodySubscribers#fromSubscriber}, not as a body subscriber of
     * its own: the JDK hands a body subscriber it did not make to its executor to finish, a thread hop that cost
     * about 15 us a call on loopback. JDK 17 finishes {@code fromSubscriber} bodies in place; JDK 22 moved that to
     * another thread (JDK-8317295), so there the hop is back. The one cancellable body the JDK finishes in place,
     * its {@code InputStream}, is slower on JDK 17 and swallows interrupts there (JDK-8294047). No deadline here:
     * the {@link Watchdog} ends an attempt past its budget, from outside the thread that reads.
     */
    static final class LimitedBody implements Flow.Subscriber<List<ByteBuffer>>,
            HttpResponse.BodyHandler<LimitedBody.Read> {

        /**
         * What was read.
         *
         * @param bytes     the body, or its first {@code limit} bytes
         * @param truncated whether more was sent than kept
         */
        record Read(byte[] bytes, boolean truncated) {
        }

        private final int limit;
        /** The JDK's buffers, kept as it hands them over (they are ours), up to the limit. */
        private final List<ByteBuffer> kept = new ArrayList<>();
        private int size;
        private boolean truncated;
        /** Set once the body ended, was cut at the limit, or was abandoned: nothing more is kept. */
        private final AtomicBoolean ended = new AtomicBoolean();
        private volatile Flow.Subscription subscription;
        /** What the JDK reads into: this body, wrapped by the JDK. */
        private final HttpResponse.BodySubscriber<Read> subscriber =
                HttpResponse.BodySubscribers.fromSubscriber(this, LimitedBody::read);

        LimitedBody(int limit) {
            this.limit = limit;
        }

        @Override
        public HttpResponse.BodySubscriber<Read> apply(HttpResponse.ResponseInfo info) {
            return subscriber;
        }

        private Read read() {
            byte[] bytes = new byte[size];
            int at = 0;
            for (ByteBuffer b : kept) {
                int n = b.remaining();
                b.get(bytes, at, n);
                at += n;
            }
            return new Read(bytes, truncated);
        }

        /** The attempt was given up: stop reading (the JDK closes the connection) and keep nothing more. */
        void abandon() {
            ended.set(true);
            Flow.Subscription s = subscription;
            if (s != null) {
                s.cancel();
            }
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            if (ended.get()) {
                s.cancel();
            } else {
                s.request(Long.MAX_VALUE);
            }
        }

        @Override
        public void onNext(List<ByteBuffer> items) {
            if (ended.get()) {
                return;
            }
            for (ByteBuffer b : items) {
                int room = limit - size;
                if (b.remaining() > room) {
                    ByteBuffer part = b.duplicate();
                    part.limit(part.position() + room);
                    kept.add(part);
                    size = limit;
                    cut();
                    return;
                }
                kept.add(b);
                size += b.remaining();
            }
        }

        /** The limit is reached: the answer is what was kept; the read is cancelled once that answer stands. */
        private void cut() {
            if (ended.compareAndSet(false, true)) {
                truncated = true;
                subscriber.onComplete();
                // JDK 25 completes the answer on another thread and fails a cancelled body at once, which would win
                // over the answer: cancel only once it is complete (at once on JDK 17, which completes in place).
                Flow.Subscription s = subscription;
                subscriber.getBody().whenComplete((read, failure) -> s.cancel());
            }
        }

        @Override
        public void onError(Throwable throwable) {
            // The JDK's failure; after a cut or an abandon, the body is already settled.
            ended.set(true);
        }

        @Override
        public void onComplete() {
            ended.set(true);
        }
    }

    private static Answer answer(HttpResponse<LimitedBody.Read> response) {
        LimitedBody.Read body = response.body();
        return new Answer(response.statusCode(), response.headers(), body.bytes(), body.truncated());
    }
}
