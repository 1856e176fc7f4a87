package dev.idempotent.client;

import com.fasterxml.jackson.core.JsonPointer;
import dev.idempotent.client.IdempotentListener.OutcomeEvent;
import dev.idempotent.client.internal.CallPolicy;
import dev.idempotent.client.internal.CallPolicy.Step;
import dev.idempotent.client.internal.Classifier;
import dev.idempotent.client.internal.ClientEvents;
import dev.idempotent.client.internal.Decision;
import dev.idempotent.client.internal.Exchange;
import dev.idempotent.client.internal.KeyInBody;
import dev.idempotent.client.internal.OwnedResources;
import dev.idempotent.client.internal.Transport;
import dev.idempotent.client.internal.Watchdog;
import io.github.resilience4j.retry.Retry;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;

/**
 * Sends one operation until it is known to have happened once, for any JSON API that takes an idempotency key:
 * the caller's key on every attempt, in the provider's header and form; answers classified into replay, created,
 * retry or reject (the caller's {@link ResponseRule}s first); full-jitter backoff with {@code Retry-After} honoured,
 * capped and deadline-aware; at most {@code maxAttempts} attempts within a per-call deadline. Each attempt and each
 * outcome is one structured log event on the logger {@code dev.idempotent.client} ({@code idempotent.attempt},
 * {@code idempotent.outcome}) and one {@link IdempotentListener} call.
 *
 * <p>Bounded whatever the server does: an answer's body is kept up to {@link Builder#maxBodyBytes(long)}, and every
 * attempt ends at its budget plus at most 100 ms, enforced by one watchdog thread per client (a blocking
 * {@code send} is interrupted out of its exchange), never by the thread reading the answer. A shared
 * {@link RetryBudget}, if set, bounds the resends of every call together.
 *
 * <p>Thread-safe: build one per provider and share it. {@link #close()} it when done: it ends the calls in flight
 * and releases the HTTP client and the threads it created (never a client the caller passed in); a closed client
 * refuses new calls with {@link IllegalStateException}.
 *
 * <p>Classification, in order (the first match wins; the caller's rules come before all of these):
 * <table>
 *   <caption>Default rules</caption>
 *   <tr><th>answer</th><th>verdict</th><th>why</th></tr>
 *   <tr><td>2xx with {@code Idempotent-Replayed: true}</td><td>replay</td><td>the key was completed earlier</td></tr>
 *   <tr><td>409 whose body holds the resource id</td><td>replay</td><td>an earlier attempt created it</td></tr>
 *   <tr><td>409 without one</td><td>retry, Retry-After honoured</td><td>still in progress elsewhere</td></tr>
 *   <tr><td>any other 2xx</td><td>created</td><td>this attempt did it</td></tr>
 *   <tr><td>408, 429, 500, 502, 503, 504; a timeout; a refused or dropped connection</td><td>retry</td>
 *       <td>transient, and the key makes a resend safe</td></tr>
 *   <tr><td>422, 400, 401, 403, 404, any other 4xx</td><td>reject</td><td>a resend gets the same answer</td></tr>
 *   <tr><td>anything else</td><td>reject</td><td>not known to be transient; do not guess</td></tr>
 * </table>
 */
public final class IdempotentClient implements AutoCloseable {

    /** The name of a client's resilience4j Retry unless {@link Builder#retryName(String)} sets another. */
    public static final String DEFAULT_RETRY_NAME = "idempotent-client";

    /** The key header unless {@link Builder#keyHeader(String)} sets another. */
    public static final String DEFAULT_KEY_HEADER = "Idempotency-Key";

    /** The most of one answer's body a client holds unless {@link Builder#maxBodyBytes(long)} sets another: 4 MiB. */
    public static final long DEFAULT_MAX_BODY_BYTES = 4L * 1024 * 1024;

    /** The largest array a JVM reliably allocates. */
    private static final long MAX_BODY_BYTES_LIMIT = Integer.MAX_VALUE - 8;

    private final KeyForm keyForm;
    /** Where the key goes in the body; null when it goes in the key header. */
    private final KeyInBody keyInBody;
    private final OwnedResources owned;
    private final Transport transport;
    private final Classifier classifier;
    private final CallPolicy policy;
    private final Sleeper sleeper;
    private final Scheduler scheduler;
    private final Watchdog watchdog;
    private final Set<AsyncCall> inFlight = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private IdempotentClient(Builder b) {
        this.keyForm = b.keyForm;
        this.keyInBody = b.keyInBody;
        this.sleeper = b.sleeper;
        this.owned = new OwnedResources(b.httpClient == null, b.connectTimeout, b.retryName);
        this.scheduler = b.scheduler != null ? b.scheduler : owned;
        this.watchdog = new Watchdog(owned.threadPrefix() + "-watchdog");
        HttpClient client = b.httpClient != null ? b.httpClient : owned.client();
        this.transport = new Transport(client, b.keyHeader, b.customizer, (int) b.maxBodyBytes);
        this.classifier = new Classifier(b.rules, b.resourceIdPointer.map(JsonPointer::compile));
        this.policy = new CallPolicy(
                new CallPolicy.Limits(b.retryName, b.maxAttempts, b.baseDelay, b.maxDelay, b.retryAfterCap,
                        b.callTimeout, b.attemptTimeout),
                new ClientEvents(b.listener, b.logEvents), b.clock, b.random,
                b.retryBudget == null ? null : b.retryBudget.bucket());
    }

    /** {@return a builder holding every default} */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The one resilience4j Retry every call of this client runs through. Each call gets a fresh context of it, so
     * its event publisher and {@link Retry.Metrics} count calls and retries (a wait on an in-progress 409 is a
     * retry); bind any resilience4j metrics module to it.
     *
     * @return the client's Retry
     */
    public Retry retry() {
        return policy.retry();
    }

    /**
     * Sends {@code request} until it is created or replayed, retrying what is safe to retry, within the call
     * timeout (plus the watchdog's slack of at most 100 ms). The calling thread is interrupted only by the client's
     * watchdog, inside an attempt or a wait, and the client clears that interrupt before it returns or throws.
     *
     * @param request the operation
     * @return the answer that ended the call; {@link IdempotentResponse#replayed()} says whether it was a replay
     * @throws IllegalArgumentException     before any attempt, when the key form cannot carry the key, or keyInBody
     *     cannot write it into the body
     * @throws RequestRejectedException     when the server refused in a way a resend cannot change
     * @throws RetriesExhaustedException    when attempts or time ran out on retryable failures
     * @throws RequestInterruptedException  when the thread was interrupted (the flag is restored)
     * @throws IllegalStateException        when the client is closed, or was closed during the call
     */
    public IdempotentResponse send(IdempotentRequest request) {
        return send(request, Optional.empty());
    }

    /**
     * Sends {@code request} before {@code deadline} (the earlier of it and the call timeout wins); running out of
     * it is {@link RetriesExhaustedException.Limit#DEADLINE}, and a deadline already past sends nothing.
     *
     * @param request  the operation
     * @param deadline when the call must have ended, on the client's clock
     * @return the answer that ended the call
     * @throws IllegalArgumentException     before any attempt, when the key form cannot carry the key, or keyInBody
     *     cannot write it into the body
     * @throws RequestRejectedException     when the server refused in a way a resend cannot change
     * @throws RetriesExhaustedException    when attempts or time ran out on retryable failures
     * @throws RequestInterruptedException  when the thread was interrupted (the flag is restored)
     * @throws IllegalStateException        when the client is closed, or was closed during the call
     */
    public IdempotentResponse send(IdempotentRequest request, Instant deadline) {
        return send(request, Optional.of(Objects.requireNonNull(deadline, "deadline")));
    }

    private IdempotentResponse send(IdempotentRequest request, Optional<Instant> deadline) {
        Objects.requireNonNull(request, "request");
        String headerKey = keyForm.encode(request.key());
        byte[] body = body(request, headerKey);
        if (keyInBody != null) {
            headerKey = null;
        }
        // Refused here, with IllegalStateException, once the client is closed.
        try (Watchdog.Blocking guard = watchdog.blocking()) {
            CallPolicy.Run run = policy.start(request.key(), deadline);
            while (true) {
                Optional<Duration> timeout = run.begin();
                if (timeout.isEmpty()) {
                    throw run.outOfTime();
                }
                Decision decision;
                try {
                    int attempt = run.attempts();
                    HttpRequest prepared = transport.request(request, body, headerKey, attempt, timeout.get());
                    Exchange answer = guard.attempt(timeout.get(), () -> transport.send(prepared));
                    decision = classifier.classify(answer, attempt);
                } catch (Watchdog.Closed closedDuringCall) {
                    throw closed(run, request, closedDuringCall);
                } catch (IOException failure) {
                    decision = classifier.classify(failure);
                } catch (InterruptedException interrupted) {
                    throw run.interrupted(interrupted);
                } catch (RuntimeException callersCode) {
                    // A customizer or a rule threw: report the call, then rethrow as is.
                    run.failed(callersCode);
                    throw callersCode;
                }
                Step step = run.settle(decision);
                if (step instanceof Step.Finished f) {
                    return f.response();
                }
                if (step instanceof Step.Failed f) {
                    throw f.failure();
                }
                Duration delay = ((Step.Wait) step).delay();
                try {
                    guard.await(() -> {
                        sleeper.sleep(delay);
                        return null;
                    });
                } catch (Watchdog.Closed closedDuringCall) {
                    throw closed(run, request, closedDuringCall);
                } catch (InterruptedException interrupted) {
                    throw run.interrupted(interrupted);
                }
            }
        }
    }

    /** The body every attempt sends: the request's, with the key written in when it goes in the body. */
    private byte[] body(IdempotentRequest request, String key) {
        return keyInBody == null ? request.body() : keyInBody.write(request.body(), key);
    }

    /** Ends a blocking call the client's close() cut short: one {@code cancelled} outcome, ended by the close. */
    private static IllegalStateException closed(CallPolicy.Run run, IdempotentRequest request,
            Watchdog.Closed closedDuringCall) {
        run.cancel(OutcomeEvent.CLOSE);
        return new IllegalStateException("the IdempotentClient was closed during the call for key " + request.key(),
                closedDuringCall.getCause());
    }

    /**
     * Does what {@link #send(IdempotentRequest)} does without holding a thread: the request goes out with
     * {@code HttpClient.sendAsync} and the waits run on the client's {@link Scheduler}. The future completes with the
     * answer, or exceptionally with an {@link IdempotentRequestException} (unwrapped).
     *
     * <p>Whoever else completes the future first ends the call: {@code cancel}, {@code orTimeout},
     * {@code complete}, {@code completeAsync}, {@code completeExceptionally} ({@code completeOnTimeout} counts as
     * {@code complete}). The client then starts no further attempt, cancels the exchange in flight (the server may
     * still commit it; the key makes a later resend safe), and reports exactly one outcome, {@code cancelled}, with
     * {@link OutcomeEvent#endedBy()} saying how. Closing the client completes every future still running
     * exceptionally with {@link IllegalStateException} ({@code endedBy} {@value OutcomeEvent#CLOSE}); a call whose
     * outcome was already reported gets its answer.
     *
     * @param request the operation
     * @return the call's future
     * @throws IllegalArgumentException when the key form cannot carry the key, or keyInBody cannot
     *     write it into the body (nothing is sent)
     * @throws IllegalStateException    when the client is closed
     */
    public CompletableFuture<IdempotentResponse> sendAsync(IdempotentRequest request) {
        return sendAsync(request, Optional.empty());
    }

    /**
     * Does what {@link #send(IdempotentRequest, Instant)} does without holding a thread; running out of the deadline
     * completes the future with {@link RetriesExhaustedException} ({@link RetriesExhaustedException.Limit#DEADLINE}),
     * not a cancellation. Everything else is as for {@link #sendAsync(IdempotentRequest)}.
     *
     * @param request  the operation
     * @param deadline when the call must have ended, on the client's clock
     * @return the call's future
     * @throws IllegalArgumentException when the key form cannot carry the key, or keyInBody cannot
     *     write it into the body (nothing is sent)
     * @throws IllegalStateException    when the client is closed
     */
    public CompletableFuture<IdempotentResponse> sendAsync(IdempotentRequest request, Instant deadline) {
        return sendAsync(request, Optional.of(Objects.requireNonNull(deadline, "deadline")));
    }

    private CompletableFuture<IdempotentResponse> sendAsync(IdempotentRequest request, Optional<Instant> deadline) {
        Objects.requireNonNull(request, "request");
        String headerKey = keyForm.encode(request.key());
        byte[] body = body(request, headerKey);
        ensureOpen();
        AsyncCall call = new AsyncCall(request, body, keyInBody == null ? headerKey : null,
                policy.start(request.key(), deadline));
        inFlight.add(call);
        call.result.whenComplete((response, failure) -> inFlight.remove(call));
        if (closed) {
            // close() ran between ensureOpen() and registering this call and may not have seen it.
            call.closeNow();
        } else {
            call.next();
        }
        return call.result;
    }

    /**
     * Ends every call in flight and releases what the client created: its HTTP client (never the caller's), that
     * client's threads, the timer thread and the watchdog's. A {@code send} still running throws
     * {@link IllegalStateException} (its cause stands for the close) within the watchdog's slack, even on JDK 17,
     * whose {@code HttpClient} cannot be closed: its exchange is given up, and no further attempt starts. A
     * {@code sendAsync} future still running completes exceptionally the same way. A call whose outcome was
     * already reported gets its answer. Idempotent.
     */
    @Override
    public void close() {
        closed = true;
        watchdog.close();
        for (AsyncCall call : inFlight) {
            call.closeNow();
        }
        owned.close();
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("this IdempotentClient is closed");
        }
    }

    /** How a future completed exceptionally from outside ended its call, in {@link OutcomeEvent#endedBy()}'s words. */
    private static String endedBy(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        return cause instanceof TimeoutException
                ? OutcomeEvent.TIMEOUT
                : OutcomeEvent.EXCEPTION_PREFIX + cause.getClass().getName();
    }

    /**
     * The future {@code sendAsync} returns. The client completes it through {@link #finish} and {@link #fail};
     * anyone else who completes it first ends the call, so its one outcome is reported before any thread waiting on
     * the future wakes (as Failsafe's {@code FailsafeFuture} does).
     */
    private static final class CallFuture extends CompletableFuture<IdempotentResponse> {
        private AsyncCall call;

        void finish(IdempotentResponse response) {
            super.complete(response);
        }

        void fail(Throwable failure) {
            super.completeExceptionally(failure);
        }

        @Override
        public boolean complete(IdempotentResponse value) {
            endFromOutside(OutcomeEvent.COMPLETED);
            return super.complete(value);
        }

        @Override
        public boolean completeExceptionally(Throwable failure) {
            // orTimeout and completeOnTimeout complete through these public methods too.
            endFromOutside(endedBy(failure));
            return super.completeExceptionally(failure);
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            endFromOutside(OutcomeEvent.CANCEL);
            return super.cancel(mayInterruptIfRunning);
        }

        @Override
        public CompletableFuture<IdempotentResponse> completeAsync(Supplier<? extends IdempotentResponse> supplier,
                Executor executor) {
            // The JDK completes it later through a method no override sees: the call ends now, as for complete. (The
            // one-argument form calls this one.)
            endFromOutside(OutcomeEvent.COMPLETED);
            return super.completeAsync(supplier, executor);
        }

        @Override
        public void obtrudeValue(IdempotentResponse value) {
            endFromOutside(OutcomeEvent.COMPLETED);
            super.obtrudeValue(value);
        }

        @Override
        public void obtrudeException(Throwable failure) {
            endFromOutside(endedBy(failure));
            super.obtrudeException(failure);
        }

        private void endFromOutside(String endedBy) {
            if (!isDone()) {
                call.stop(endedBy);
            }
        }
    }

    /** One asynchronous call: a chain of attempts and waits, each started when the previous one completes. */
    private final class AsyncCall {
        final CallFuture result = new CallFuture();
        private final IdempotentRequest request;
        private final byte[] body;
        private final String headerKey;
        private final CallPolicy.Run run;
        /** The request or the wait now running, so a cancellation can abandon it. */
        private volatile CompletableFuture<?> current;
        /** Set once the call was ended from outside: nothing the client started may continue it. */
        private volatile boolean stopped;

        AsyncCall(IdempotentRequest request, byte[] body, String headerKey, CallPolicy.Run run) {
            this.request = request;
            this.body = body;
            this.headerKey = headerKey;
            this.run = run;
            result.call = this;
        }

        void next() {
            if (stopped || result.isDone()) {
                return;
            }
            try {
                Optional<Duration> timeout = run.begin();
                if (timeout.isEmpty()) {
                    result.fail(run.outOfTime());
                    return;
                }
                int attempt = run.attempts();
                CompletableFuture<Exchange> sent = transport.sendAsync(request, body, headerKey, attempt,
                        timeout.get());
                // Held before anything is chained on it: cancelling it cancels the exchange itself.
                current = sent;
                if (stopped) {
                    // stop() ran between the check above and this attempt's start and may have missed it.
                    sent.cancel(true);
                    return;
                }
                // The attempt as this call sees it: the transport's answer, or the watchdog's timeout at the budget.
                CompletableFuture<Exchange> answered = new CompletableFuture<>();
                sent.whenComplete((answer, failure) -> {
                    if (failure == null) {
                        answered.complete(answer);
                    } else {
                        answered.completeExceptionally(failure);
                    }
                });
                watchdog.watch(answered, sent, timeout.get());
                answered.thenApply(answer -> classifier.classify(answer, attempt))
                        .exceptionally(this::classifyFailure)
                        .whenComplete((decision, failure) -> {
                            if (failure != null) {
                                fail(failure);
                            } else {
                                settle(decision);
                            }
                        });
            } catch (RuntimeException e) {
                // The caller's customizer threw: that ends the call with its own exception, as in send.
                fail(e);
            }
        }

        private Decision classifyFailure(Throwable failure) {
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            if (cause instanceof IOException io) {
                return classifier.classify(io);
            }
            throw failure instanceof CompletionException c ? c : new CompletionException(cause);
        }

        private void settle(Decision decision) {
            if (stopped || result.isDone()) {
                return;
            }
            Step step = run.settle(decision);
            if (step instanceof Step.Finished f) {
                result.finish(f.response());
            } else if (step instanceof Step.Failed f) {
                result.fail(f.failure());
            } else if (step instanceof Step.Ended) {
                // Whoever ended the call reported its outcome and completes (or completed) the future.
                return;
            } else {
                CompletableFuture<Void> wait = scheduler.delay(((Step.Wait) step).delay());
                current = wait;
                if (stopped) {
                    wait.cancel(true);
                    return;
                }
                wait.whenComplete((ignored, failure) -> {
                    if (failure != null) {
                        fail(failure);
                    } else {
                        next();
                    }
                });
            }
        }

        private void fail(Throwable failure) {
            if (stopped || result.isDone()) {
                return;
            }
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            // Not a transport failure (those are decisions): report the call once, unless it already ended.
            run.failed(cause);
            result.fail(cause);
        }

        /**
         * The client is closing: end the call as closed and fail its future with {@link IllegalStateException}, as a
         * blocking call ends, unless the call had already ended (its answer or failure is on its way to the future,
         * and the caller gets that).
         */
        void closeNow() {
            if (stop(OutcomeEvent.CLOSE)) {
                result.fail(new IllegalStateException("the IdempotentClient was closed during the call for key "
                        + request.key(), watchdog.closedBy()));
            }
        }

        /**
         * The call was ended from outside: report it as {@code endedBy}, unless it had already ended, and drop the
         * request or the wait that is running.
         */
        boolean stop(String endedBy) {
            stopped = true;
            boolean reported = run.cancel(endedBy);
            CompletableFuture<?> running = current;
            if (running != null) {
                running.cancel(true);
            }
            return reported;
        }
    }

    /**
     * Builds an {@link IdempotentClient}. Every setting has a default safe for a service; not thread-safe, and
     * {@link #build()} copies, so a builder may be reused.
     *
     * <table>
     *   <caption>Defaults</caption>
     *   <tr><th>setting</th><th>default</th></tr>
     *   <tr><td>httpClient</td><td>the client's own: HTTP/1.1, no redirects, closed with it</td></tr>
     *   <tr><td>keyHeader / keyForm</td><td>{@code Idempotency-Key} / {@link KeyForm#TOKEN}</td></tr>
     *   <tr><td>resourceIdPointer</td><td>none: any 2xx is created, {@code resourceId()} is empty</td></tr>
     *   <tr><td>maxAttempts</td><td>5 (4 retries)</td></tr>
     *   <tr><td>attemptTimeout / callTimeout</td><td>5 s / 30 s</td></tr>
     *   <tr><td>baseDelay / maxDelay / retryAfterCap</td><td>100 ms / 2 s / 10 s</td></tr>
     *   <tr><td>maxBodyBytes</td><td>4 MiB ({@value #DEFAULT_MAX_BODY_BYTES})</td></tr>
     *   <tr><td>retryBudget</td><td>none: only maxAttempts and the deadline bound a call's retries</td></tr>
     *   <tr><td>retryName</td><td>{@value #DEFAULT_RETRY_NAME}</td></tr>
     * </table>
     */
    public static final class Builder {
        private HttpClient httpClient;
        private String keyHeader = DEFAULT_KEY_HEADER;
        private KeyForm keyForm = KeyForm.TOKEN;
        private Optional<String> resourceIdPointer = Optional.empty();
        private int maxAttempts = 5;
        private Duration attemptTimeout = Duration.ofSeconds(5);
        private Duration callTimeout = Duration.ofSeconds(30);
        private Duration baseDelay = Duration.ofMillis(100);
        private Duration maxDelay = Duration.ofSeconds(2);
        private Duration retryAfterCap = Duration.ofSeconds(10);
        private Duration connectTimeout = Duration.ofSeconds(2);
        private IdempotentListener listener = IdempotentListener.NONE;
        /** None by default: no builder is wrapped for a customizer that would add nothing. */
        private AttemptCustomizer customizer;
        private final List<ResponseRule> rules = new ArrayList<>();
        private String retryName = DEFAULT_RETRY_NAME;
        private Sleeper sleeper = Sleeper.SYSTEM;
        private Scheduler scheduler;
        private Clock clock = Clock.systemUTC();
        private DoubleSupplier random = () -> ThreadLocalRandom.current().nextDouble();
        private boolean logEvents = true;
        private long maxBodyBytes = DEFAULT_MAX_BODY_BYTES;
        private RetryBudget retryBudget;
        private KeyInBody keyInBody;

        private Builder() {
        }

        /**
         * The most of one answer's body the client holds, whatever the server sends. Past it the rest is not read
         * (the connection is closed, never reused) and the answer keeps the first {@code maxBodyBytes} bytes with
         * {@link IdempotentResponse#bodyTruncated()} true; its status and headers decide the call as usual (a 2xx
         * over the limit still happened), but a truncated body names no resource, so a truncated 409 is retried as
         * in progress.
         *
         * @param maxBodyBytes from 1 to {@code Integer.MAX_VALUE - 8}; checked by {@link #build()}
         * @return this builder
         */
        public Builder maxBodyBytes(long maxBodyBytes) {
            this.maxBodyBytes = maxBodyBytes;
            return this;
        }

        /**
         * A budget every resend of this client pays for, shared with the other clients given the same one; when it
         * cannot pay, the call ends with {@link RetriesExhaustedException}
         * ({@link RetriesExhaustedException.Limit#BUDGET}).
         * None by default.
         *
         * @param retryBudget the shared budget
         * @return this builder
         */
        public Builder retryBudget(RetryBudget retryBudget) {
            this.retryBudget = Objects.requireNonNull(retryBudget, "retryBudget");
            return this;
        }

        /**
         * Sends with the caller's client (its proxy, TLS, executor, pool); the client never closes it. It must not
         * follow redirects: {@link #build()} refuses one whose {@code followRedirects()} is not {@code NEVER}, since a
         * redirected POST is not the request the key was made for.
         *
         * @param httpClient the client every attempt is sent with
         * @return this builder
         */
        public Builder httpClient(HttpClient httpClient) {
            this.httpClient = Objects.requireNonNull(httpClient, "httpClient");
            return this;
        }

        /**
         * The header the key goes in: {@code Idempotency-Key} by default, {@code PayPal-Request-Id} for PayPal.
         *
         * @param keyHeader a header name
         * @return this builder
         */
        public Builder keyHeader(String keyHeader) {
            Objects.requireNonNull(keyHeader, "keyHeader");
            if (keyHeader.isEmpty() || !keyHeader.chars().allMatch(c -> c > 0x20 && c < 0x7F && c != ':')) {
                throw new IllegalArgumentException("keyHeader must be a header name (visible ASCII, no colon)");
            }
            this.keyHeader = keyHeader;
            return this;
        }

        /**
         * Sends the key in the JSON body instead of a header, for a provider that reads it there (Square's
         * {@code /idempotency_key}). On every attempt the client writes the call's key at {@code jsonPointer} as a
         * JSON string, adding the member (and any object on its path) when absent: the member is spliced into the
         * body's text and every other byte is kept. No key header is sent. The key must pass
         * {@link KeyForm#TOKEN}'s rules; {@link #build()} refuses {@link KeyForm#STRUCTURED} with it.
         *
         * <p>Before any attempt, the call fails with {@link IllegalArgumentException} naming the pointer (never a
         * value) when the body is not a JSON object, the pointer goes through an array or another non-object, or
         * the body already holds another value there. A body that already holds the call's key there is sent as is.
         *
         * @param jsonPointer an RFC 6901 JSON pointer into the body, such as {@code /idempotency_key}
         * @return this builder
         * @throws IllegalArgumentException when it is not a JSON pointer, or points at the whole body
         */
        public Builder keyInBody(String jsonPointer) {
            this.keyInBody = new KeyInBody(Objects.requireNonNull(jsonPointer, "jsonPointer"));
            return this;
        }

        /**
         * How the key is written into its header.
         *
         * @param keyForm {@link KeyForm#TOKEN} (default) or {@link KeyForm#STRUCTURED}
         * @return this builder
         */
        public Builder keyForm(KeyForm keyForm) {
            this.keyForm = Objects.requireNonNull(keyForm, "keyForm");
            return this;
        }

        /**
         * Where the created resource's id sits in a JSON answer, such as {@code /id} or {@code /data/id}. With it, a
         * 409 whose body holds an id there is a replay, and {@link IdempotentResponse#resourceId()} reads it.
         *
         * @param resourceIdPointer an RFC 6901 JSON pointer
         * @return this builder
         * @throws IllegalArgumentException when it is not a JSON pointer
         */
        public Builder resourceIdPointer(String resourceIdPointer) {
            Objects.requireNonNull(resourceIdPointer, "resourceIdPointer");
            JsonPointer compiled = JsonPointer.compile(resourceIdPointer);
            if (compiled.matches()) {
                throw new IllegalArgumentException("resourceIdPointer must point into the document, such as /id");
            }
            this.resourceIdPointer = Optional.of(resourceIdPointer);
            return this;
        }

        /**
         * Attempts per call, the first included (5 attempts = 4 retries). A wait on an in-progress 409 uses one up.
         *
         * @param maxAttempts at least 1
         * @return this builder
         */
        public Builder maxAttempts(int maxAttempts) {
            if (maxAttempts < 1) {
                throw new IllegalArgumentException("maxAttempts must be at least 1");
            }
            this.maxAttempts = maxAttempts;
            return this;
        }

        /**
         * One attempt's budget, from sending to the last body byte (cut to the time the call has left).
         *
         * @param attemptTimeout positive
         * @return this builder
         */
        public Builder attemptTimeout(Duration attemptTimeout) {
            this.attemptTimeout = positive(attemptTimeout, "attemptTimeout");
            return this;
        }

        /**
         * One call's budget: all its attempts and waits. A per-call deadline can only shorten it.
         *
         * @param callTimeout positive
         * @return this builder
         */
        public Builder callTimeout(Duration callTimeout) {
            this.callTimeout = positive(callTimeout, "callTimeout");
            return this;
        }

        /**
         * The ceiling of the first jittered wait; each later ceiling doubles, up to {@link #maxDelay(Duration)}.
         *
         * @param baseDelay positive
         * @return this builder
         */
        public Builder baseDelay(Duration baseDelay) {
            this.baseDelay = positive(baseDelay, "baseDelay");
            return this;
        }

        /**
         * The highest ceiling a computed wait can reach.
         *
         * @param maxDelay positive
         * @return this builder
         */
        public Builder maxDelay(Duration maxDelay) {
            this.maxDelay = positive(maxDelay, "maxDelay");
            return this;
        }

        /**
         * The longest {@code Retry-After} (or rule-requested wait) honoured; a longer one is cut to this.
         *
         * @param retryAfterCap positive
         * @return this builder
         */
        public Builder retryAfterCap(Duration retryAfterCap) {
            this.retryAfterCap = positive(retryAfterCap, "retryAfterCap");
            return this;
        }

        /**
         * The connect timeout of the client's own HTTP client; unused with {@link #httpClient(HttpClient)}.
         *
         * @param connectTimeout positive
         * @return this builder
         */
        public Builder connectTimeout(Duration connectTimeout) {
            this.connectTimeout = positive(connectTimeout, "connectTimeout");
            return this;
        }

        /**
         * The hook told about every attempt and outcome.
         *
         * @param listener a thread-safe listener
         * @return this builder
         */
        public Builder listener(IdempotentListener listener) {
            this.listener = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /**
         * Called on every attempt's request builder with the key and the attempt number, before the request's and
         * the client's own headers, which win. One that throws ends the call with its exception.
         *
         * @param customizer a thread-safe customizer
         * @return this builder
         */
        public Builder requestCustomizer(AttemptCustomizer customizer) {
            this.customizer = Objects.requireNonNull(customizer, "customizer");
            return this;
        }

        /**
         * Adds a rule asked before the defaults, after the rules added earlier; for a provider that marks replays or
         * in-progress answers its own way.
         *
         * @param rule a thread-safe rule
         * @return this builder
         */
        public Builder rule(ResponseRule rule) {
            rules.add(Objects.requireNonNull(rule, "rule"));
            return this;
        }

        /**
         * The name of the client's resilience4j Retry, which metrics modules use as a tag, and how the names of the
         * threads the client creates start.
         *
         * @param retryName not blank
         * @return this builder
         */
        public Builder retryName(String retryName) {
            Objects.requireNonNull(retryName, "retryName");
            if (retryName.isBlank()) {
                throw new IllegalArgumentException("retryName must not be blank");
            }
            this.retryName = retryName;
            return this;
        }

        /**
         * How {@code send} waits between attempts; tests inject one that moves a fake clock.
         *
         * @param sleeper the sleeper
         * @return this builder
         */
        public Builder sleeper(Sleeper sleeper) {
            this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
            return this;
        }

        /**
         * How {@code sendAsync} waits between attempts; by default one daemon thread of the client's own.
         *
         * @param scheduler the scheduler
         * @return this builder
         */
        public Builder scheduler(Scheduler scheduler) {
            this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
            return this;
        }

        /**
         * The clock deadlines, elapsed times and HTTP-date {@code Retry-After} are measured on.
         *
         * @param clock the clock
         * @return this builder
         */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * The draw behind full jitter, from {@code [0, 1)}; a test fixes it to see exact waits.
         *
         * @param random draws from {@code [0, 1)}
         * @return this builder
         */
        public Builder jitter(DoubleSupplier random) {
            this.random = Objects.requireNonNull(random, "random");
            return this;
        }

        /**
         * Whether to write the {@code idempotent.attempt} and {@code idempotent.outcome} log events (on by default).
         * An adapter that logs its own events for the same calls turns them off; the listener is told either way.
         *
         * @param logEvents false to write none
         * @return this builder
         */
        public Builder logEvents(boolean logEvents) {
            this.logEvents = logEvents;
            return this;
        }

        /**
         * A client holding the current values.
         *
         * @return the client
         * @throws IllegalArgumentException if baseDelay exceeds maxDelay, maxBodyBytes is out of its range, the
         *     HTTP client follows redirects, or keyInBody is set with {@link KeyForm#STRUCTURED}
         */
        public IdempotentClient build() {
            if (maxBodyBytes < 1 || maxBodyBytes > MAX_BODY_BYTES_LIMIT) {
                throw new IllegalArgumentException("maxBodyBytes must be from 1 to " + MAX_BODY_BYTES_LIMIT);
            }
            if (baseDelay.compareTo(maxDelay) > 0) {
                throw new IllegalArgumentException("baseDelay must not exceed maxDelay");
            }
            if (keyInBody != null && keyForm == KeyForm.STRUCTURED) {
                throw new IllegalArgumentException("keyInBody writes the key as a JSON string: use KeyForm.TOKEN, not"
                        + " STRUCTURED");
            }
            if (httpClient != null && httpClient.followRedirects() != HttpClient.Redirect.NEVER) {
                throw new IllegalArgumentException("httpClient must not follow redirects (use HttpClient.Redirect.NEVER)");
            }
            return new IdempotentClient(this);
        }

        private static Duration positive(Duration d, String name) {
            Objects.requireNonNull(d, name);
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(name + " must be positive");
            }
            return d;
        }
    }
}
