package dev.idempotent.fetch;

import java.time.Duration;
import java.util.OptionalInt;

/**
 * Why a {@link FetchClient#fetchJson(String, Duration) fetchJson} call produced no JSON object.
 *
 * <p>It is checked, like the I/O it reports: every caller already had to decide what a failed fetch
 * means for them. The message is one of a few fixed phrases ({@code "http 503"}, {@code "response was not json"},
 * {@code "json root was not an object"}, {@code "connection failed"}, ...). It never contains the URL,
 * and no JDK exception is chained as a cause, since those may quote the host or the request URI.
 *
 * <p>Instances are immutable and safe to share between threads.
 */
public final class FetchException extends Exception {

    private static final long serialVersionUID = 1L;

    /** {@code null} when the failure happened before any HTTP status arrived. */
    private final Integer status;

    FetchException(String message) {
        super(message);
        this.status = null;
    }

    FetchException(String message, int status) {
        super(message);
        this.status = status;
    }

    /**
     * The HTTP status of the last response when the server answered with an error, or empty when the
     * failure came before a status (no connection, timeout) or after a successful one (a body that is
     * not a JSON object).
     */
    public OptionalInt status() {
        return status == null ? OptionalInt.empty() : OptionalInt.of(status);
    }
}
