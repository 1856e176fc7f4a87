package dev.idempotent.client;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Why a call did not end with an answer: the base of the client's exception family. Every member names the key, the
 * attempts made and, where there was one, the last answer: its status, and the answer itself ({@link #response()}:
 * headers and the body up to the limit, where a provider's error code is); the last transport failure, if any, is
 * the {@linkplain #getCause() cause}. A message or {@code toString()} may name the key (the caller's own id), never a
 * URL, another header's value or a body.
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
    /** The last answer, or null; not serialized (headers are not serializable). */
    private final transient IdempotentResponse response;

    IdempotentRequestException(String message, String key, int attempts, OptionalInt status, String reason,
            Throwable cause, Optional<IdempotentResponse> response) {
        super(message, cause);
        this.key = Objects.requireNonNull(key, "key");
        this.attempts = attempts;
        this.status = Objects.requireNonNull(status, "status").orElse(-1);
        this.reason = Objects.requireNonNull(reason, "reason");
        this.response = Objects.requireNonNull(response, "response").orElse(null);
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

    /**
     * The last attempt's answer: status, headers and the body up to the client's {@code maxBodyBytes}, for reading a
     * provider's error code. Present exactly when {@link #status()} is.
     *
     * @return the last answer, or empty when the last attempt got none (or after deserialization)
     */
    public Optional<IdempotentResponse> response() {
        return Optional.ofNullable(response);
    }

    /** {@return the classifier's one-line reason for the last answer or failure} */
    public String reason() {
        return reason;
    }

    static String describe(OptionalInt status) {
        return status.isPresent() ? "status " + status.getAsInt() : "no answer";
    }
}
