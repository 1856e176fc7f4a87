package dev.idempotent.client;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * Why a call did not end with an answer: the base of the client's exception family. Every member names the key, the
 * attempts made and, where there was one, the last HTTP status; the last transport failure, if any, is the
 * {@linkplain #getCause() cause}. A message may name the key (the caller's own id), never a URL, another header's
 * value or a body.
 */
public abstract sealed class IdempotentRequestException extends RuntimeException
        permits RequestRejectedException, RetriesExhaustedException, RequestInterruptedException {

    /** The call's key. */
    private final String key;
    /** Attempts sent or started. */
    private final int attempts;
    /** The last HTTP status, or -1 for none. */
    private final int status;
    /** The classifier's one-line reason. */
    private final String reason;

    IdempotentRequestException(String message, String key, int attempts, OptionalInt status, String reason,
            Throwable cause) {
        super(message, cause);
        this.key = Objects.requireNonNull(key, "key");
        this.attempts = attempts;
        this.status = Objects.requireNonNull(status, "status").orElse(-1);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    /** {@return the call's key, sent on every attempt} */
    public String key() {
        return key;
    }

    /** {@return how many attempts were sent (or started) before the client stopped} */
    public int attempts() {
        return attempts;
    }

    /** {@return the last answer's HTTP status, or empty when the last attempt got no answer} */
    public OptionalInt status() {
        return status < 0 ? OptionalInt.empty() : OptionalInt.of(status);
    }

    /** {@return the classifier's one-line reason for the last answer or failure} */
    public String reason() {
        return reason;
    }

    static String describe(OptionalInt status) {
        return status.isPresent() ? "status " + status.getAsInt() : "no answer";
    }
}
