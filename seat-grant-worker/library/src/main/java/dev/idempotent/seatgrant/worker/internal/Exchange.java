package dev.idempotent.seatgrant.worker.internal;

import java.util.Objects;
import java.util.Optional;

/**
 * One HTTP answer to a grant POST, reduced to what classification needs. Holds no URL and no request
 * header, so it can be logged or put in an exception without leaking either.
 *
 * @param status      the HTTP status
 * @param contentType the Content-Type header, or empty
 * @param retryAfter  the raw Retry-After header, or empty
 * @param replayed    whether the server sent {@code Idempotent-Replayed: true}
 * @param body        the response body as text (possibly empty)
 */
public record Exchange(int status, Optional<String> contentType, Optional<String> retryAfter, boolean replayed,
        String body) {

    /**
     * Checks for nulls.
     *
     * @param status      the HTTP status
     * @param contentType the Content-Type header, or empty
     * @param retryAfter  the raw Retry-After header, or empty
     * @param replayed    whether the server sent {@code Idempotent-Replayed: true}
     * @param body        the response body as text (possibly empty)
     */
    public Exchange {
        Objects.requireNonNull(contentType, "contentType");
        Objects.requireNonNull(retryAfter, "retryAfter");
        Objects.requireNonNull(body, "body");
    }

    @Override
    public String toString() {
        // The body may be large or carry user data; status and flags are enough to debug.
        return "Exchange[status=" + status + ", replayed=" + replayed + ", bodyChars=" + body.length() + "]";
    }
}
