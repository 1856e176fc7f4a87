package dev.idempotent.client;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * The calling thread was interrupted during an attempt or a wait; the interrupt flag is restored. The operation may
 * or may not have happened; the same request sent again later is safe.
 */
public final class RequestInterruptedException extends IdempotentRequestException {

    /**
     * Reports an interrupt.
     *
     * @param key      the call's key
     * @param attempts attempts sent or started
     * @param status   the last answer's status, or empty
     * @param cause    the interrupt
     */
    public RequestInterruptedException(String key, int attempts, OptionalInt status, InterruptedException cause) {
        this(key, attempts, status, cause, Optional.empty());
    }

    /**
     * Reports an interrupt, with the last answer.
     *
     * @param key      the call's key
     * @param attempts attempts sent or started
     * @param status   the last answer's status, or empty
     * @param cause    the interrupt
     * @param response the last answer, or empty
     */
    public RequestInterruptedException(String key, int attempts, OptionalInt status, InterruptedException cause,
            Optional<IdempotentResponse> response) {
        super("request interrupted for key " + key + " after " + attempts + " attempt(s)", key, attempts, status,
                "interrupted", cause, response);
    }
}
