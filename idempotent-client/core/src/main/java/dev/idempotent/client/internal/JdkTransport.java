package dev.idempotent.client.internal;

import dev.idempotent.client.AttemptCustomizer;
import dev.idempotent.client.Transport;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

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
        try {
            client.send(request, body);
            return body.answer();
        } catch (IOException failed) {
            if (body.cut()) {
                // The read was stopped at the limit, which the JDK reports as a failure: the answer stands.
                return body.answer();
            }
            body.abandon();
            throw failed;
        } catch (InterruptedException interrupted) {
            // The JDK cancels the exchange; the body reads no more of what it may still be handed.
            body.abandon();
            throw interrupted;
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
        CompletableFuture<HttpResponse<Void>> exchange = client.sendAsync(request(attempt), body);
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
            if (failure == null || body.cut()) {
                answer.complete(body.answer());
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
     * The body, read up to the attempt's limit. Past it, the read is stopped (the JDK closes the connection, so it
     * is never reused) and the answer is what was kept, marked truncated: the client never holds more than the limit
     * of one answer, whatever the server sends.
     *
     * <p>It reaches the JDK as {@link HttpResponse.BodySubscribers#ofByteArrayConsumer}, one of the JDK's own
     * subscribers, which every JDK from 17 finishes in place, on the thread that read the last bytes. A subscriber
     * of the library's own is finished on the JDK's executor, and so, from JDK 22, is one wrapped by
     * {@code fromSubscriber} (JDK-8317295): a thread hop that cost about 15 us a call on loopback. That subscriber
     * cannot be cancelled, so the limit stops the read the one way it offers: {@link #accept} throws, and the JDK
     * fails the exchange and closes its connection; {@link #cut()} then tells that failure from a real one, and the
     * status and headers come from the {@link HttpResponse.ResponseInfo} the JDK handed over first. No deadline
     * here: the {@link Watchdog} ends an attempt past its budget, from outside the thread that reads.
     */
    static final class LimitedBody implements HttpResponse.BodyHandler<Void>, Consumer<Optional<byte[]>> {

        /** Thrown into the JDK's read to stop it; no stack, nothing to report. */
        static final class Stop extends RuntimeException {
            private static final long serialVersionUID = 1L;

            Stop() {
                super("response body read stopped", null, false, false);
            }
        }

        private final int limit;
        /** The JDK's own subscriber, which finishes in place; it hands this body every chunk as a copy. */
        private final HttpResponse.BodySubscriber<Void> subscriber =
                HttpResponse.BodySubscribers.ofByteArrayConsumer(this);
        /** The final response's status and headers, set before the first byte of its body. */
        private HttpResponse.ResponseInfo info;
        /** The first chunk kept; the whole body when it came in one, as a small answer on loopback does. */
        private byte[] first;
        /** The chunks kept after the first, if any. */
        private List<byte[]> rest;
        private int size;
        /** Set by the thread that read, before the JDK fails the exchange (which publishes it). */
        private boolean truncated;
        /**
         * Set once the attempt was given up: nothing more is kept, and the next chunk stops the read. (After a cut
         * the next chunk stops it too: there is no room left for it.)
         */
        private volatile boolean abandoned;

        LimitedBody(int limit) {
            this.limit = limit;
        }

        @Override
        public HttpResponse.BodySubscriber<Void> apply(HttpResponse.ResponseInfo info) {
            this.info = info;
            return subscriber;
        }

        @Override
        public void accept(Optional<byte[]> chunk) {
            if (chunk.isEmpty()) {
                return; // the end of the body
            }
            if (abandoned) {
                throw new Stop();
            }
            byte[] bytes = chunk.get();
            int room = limit - size;
            if (bytes.length > room) {
                keep(Arrays.copyOf(bytes, room));
                truncated = true;
                throw new Stop();
            }
            keep(bytes);
        }

        private void keep(byte[] bytes) {
            if (first == null) {
                first = bytes;
            } else {
                if (rest == null) {
                    rest = new ArrayList<>();
                }
                rest.add(bytes);
            }
            size += bytes.length;
        }

        /**
         * Whether the read was stopped at the limit: a failed exchange is then the answer, truncated.
         *
         * @return true once more was sent than kept
         */
        boolean cut() {
            return truncated;
        }

        /** The attempt was given up: keep nothing more, and stop the read at its next chunk. */
        void abandon() {
            abandoned = true;
        }

        /** The body kept, in one array. */
        byte[] bytes() {
            if (rest == null) {
                return first == null ? new byte[0] : first;
            }
            byte[] all = Arrays.copyOf(first, size);
            int at = first.length;
            for (byte[] b : rest) {
                System.arraycopy(b, 0, all, at, b.length);
                at += b.length;
            }
            return all;
        }

        /** The answer: the status and headers the JDK handed over, and the body kept. */
        Answer answer() {
            return new Answer(info.statusCode(), info.headers(), bytes(), truncated);
        }
    }
}
