package dev.idempotent.seatgrant.worker;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * Everything a {@link SeatGrantWorker} needs to know about the seat API and its retry budget, as an
 * immutable value. Start from {@link #builder(URI)}; every setting but the base URI has a default that
 * is safe for a queue consumer.
 *
 * <table>
 *   <caption>Defaults</caption>
 *   <tr><th>setting</th><th>default</th><th>what it bounds</th></tr>
 *   <tr><td>maxAttempts</td><td>5</td><td>POSTs per event (5 attempts = 4 retries)</td></tr>
 *   <tr><td>baseDelay</td><td>100 ms</td><td>ceiling of the first jittered backoff</td></tr>
 *   <tr><td>maxDelay</td><td>2 s</td><td>ceiling of any computed backoff</td></tr>
 *   <tr><td>retryAfterCap</td><td>10 s</td><td>longest server-requested wait honoured</td></tr>
 *   <tr><td>deadline</td><td>30 s</td><td>whole event, all attempts and waits</td></tr>
 *   <tr><td>requestTimeout</td><td>5 s</td><td>one attempt, from send to the full response</td></tr>
 *   <tr><td>connectTimeout</td><td>2 s</td><td>TCP connect</td></tr>
 * </table>
 *
 * <p>{@link #toString()} leaves out the base URI: a URL never reaches a log line.
 */
public final class SeatGrantConfig {

    private final URI baseUri;
    private final int maxAttempts;
    private final Duration baseDelay;
    private final Duration maxDelay;
    private final Duration retryAfterCap;
    private final Duration deadline;
    private final Duration requestTimeout;
    private final Duration connectTimeout;

    private SeatGrantConfig(Builder b) {
        this.baseUri = b.baseUri;
        this.maxAttempts = b.maxAttempts;
        this.baseDelay = b.baseDelay;
        this.maxDelay = b.maxDelay;
        this.retryAfterCap = b.retryAfterCap;
        this.deadline = b.deadline;
        this.requestTimeout = b.requestTimeout;
        this.connectTimeout = b.connectTimeout;
        if (!"http".equalsIgnoreCase(baseUri.getScheme()) && !"https".equalsIgnoreCase(baseUri.getScheme())) {
            throw new IllegalArgumentException("baseUri must be an absolute http or https URI");
        }
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1");
        }
        if (baseDelay.compareTo(maxDelay) > 0) {
            throw new IllegalArgumentException("baseDelay must not exceed maxDelay");
        }
    }

    /** A builder with every default set and the given API root (for example {@code http://127.0.0.1:8080}). */
    public static Builder builder(URI baseUri) {
        return new Builder(baseUri);
    }

    /** The defaults with the given API root. */
    public static SeatGrantConfig defaults(URI baseUri) {
        return builder(baseUri).build();
    }

    /** A builder holding this configuration's values, to derive a variant. */
    public Builder toBuilder() {
        return new Builder(baseUri)
                .maxAttempts(maxAttempts)
                .baseDelay(baseDelay)
                .maxDelay(maxDelay)
                .retryAfterCap(retryAfterCap)
                .deadline(deadline)
                .requestTimeout(requestTimeout)
                .connectTimeout(connectTimeout);
    }

    /** The API root; {@code /v1/seats} is resolved under it. */
    public URI baseUri() {
        return baseUri;
    }

    /** The most POSTs sent for one event, the first included. */
    public int maxAttempts() {
        return maxAttempts;
    }

    /** The ceiling of the first computed backoff; each later ceiling doubles. */
    public Duration baseDelay() {
        return baseDelay;
    }

    /** The highest ceiling a computed backoff can reach. */
    public Duration maxDelay() {
        return maxDelay;
    }

    /** The longest {@code Retry-After} the worker honours; a longer one is cut to this. */
    public Duration retryAfterCap() {
        return retryAfterCap;
    }

    /** The budget for one event, all attempts and waits included. */
    public Duration deadline() {
        return deadline;
    }

    /** The budget for one attempt, from sending to reading the whole response. */
    public Duration requestTimeout() {
        return requestTimeout;
    }

    /** The budget for opening a TCP connection. */
    public Duration connectTimeout() {
        return connectTimeout;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SeatGrantConfig c
                && baseUri.equals(c.baseUri)
                && maxAttempts == c.maxAttempts
                && baseDelay.equals(c.baseDelay)
                && maxDelay.equals(c.maxDelay)
                && retryAfterCap.equals(c.retryAfterCap)
                && deadline.equals(c.deadline)
                && requestTimeout.equals(c.requestTimeout)
                && connectTimeout.equals(c.connectTimeout);
    }

    @Override
    public int hashCode() {
        return Objects.hash(baseUri, maxAttempts, baseDelay, maxDelay, retryAfterCap, deadline, requestTimeout,
                connectTimeout);
    }

    @Override
    public String toString() {
        return "SeatGrantConfig[maxAttempts=" + maxAttempts + ", baseDelay=" + baseDelay + ", maxDelay=" + maxDelay
                + ", retryAfterCap=" + retryAfterCap + ", deadline=" + deadline + ", requestTimeout=" + requestTimeout
                + ", connectTimeout=" + connectTimeout + "]";
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
        private Duration deadline = Duration.ofSeconds(30);
        private Duration requestTimeout = Duration.ofSeconds(5);
        private Duration connectTimeout = Duration.ofSeconds(2);

        private Builder(URI baseUri) {
            baseUri(baseUri);
        }

        /** The API root. */
        public Builder baseUri(URI baseUri) {
            this.baseUri = Objects.requireNonNull(baseUri, "baseUri");
            return this;
        }

        /** The most POSTs per event; at least 1. */
        public Builder maxAttempts(int maxAttempts) {
            this.maxAttempts = maxAttempts;
            return this;
        }

        /** The first backoff ceiling; positive. */
        public Builder baseDelay(Duration baseDelay) {
            this.baseDelay = positive(baseDelay, "baseDelay");
            return this;
        }

        /** The highest backoff ceiling; positive and not below baseDelay. */
        public Builder maxDelay(Duration maxDelay) {
            this.maxDelay = positive(maxDelay, "maxDelay");
            return this;
        }

        /** The longest Retry-After honoured; positive. */
        public Builder retryAfterCap(Duration retryAfterCap) {
            this.retryAfterCap = positive(retryAfterCap, "retryAfterCap");
            return this;
        }

        /** The budget for one event; positive. */
        public Builder deadline(Duration deadline) {
            this.deadline = positive(deadline, "deadline");
            return this;
        }

        /** The budget for one attempt; positive. */
        public Builder requestTimeout(Duration requestTimeout) {
            this.requestTimeout = positive(requestTimeout, "requestTimeout");
            return this;
        }

        /** The TCP connect budget; positive. */
        public Builder connectTimeout(Duration connectTimeout) {
            this.connectTimeout = positive(connectTimeout, "connectTimeout");
            return this;
        }

        /**
         * A configuration holding the current values.
         *
         * @throws IllegalArgumentException if the URI is not absolute http(s), maxAttempts is below 1, or
         *     baseDelay exceeds maxDelay
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
