package dev.idempotent.seatgrant.server.internal.http.proxy;

/**
 * Why the upstream gave no whole answer: the upstream's own failure, which the journal keeps apart from an
 * injected fault. Whether the upstream may have acted on the request is what a client's retry depends on, so
 * each says.
 */
public enum UpstreamError {
    /** No connection could be made (refused, unreachable, or not within 5 s): nothing reached the upstream. */
    REFUSED("refused", 502, "upstream-refused", "the upstream could not be reached; nothing was sent to it"),
    /**
     * No pooled connection was free (or made) within the upstream timeout: every one was busy, and nothing reached
     * the upstream.
     */
    BUSY("busy", 503, "upstream-busy", "no connection to the upstream was free in time; nothing was sent to it"),
    /** No whole answer within the upstream timeout: the upstream may have acted on the request. */
    TIMEOUT("timeout", 504, "upstream-timeout", "the upstream did not answer in time; it may have acted on the request"),
    /**
     * The connection broke, or what came back was not HTTP, before the whole answer: the upstream may have acted on
     * the request.
     */
    BROKEN("broken", 502, "upstream-broken",
            "the upstream's connection broke before its whole answer; it may have acted on the request"),
    /** The answer's body is over the proxy's body limit: the upstream did answer, and may have acted. */
    TOO_LARGE("too-large", 502, "upstream-answer-too-large",
            "the upstream's answer is over the proxy's body limit; it may have acted on the request"),
    /**
     * Reading the answer would take the proxy past its in-flight limit: the upstream did answer, and may have acted;
     * the proxy could not hold its answer.
     */
    IN_FLIGHT_LIMIT("in-flight-limit", 503, "in-flight-limit",
            "the proxy holds too many bytes to take the upstream's answer now; the upstream may have acted on the"
                    + " request");

    private final String wireName;
    private final int status;
    private final String slug;
    private final String detail;

    UpstreamError(String wireName, int status, String slug, String detail) {
        this.wireName = wireName;
        this.status = status;
        this.slug = slug;
        this.detail = detail;
    }

    /** The journal's {@code upstreamError}. */
    public String wireName() {
        return wireName;
    }

    /** What the client gets: 502, 503 for a busy pool or the in-flight limit, or 504 for a timeout. */
    int status() {
        return status;
    }

    /** False only when nothing was sent: then the upstream cannot have acted on the request. */
    boolean mayHaveActed() {
        return this != REFUSED && this != BUSY;
    }

    /** The problem type's name. */
    String slug() {
        return slug;
    }

    /** The problem's detail, naming no address. */
    String detail() {
        return detail;
    }
}
