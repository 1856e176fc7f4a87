package dev.idempotent.client.internal;

import java.net.http.HttpHeaders;
import java.util.Objects;
import java.util.Optional;

/**
 * One HTTP answer, as the transport read it: status, headers and the body up to the client's limit. Holds no URL
 * and no request header; {@link #toString()} names no header value and no body.
 *
 * @param status    the HTTP status
 * @param headers   the response headers
 * @param body      the body (possibly empty), or its first bytes when truncated; not copied, and never changed
 *                  after it is read. Not compared by {@code equals}: nothing compares two answers
 * @param truncated whether the server sent more than the limit, which was not read
 */
public record Exchange(int status, HttpHeaders headers, byte[] body, boolean truncated) {

    /** The header a server marks a replayed answer with (Stripe, this project's seat API). */
    public static final String REPLAYED_HEADER = "Idempotent-Replayed";

    /**
     * Checks for nulls.
     *
     * @param status    the HTTP status
     * @param headers   the response headers
     * @param body      the body
     * @param truncated whether it was cut at the limit
     */
    public Exchange {
        Objects.requireNonNull(headers, "headers");
        Objects.requireNonNull(body, "body");
    }

    /**
     * A whole answer.
     *
     * @param status  the HTTP status
     * @param headers the response headers
     * @param body    the whole body
     */
    public Exchange(int status, HttpHeaders headers, byte[] body) {
        this(status, headers, body, false);
    }

    /** {@return the Content-Type header, or empty} */
    public Optional<String> contentType() {
        return headers.firstValue("Content-Type");
    }

    /** {@return the raw Retry-After header, or empty} */
    public Optional<String> retryAfter() {
        return headers.firstValue("Retry-After");
    }

    /** {@return whether the server sent {@code Idempotent-Replayed: true}} */
    public boolean replayed() {
        return headers.firstValue(REPLAYED_HEADER).map(v -> v.trim().equalsIgnoreCase("true")).orElse(false);
    }

    @Override
    public String toString() {
        return "Exchange[status=" + status + ", replayed=" + replayed() + ", bodyBytes=" + body.length
                + (truncated ? ", truncated" : "") + "]";
    }
}
