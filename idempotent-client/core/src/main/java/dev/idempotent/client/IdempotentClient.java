package dev.idempotent.client;

import com.fasterxml.jackson.core.JsonPointer;
import dev.idempotent.client.IdempotentListener.OutcomeEvent;
import dev.idempotent.client.internal.CallPolicy;
import dev.idempotent.client.internal.CallRunner;
import dev.idempotent.client.internal.Classifier;
import dev.idempotent.client.internal.ClientEvents;
import dev.idempotent.client.internal.JdkTransport;
import dev.idempotent.client.internal.KeyInBody;
import dev.idempotent.client.internal.OwnedResources;
import dev.idempotent.client.internal.Watchdog;
import io.github.resilience4j.retry.Retry;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;

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

    private final OwnedResources owned;
    private final CallPolicy policy;
    /** The call's state machine: attempts, waits, the watchdog, the calls in flight. */
    private final CallRunner runner;

    private IdempotentClient(Builder b) {
        boolean ownClient = b.httpClient == null && b.transport == null;
        this.owned = new OwnedResources(ownClient, b.connectTimeout, b.retryName);
        Transport transport = b.transport != null ? b.transport
                : new JdkTransport(b.httpClient != null ? b.httpClient : owned.client(), b.customizer);
        this.policy = new CallPolicy(
                new CallPolicy.Limits(b.retryName, b.maxAttempts, b.baseDelay, b.maxDelay, b.retryAfterCap,
                        b.callTimeout, b.attemptTimeout),
                new ClientEvents(b.listener, b.logEvents), b.clock, b.random,
                b.retryBudget == null ? null : b.retryBudget.bucket());
        this.runner = new CallRunner(transport, b.keyHeader, b.keyForm, b.keyInBody, (int) b.maxBodyBytes,
                new Classifier(b.rules, b.resourceIdPointer.map(JsonPointer::compile)), policy, b.sleeper,
                b.scheduler != null ? b.scheduler : owned, new Watchdog(owned.threadPrefix() + "-watchdog"));
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
        return runner.send(request, Optional.empty());
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
        return runner.send(request, Optional.of(Objects.requireNonNull(deadline, "deadline")));
    }

    /**
     * Does what {@link #send(IdempotentRequest)} does without holding a thread: each attempt goes out through the
     * {@link Transport} ({@code HttpClient.sendAsync} on the JDK's) and the waits run on the client's
     * {@link Scheduler}. The future completes with the
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
        return runner.sendAsync(request, Optional.empty());
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
        return runner.sendAsync(request, Optional.of(Objects.requireNonNull(deadline, "deadline")));
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
        runner.close();
        owned.close();
    }

    /**
     * Builds an {@link IdempotentClient}. Every setting has a default safe for a service; not thread-safe, and
     * {@link #build()} copies, so a builder may be reused.
     *
     * <table>
     *   <caption>Defaults</caption>
     *   <tr><th>setting</th><th>default</th></tr>
     *   <tr><td>httpClient / transport</td><td>the client's own JDK client: HTTP/1.1, no redirects, closed with
     *       it</td></tr>
     *   <tr><td>keyHeader / keyForm</td><td>{@code Idempotency-Key} / {@link KeyForm#TOKEN}</td></tr>
     *   <tr><td>keyInBody</td><td>none: the key goes in the key header</td></tr>
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
        private boolean connectTimeoutSet;
        private Transport transport;
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
         * Sends every attempt through {@code transport} instead of the JDK's {@code HttpClient}: OkHttp with
         * {@code dev.idempotent.client.okhttp.OkHttpTransport}, Spring's {@code RestClient} with
         * {@code dev.idempotent.client.spring.RestClientTransport}, so the service's own stack, pool and
         * interceptors carry the calls. Everything else (the key, classification, backoff, the body limit, the
         * deadlines, {@code close()}) stays the client's and holds on any transport. The client never closes it.
         *
         * <p>{@link #build()} refuses it together with {@link #httpClient(HttpClient)}, and refuses
         * {@link #requestCustomizer(AttemptCustomizer)} (the stack's own interceptors add headers) and
         * {@link #connectTimeout(Duration)} (the stack's client sets its own).
         *
         * @param transport sends one attempt
         * @return this builder
         */
        public Builder transport(Transport transport) {
            this.transport = Objects.requireNonNull(transport, "transport");
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
            this.connectTimeoutSet = true;
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
         *     HTTP client follows redirects, keyInBody is set with {@link KeyForm#STRUCTURED}, both httpClient and
         *     transport are set, or a transport is set with requestCustomizer or connectTimeout
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
            if (transport != null && httpClient != null) {
                throw new IllegalArgumentException("set either httpClient or transport, not both");
            }
            if (transport != null && customizer != null) {
                throw new IllegalArgumentException("requestCustomizer works on the JDK's HttpClient only: with another"
                        + " transport, add headers with that stack's own interceptors");
            }
            if (transport != null && connectTimeoutSet) {
                throw new IllegalArgumentException("connectTimeout sets the JDK's HttpClient only: with another"
                        + " transport, set it on that stack's client");
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
