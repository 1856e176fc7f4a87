package dev.idempotent.seatgrant.worker;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Everything a {@link SeatGrantWorker} needs to know about the seat API, its transport, its retry budget and who
 * listens, as an immutable value. Start from {@link #builder(URI)}; every setting but the base URI has a default
 * that is safe for a queue consumer.
 *
 * <table>
 *   <caption>Defaults</caption>
 *   <tr><th>setting</th><th>default</th><th>what it bounds or does</th></tr>
 *   <tr><td>maxAttempts</td><td>5</td><td>POSTs per event (5 attempts = 4 retries)</td></tr>
 *   <tr><td>baseDelay</td><td>100 ms</td><td>ceiling of the first jittered backoff</td></tr>
 *   <tr><td>maxDelay</td><td>2 s</td><td>ceiling of any computed backoff</td></tr>
 *   <tr><td>retryAfterCap</td><td>10 s</td><td>longest server-requested wait honoured</td></tr>
 *   <tr><td>callTimeout</td><td>30 s</td><td>one call: all attempts and waits of one event</td></tr>
 *   <tr><td>requestTimeout</td><td>5 s</td><td>one attempt, from send to the full response</td></tr>
 *   <tr><td>connectTimeout</td><td>2 s</td><td>TCP connect (the worker's own client only)</td></tr>
 *   <tr><td>httpClient</td><td>the worker's own</td><td>HTTP/1.1, no redirects, closed with the worker</td></tr>
 *   <tr><td>requestCustomizer</td><td>none</td><td>adds headers (say, {@code Authorization} or a
 *       {@code traceparent}) to every attempt, knowing the grant and the attempt if it wants to</td></tr>
 *   <tr><td>listener</td><td>{@link GrantListener#NONE}</td><td>told about every attempt and outcome</td></tr>
 * </table>
 *
 * <p>{@link #toString()} leaves out the base URI: a URL never reaches a log line.
 */
public final class SeatGrantConfig {

    private static final Consumer<HttpRequest.Builder> NO_CUSTOMIZER = request -> { };
    private static final RequestCustomizer NO_ATTEMPT_CUSTOMIZER = (request, context) -> { };

    private final URI baseUri;
    private final int maxAttempts;
    private final Duration baseDelay;
    private final Duration maxDelay;
    private final Duration retryAfterCap;
    private final Duration callTimeout;
    private final Duration requestTimeout;
    private final Duration connectTimeout;
    private final HttpClient httpClient;
    private final RequestCustomizer customizer;
    /** The customizer in the form it was set, when that was a {@code Consumer}; null for a RequestCustomizer. */
    private final Consumer<HttpRequest.Builder> consumerCustomizer;
    private final GrantListener listener;

    private SeatGrantConfig(Builder b) {
        this.baseUri = b.baseUri;
        this.maxAttempts = b.maxAttempts;
        this.baseDelay = b.baseDelay;
        this.maxDelay = b.maxDelay;
        this.retryAfterCap = b.retryAfterCap;
        this.callTimeout = b.callTimeout;
        this.requestTimeout = b.requestTimeout;
        this.connectTimeout = b.connectTimeout;
        this.httpClient = b.httpClient;
        this.customizer = b.customizer;
        this.consumerCustomizer = b.consumerCustomizer;
        this.listener = b.listener;
        if (!"http".equalsIgnoreCase(baseUri.getScheme()) && !"https".equalsIgnoreCase(baseUri.getScheme())) {
            throw new IllegalArgumentException("baseUri must be an absolute http or https URI");
        }
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1");
        }
        if (baseDelay.compareTo(maxDelay) > 0) {
            throw new IllegalArgumentException("baseDelay must not exceed maxDelay");
        }
        if (httpClient != null && httpClient.followRedirects() != HttpClient.Redirect.NEVER) {
            // A redirected POST is a request to somewhere the key was not made for, sent outside the classifier.
            throw new IllegalArgumentException("httpClient must not follow redirects (use HttpClient.Redirect.NEVER)");
        }
    }

    /**
     * A builder with every default set and the given API root.
     *
     * @param baseUri the API root, for example {@code http://127.0.0.1:8080}
     * @return a builder holding the defaults
     */
    public static Builder builder(URI baseUri) {
        return new Builder(baseUri);
    }

    /**
     * The defaults with the given API root.
     *
     * @param baseUri the API root
     * @return the default configuration for that root
     */
    public static SeatGrantConfig defaults(URI baseUri) {
        return builder(baseUri).build();
    }

    /**
     * A builder holding this configuration's values, to derive a variant.
     *
     * @return a new builder; changing it leaves this configuration as it is
     */
    public Builder toBuilder() {
        Builder b = new Builder(baseUri)
                .maxAttempts(maxAttempts)
                .baseDelay(baseDelay)
                .maxDelay(maxDelay)
                .retryAfterCap(retryAfterCap)
                .callTimeout(callTimeout)
                .requestTimeout(requestTimeout)
                .connectTimeout(connectTimeout)
                .listener(listener);
        b.httpClient = httpClient;
        b.customizer = customizer;
        b.consumerCustomizer = consumerCustomizer;
        return b;
    }

    /** {@return the API root; {@code v1/seats} is resolved under it} */
    public URI baseUri() {
        return baseUri;
    }

    /** {@return the most POSTs sent for one event, the first included} */
    public int maxAttempts() {
        return maxAttempts;
    }

    /** {@return the ceiling of the first computed backoff; each later ceiling doubles} */
    public Duration baseDelay() {
        return baseDelay;
    }

    /** {@return the highest ceiling a computed backoff can reach} */
    public Duration maxDelay() {
        return maxDelay;
    }

    /** {@return the longest {@code Retry-After} the worker honours; a longer one is cut to this} */
    public Duration retryAfterCap() {
        return retryAfterCap;
    }

    /**
     * The budget for one call of {@code handle} or {@code handleAsync}: all attempts and waits for one event.
     * A per-call deadline ({@link SeatGrantWorker#handle(SeatRequested, java.time.Instant)}) can only shorten it.
     *
     * @return the per-call budget
     */
    public Duration callTimeout() {
        return callTimeout;
    }

    /** {@return the budget for one attempt, from sending to reading the whole response (cut to the time left)} */
    public Duration requestTimeout() {
        return requestTimeout;
    }

    /** {@return the TCP connect budget of the worker's own client; unused when {@link #httpClient()} is set} */
    public Duration connectTimeout() {
        return connectTimeout;
    }

    /** {@return the caller's HTTP client, or empty when the worker builds (and later closes) its own} */
    public Optional<HttpClient> httpClient() {
        return Optional.ofNullable(httpClient);
    }

    /**
     * What is called on every attempt's request builder, with the grant's requestId and the attempt number, before
     * the worker sets its own headers; a customizer set in its {@code Consumer} form is adapted and ignores the
     * context.
     *
     * @return the customizer every attempt runs (a no-op by default)
     */
    public RequestCustomizer customizer() {
        return customizer;
    }

    /**
     * The customizer as set with {@link Builder#requestCustomizer(Consumer)}.
     *
     * @return that consumer, or a no-op when no customizer was set
     * @throws IllegalStateException when the customizer was set as a {@link RequestCustomizer}, which no
     *     {@code Consumer} can stand for
     * @deprecated a customizer may now need the {@link AttemptContext}; read it with {@link #customizer()}
     */
    @Deprecated(since = "0.1.0")
    public Consumer<HttpRequest.Builder> requestCustomizer() {
        if (consumerCustomizer == null) {
            throw new IllegalStateException("this configuration's customizer takes an AttemptContext; use customizer()");
        }
        return consumerCustomizer;
    }

    /** {@return the listener told about every attempt and outcome ({@link GrantListener#NONE} by default)} */
    public GrantListener listener() {
        return listener;
    }

    /**
     * Equal when every setting is equal; the client, the customizer and the listener compare by identity.
     *
     * @param o the other object
     * @return whether {@code o} is a configuration with the same settings
     */
    @Override
    public boolean equals(Object o) {
        return o instanceof SeatGrantConfig c
                && baseUri.equals(c.baseUri)
                && maxAttempts == c.maxAttempts
                && baseDelay.equals(c.baseDelay)
                && maxDelay.equals(c.maxDelay)
                && retryAfterCap.equals(c.retryAfterCap)
                && callTimeout.equals(c.callTimeout)
                && requestTimeout.equals(c.requestTimeout)
                && connectTimeout.equals(c.connectTimeout)
                && httpClient == c.httpClient
                && customizerAsSet() == c.customizerAsSet()
                && listener == c.listener;
    }

    @Override
    public int hashCode() {
        return Objects.hash(baseUri, maxAttempts, baseDelay, maxDelay, retryAfterCap, callTimeout, requestTimeout,
                connectTimeout, System.identityHashCode(httpClient), System.identityHashCode(customizerAsSet()),
                System.identityHashCode(listener));
    }

    /** The customizer object the caller set (its {@code Consumer} rather than the adapter), for identity. */
    private Object customizerAsSet() {
        return consumerCustomizer != null ? consumerCustomizer : customizer;
    }

    /** {@return every bounded setting, and whose client is used; never the base URI} */
    @Override
    public String toString() {
        return "SeatGrantConfig[maxAttempts=" + maxAttempts + ", baseDelay=" + baseDelay + ", maxDelay=" + maxDelay
                + ", retryAfterCap=" + retryAfterCap + ", callTimeout=" + callTimeout + ", requestTimeout="
                + requestTimeout + ", connectTimeout=" + connectTimeout + ", httpClient="
                + (httpClient == null ? "own" : "caller's") + "]";
    }

    /**
     * Collects settings for a {@link SeatGrantConfig}. Not thread-safe. {@link #build()} copies, so a built
     * configuration never changes when the builder is reused.
     */
    public static final class Builder {
        private URI baseUri;
        private int maxAttempts = 5;
        private Duration baseDelay = Duration.ofMillis(100);
        private Duration maxDelay = Duration.ofSeconds(2);
        private Duration retryAfterCap = Duration.ofSeconds(10);
        private Duration callTimeout = Duration.ofSeconds(30);
        private Duration requestTimeout = Duration.ofSeconds(5);
        private Duration connectTimeout = Duration.ofSeconds(2);
        private HttpClient httpClient;
        private RequestCustomizer customizer = NO_ATTEMPT_CUSTOMIZER;
        private Consumer<HttpRequest.Builder> consumerCustomizer = NO_CUSTOMIZER;
        private GrantListener listener = GrantListener.NONE;

        private Builder(URI baseUri) {
            baseUri(baseUri);
        }

        /**
         * The API root.
         *
         * @param baseUri an absolute http or https URI; a path is kept, {@code v1/seats} goes under it
         * @return this builder
         */
        public Builder baseUri(URI baseUri) {
            this.baseUri = Objects.requireNonNull(baseUri, "baseUri");
            return this;
        }

        /**
         * The most POSTs per event.
         *
         * @param maxAttempts at least 1 (checked by {@link #build()})
         * @return this builder
         */
        public Builder maxAttempts(int maxAttempts) {
            this.maxAttempts = maxAttempts;
            return this;
        }

        /**
         * The first backoff ceiling.
         *
         * @param baseDelay positive, not above maxDelay
         * @return this builder
         */
        public Builder baseDelay(Duration baseDelay) {
            this.baseDelay = positive(baseDelay, "baseDelay");
            return this;
        }

        /**
         * The highest backoff ceiling.
         *
         * @param maxDelay positive, not below baseDelay
         * @return this builder
         */
        public Builder maxDelay(Duration maxDelay) {
            this.maxDelay = positive(maxDelay, "maxDelay");
            return this;
        }

        /**
         * The longest Retry-After honoured.
         *
         * @param retryAfterCap positive
         * @return this builder
         */
        public Builder retryAfterCap(Duration retryAfterCap) {
            this.retryAfterCap = positive(retryAfterCap, "retryAfterCap");
            return this;
        }

        /**
         * The budget for one call, all attempts and waits of one event. Running out of it ends the call with
         * {@link GrantExhaustedException.Limit#DEADLINE}. Keep a queue's visibility timeout above it.
         *
         * @param callTimeout positive
         * @return this builder
         */
        public Builder callTimeout(Duration callTimeout) {
            this.callTimeout = positive(callTimeout, "callTimeout");
            return this;
        }

        /**
         * The budget for one attempt.
         *
         * @param requestTimeout positive
         * @return this builder
         */
        public Builder requestTimeout(Duration requestTimeout) {
            this.requestTimeout = positive(requestTimeout, "requestTimeout");
            return this;
        }

        /**
         * The TCP connect budget of the client the worker builds for itself. With {@link #httpClient(HttpClient)}
         * set, the caller's client's own connect timeout applies instead and this one is unused.
         *
         * @param connectTimeout positive
         * @return this builder
         */
        public Builder connectTimeout(Duration connectTimeout) {
            this.connectTimeout = positive(connectTimeout, "connectTimeout");
            return this;
        }

        /**
         * Sends with the caller's client, for its proxy, SSLContext, executor or connection pool. The worker never
         * closes a client it was given. The client must not follow redirects ({@link #build()} refuses one whose
         * {@code followRedirects()} is not {@code NEVER}: a redirected POST is not the request the key was made
         * for). Its connect timeout replaces {@link #connectTimeout(Duration)}. Prefer HTTP/1.1 for a plain-http
         * seat API; leave {@code jdk.httpclient.enableAllMethodRetry} unset (see the module README).
         *
         * @param httpClient the client every attempt is sent with
         * @return this builder
         */
        public Builder httpClient(HttpClient httpClient) {
            this.httpClient = Objects.requireNonNull(httpClient, "httpClient");
            return this;
        }

        /**
         * Called with every attempt's request builder, on every attempt (so a rotating token is read afresh), to
         * add headers such as {@code Authorization}, {@code User-Agent} or a trace header. It runs before the
         * worker sets its own values, and those win: whatever the customizer does, the request is a POST to the
         * seats URI with the worker's body, timeout, {@code Content-Type} and {@code Idempotency-Key}. A customizer
         * that throws ends the call with its exception (the outcome {@code failed}). It must be thread-safe.
         * Replaces a customizer set earlier in either form; to see which grant and attempt a request is for, use
         * {@link #requestCustomizer(RequestCustomizer)}.
         *
         * @param requestCustomizer adds headers to a request builder
         * @return this builder
         */
        public Builder requestCustomizer(Consumer<HttpRequest.Builder> requestCustomizer) {
            Objects.requireNonNull(requestCustomizer, "requestCustomizer");
            this.consumerCustomizer = requestCustomizer;
            this.customizer = (request, context) -> requestCustomizer.accept(request);
            return this;
        }

        /**
         * Called with every attempt's request builder and an {@link AttemptContext} naming the grant's requestId
         * and the attempt number, so headers can depend on the event: a {@code traceparent} per event and
         * attempt, say. Everything else is as for {@link #requestCustomizer(Consumer)}: it runs before the worker
         * sets its own values, and those win; one that throws ends the call with its exception. It must be
         * thread-safe. Replaces a customizer set earlier in either form.
         *
         * @param requestCustomizer adds headers to a request builder, knowing which attempt it is for
         * @return this builder
         */
        public Builder requestCustomizer(RequestCustomizer requestCustomizer) {
            this.customizer = Objects.requireNonNull(requestCustomizer, "requestCustomizer");
            this.consumerCustomizer = null;
            return this;
        }

        /**
         * The hook told about every attempt and outcome, for metrics or tracing. A listener that throws never
         * changes an outcome.
         *
         * @param listener a thread-safe listener
         * @return this builder
         */
        public Builder listener(GrantListener listener) {
            this.listener = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /**
         * A configuration holding the current values.
         *
         * @return the configuration
         * @throws IllegalArgumentException if the URI is not absolute http(s), maxAttempts is below 1, baseDelay
         *     exceeds maxDelay, or the HTTP client follows redirects
         */
        public SeatGrantConfig build() {
            return new SeatGrantConfig(this);
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
