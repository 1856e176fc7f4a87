package dev.idempotent.seatgrant.worker;

import java.util.Objects;

/**
 * Which grant and which attempt a request is being built for, handed to a {@link RequestCustomizer} so it can set
 * per-event headers such as a W3C {@code traceparent}.
 *
 * @param requestId the event's requestId, also the request's {@code Idempotency-Key}
 * @param attempt   which POST of this call the request is, from 1 (a redelivery starts again at 1)
 */
public record AttemptContext(String requestId, int attempt) {

    /**
     * Checks that the requestId is present and the attempt number positive.
     *
     * @param requestId the event's requestId
     * @param attempt   which POST of this call, from 1
     * @throws IllegalArgumentException if {@code attempt} is below 1
     */
    public AttemptContext {
        Objects.requireNonNull(requestId, "requestId");
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt must be at least 1");
        }
    }
}
