package dev.idempotent.seatgrant.worker;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * Why a grant did not finish: the base of the worker's exception family. Every member names the
 * requestId, the number of POSTs sent and, where there was one, the last HTTP status; the last transport
 * failure, if any, is the {@linkplain #getCause() cause}.
 *
 * <p>Messages carry the requestId (the join key for logs) and never a URL or a header value.
 */
public abstract sealed class GrantException extends RuntimeException
        permits GrantRejectedException, GrantExhaustedException, GrantInterruptedException {

    /** The event's requestId. */
    private final String requestId;
    /** POSTs sent. */
    private final int attempts;
    /** The last HTTP status, or -1 for none. */
    private final int status;

    GrantException(String message, String requestId, int attempts, OptionalInt status, Throwable cause) {
        super(message, cause);
        this.requestId = Objects.requireNonNull(requestId, "requestId");
        this.attempts = attempts;
        this.status = Objects.requireNonNull(status, "status").orElse(-1);
    }

    /** {@return the event's requestId, which was also the Idempotency-Key of every attempt} */
    public String requestId() {
        return requestId;
    }

    /** {@return how many POSTs were sent for this event before the worker stopped} */
    public int attempts() {
        return attempts;
    }

    /** {@return the HTTP status of the last response, or empty when the last attempt got no response at all} */
    public OptionalInt status() {
        return status < 0 ? OptionalInt.empty() : OptionalInt.of(status);
    }

    static String describe(OptionalInt status) {
        return status.isPresent() ? "status " + status.getAsInt() : "no response";
    }
}
