package dev.idempotent.client.internal;

import java.net.http.HttpHeaders;
import java.util.Objects;
import java.util.Optional;

/**
 * One HTTP answer, as the transport read it: status, headers and the whole body. Holds no URL and no request
 * header; {@link #toString()} names no header value and no body.
 *
 * @param status  the HTTP status
 * @param headers the response headers
 * @param body    the body (possibly empty); not copied, and never changed after it is read. Not compared by
 *                {@code equals}: nothing compares two answers
 */
public record Exchange(int status, HttpHeaders headers, byte[] body) {

    /** The header a server marks a replayed answer with (Stripe, this project's seat API). */
    public static final String REPLAYED_HEADER = "Idempotent-Replayed";

    /**
     * Checks for nulls.
     *
     * @param status  the HTTP status
     * @param headers the response headers
     * @param body    the body
     */
    public Exchange {
        Objects.requireNonNull(headers, "headers");
        Objects.requireNonNull(body, "body");
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
        return "Exchange[status=" + status + ", replayed=" + replayed() + ", bodyBytes=" + body.length + "]";
    }
}
