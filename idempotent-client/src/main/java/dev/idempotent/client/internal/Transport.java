package dev.idempotent.client.internal;

import dev.idempotent.client.AttemptCustomizer;
import dev.idempotent.client.IdempotentRequest;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * One HTTP exchange over {@code java.net.http}, and nothing else: no retry, no classification, no sleeping.
 * Thread-safe; one per client.
 *
 * <p>A client this library builds speaks HTTP/1.1 (an h2c upgrade on plain http would only add a failure mode) and
 * never follows redirects: a redirected POST goes somewhere the key was not made for, outside the classifier. Leave
 * {@code jdk.httpclient.enableAllMethodRetry} unset: with it, the JDK resends a POST by itself on a dropped
 * connection, invisible to the classifier, the attempt count and the events.
 */
public final class Transport {

    private final HttpClient client;
    private final String keyHeader;
    private final AttemptCustomizer customizer;
    private final Deadlines deadlines;

    /**
     * A transport on the given client whose body budgets are checked by a thread named {@code threadPrefix +
     * "-body-deadlines"}, started on the first answer and ended by {@link #close()}.
     *
     * @param client       the JDK client to send with
     * @param keyHeader    the header the key goes in
     * @param customizer   called on every attempt's request builder before the request's and the client's headers
     * @param threadPrefix how the sweeping thread's name starts
     */
    public Transport(HttpClient client, String keyHeader, AttemptCustomizer customizer, String threadPrefix) {
        this.client = Objects.requireNonNull(client, "client");
        this.keyHeader = Objects.requireNonNull(keyHeader, "keyHeader");
        this.customizer = Objects.requireNonNull(customizer, "customizer");
        this.deadlines = new Deadlines(threadPrefix + "-body-deadlines");
    }

    /** Ends the sweeping thread and fails every body still being read, as a timeout. Idempotent. */
    public void close() {
        deadlines.close();
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
     * Sends one attempt and reads the whole answer, within {@code timeout}.
     *
     * <p>The JDK's own request timeout stops at the response headers: a server that sends them and then stalls the
     * body would hold the call past every budget. So the body is read by a {@link TimedBody} that gets what is left
     * of the same budget, cancels the read when it runs out and fails it with an {@link HttpTimeoutException}, as
     * the JDK reports its own timeout.
     *
     * @param request    the operation
     * @param headerKey  the key as its {@link dev.idempotent.client.KeyForm} writes it
     * @param attempt    which attempt of the call this is, from 1
     * @param timeout    the budget for this attempt, from send to the last body byte
     * @return the answer, whatever its status
     * @throws IOException          when no complete answer arrived (refused, reset, EOF, timeout)
     * @throws InterruptedException if the calling thread is interrupted (the JDK then cancels the exchange)
     */
    public Exchange send(IdempotentRequest request, String headerKey, int attempt, Duration timeout)
            throws IOException, InterruptedException {
        return exchange(client.send(request(request, headerKey, attempt, timeout), deadlines.handler(timeout)));
    }

    /**
     * Starts one attempt without blocking; the same request, and the same budget over the whole exchange, as
     * {@link #send}. Cancelling the returned future cancels the exchange (the JDK aborts it).
     *
     * @param request    the operation
     * @param headerKey  the key as its form writes it
     * @param attempt    which attempt of the call this is, from 1
     * @param timeout    the budget for this attempt
     * @return the answer, or a future failed with the transport's {@link IOException} (possibly wrapped in a
     *     {@link java.util.concurrent.CompletionException})
     */
    public CompletableFuture<Exchange> sendAsync(IdempotentRequest request, String headerKey, int attempt,
            Duration timeout) {
        CompletableFuture<HttpResponse<byte[]>> exchange =
                client.sendAsync(request(request, headerKey, attempt, timeout), deadlines.handler(timeout));
        // A stage chained on the exchange would not pass a cancel back to it; this future does.
        CompletableFuture<Exchange> answer = new CompletableFuture<>() {
            @Override
            public boolean cancel(boolean mayInterruptIfRunning) {
                exchange.cancel(true);
                return super.cancel(mayInterruptIfRunning);
            }
        };
        exchange.whenComplete((response, failure) -> {
            if (failure == null) {
                answer.complete(exchange(response));
            } else {
                answer.completeExceptionally(failure);
            }
        });
        return answer;
    }

    /**
     * The request for one attempt. The caller's customizer runs first, told the key and the attempt; then the
     * request's own headers replace what it set under their names; then the client sets the URI, the method, the
     * body, the timeout, {@code Content-Type} and the key, which nothing before can change.
     */
    HttpRequest request(IdempotentRequest request, String headerKey, int attempt, Duration timeout) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(request.uri());
        customizer.customize(builder, request.key(), attempt);
        Set<String> set = new HashSet<>();
        for (Map.Entry<String, String> header : request.headers()) {
            // The first value replaces the customizer's; a second value under the same name is added beside it.
            if (set.add(header.getKey().toLowerCase(Locale.ROOT))) {
                builder.setHeader(header.getKey(), header.getValue());
            } else {
                builder.header(header.getKey(), header.getValue());
            }
        }
        byte[] body = request.body();
        request.contentType().ifPresent(type -> builder.setHeader("Content-Type", type));
        return builder
                .uri(request.uri())
                .timeout(timeout)
                .setHeader(keyHeader, headerKey)
                .method(request.method(), body.length == 0 && request.contentType().isEmpty()
                        ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
    }

    /**
     * The JDK's byte-array body, read within what is left of an attempt's budget once the headers are in. When the
     * budget runs out first, the read is cancelled (the JDK closes the connection) and the body fails with an
     * {@link HttpTimeoutException}. Budgets are checked by {@link Deadlines}' one thread every
     * {@link Deadlines#TICK}, not by a timer per body: a timer armed and cancelled on every call wakes a thread on
     * every call, which cost about 7% of the loopback benchmark's throughput on two cores (docs/benchmarks.md).
     *
     * <p>It reaches the JDK through {@link HttpResponse.BodySubscribers#fromSubscriber}, not as a body subscriber of
     * its own: the JDK hands a body subscriber it did not make to its executor to finish, a thread hop that cost
     * about 15 us a call on loopback. JDK 17 finishes {@code fromSubscriber} bodies in place; JDK 22 moved that to
     * another thread (JDK-8317295: the common pool, or a new thread per body where the pool has one worker, as on
     * two cores), so there the hop is back. The one cancellable body the JDK finishes in place,
     * its {@code InputStream}, is slower on JDK 17 and swallows interrupts there (JDK-8294047).
     */
    static final class TimedBody implements Flow.Subscriber<List<ByteBuffer>> {
        static final String TIMED_OUT = "the attempt timed out before the whole answer arrived";

        private final HttpResponse.BodySubscriber<byte[]> bytes = HttpResponse.BodySubscribers.ofByteArray();
        /** What the JDK reads into: this body, wrapped by the JDK, which completes when the body ends. */
        final HttpResponse.BodySubscriber<byte[]> subscriber;
        private final long deadline;
        /**
         * Set by whichever comes first, the body's end (the JDK's thread) or its deadline (the sweeping thread):
         * only the winner touches {@link #bytes}, whose buffers are not thread-safe.
         */
        private final AtomicBoolean ended = new AtomicBoolean();
        private volatile Flow.Subscription subscription;

        private TimedBody(Deadlines deadlines, long deadline) {
            this.deadline = deadline;
            this.subscriber = HttpResponse.BodySubscribers.fromSubscriber(this, TimedBody::read);
            deadlines.watch(this);
            subscriber.getBody().whenComplete((read, failure) -> deadlines.forget(this));
        }

        /**
         * The bytes read; called by the JDK once {@link #onComplete()} returned. When the deadline won, the bytes
         * were never completed: the body fails as a timeout here too, whichever of the two threads completes the
         * JDK's future first.
         */
        private byte[] read() {
            byte[] read = bytes.getBody().toCompletableFuture().getNow(null);
            if (read == null) {
                throw new CompletionException(new HttpTimeoutException(TIMED_OUT));
            }
            return read;
        }

        /** Fails the body and cancels the read, unless the body has ended. */
        void expire() {
            if (!ended.compareAndSet(false, true)) {
                return;
            }
            // The timeout first: JDK 25 fails a cancelled body at once with an error of its own.
            subscriber.onError(new HttpTimeoutException(TIMED_OUT));
            Flow.Subscription s = subscription;
            if (s != null) {
                s.cancel();
            }
        }

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            if (ended.get()) {
                // The budget ran out before the body started.
                s.cancel();
            } else {
                bytes.onSubscribe(s);
            }
        }

        @Override
        public void onNext(List<ByteBuffer> item) {
            // Before the end, only the JDK's thread touches the buffers.
            if (!ended.get()) {
                bytes.onNext(item);
            }
        }

        @Override
        public void onError(Throwable throwable) {
            // The JDK's failure, unless the deadline came first (its own timeout comes back through here too).
            if (ended.compareAndSet(false, true)) {
                bytes.onError(throwable);
            }
        }

        @Override
        public void onComplete() {
            if (ended.compareAndSet(false, true)) {
                bytes.onComplete();
            }
        }
    }

    /**
     * The bodies being read, and one daemon thread per transport that expires those past their deadline every
     * {@link #TICK} (so a body may run up to a tick over its budget). The thread starts on the first answer and ends
     * with {@link #close()}.
     */
    static final class Deadlines implements AutoCloseable {
        static final Duration TICK = Duration.ofMillis(50);
        private final Set<TimedBody> reading = ConcurrentHashMap.newKeySet();
        private final String threadName;
        private volatile Thread sweeper;
        private volatile boolean closed;

        Deadlines(String threadName) {
            this.threadName = threadName;
        }

        /** A handler whose body gets what is left of {@code timeout}, counted from now. */
        HttpResponse.BodyHandler<byte[]> handler(Duration timeout) {
            long deadline = System.nanoTime() + timeout.toNanos();
            return info -> new TimedBody(this, deadline).subscriber;
        }

        void watch(TimedBody body) {
            reading.add(body);
            if (sweeper == null || closed) {
                start();
            }
        }

        void forget(TimedBody body) {
            reading.remove(body);
        }

        private synchronized void start() {
            if (closed) {
                // Nothing would time this body out: an attempt that outlived close() ends as a timeout at once.
                expireAll();
                return;
            }
            if (sweeper != null) {
                return;
            }
            Thread t = new Thread(this::sweep, threadName);
            t.setDaemon(true);
            sweeper = t;
            t.start();
        }

        private void sweep() {
            while (!Thread.currentThread().isInterrupted()) {
                LockSupport.parkNanos(TICK.toNanos());
                expire(System.nanoTime());
            }
        }

        private void expire(long now) {
            for (TimedBody body : reading) {
                if (now - body.deadline >= 0) {
                    body.expire();
                }
            }
        }

        @Override
        public void close() {
            Thread t;
            synchronized (this) {
                closed = true;
                t = sweeper;
            }
            if (t != null) {
                t.interrupt();
            }
            // Nothing times these out any more: end them now.
            expireAll();
        }

        private void expireAll() {
            for (TimedBody body : reading) {
                body.expire();
            }
        }
    }

    private static Exchange exchange(HttpResponse<byte[]> response) {
        return new Exchange(response.statusCode(), response.headers(), response.body());
    }
}
