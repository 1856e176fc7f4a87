package dev.idempotent.seatgrant.server.internal.http;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * The connection layer's own settings, the same whatever routes sit behind it.
 *
 * @param headerTimeout  how long a request's head may take from its first byte; then 408 and close
 * @param bodyTimeout    how long a request's body may take after its head; then 408 and close
 * @param idleTimeout    how long a kept-alive connection may sit with no request, or a response may take to
 *                       write; then close
 * @param maxConnections open connections beyond this are accepted and closed at once
 * @param clock          what a request's first byte and its answer are timed by ({@link Exchange#firstByteAt()},
 *                       {@link Exchange.Written}): the server's clock, so a test that injects one sees its times
 * @param maxBodyBytes   the largest request body read; a larger one is refused with 413 (from its head when it
 *                       says its length) and the connection closes
 */
public record HttpSettings(Duration headerTimeout, Duration bodyTimeout, Duration idleTimeout, int maxConnections,
                           Clock clock, int maxBodyBytes) {

    /** The seat API's body limit: a grant is a few hundred bytes, so 64 KiB is generous and bounds the heap. */
    public static final int SEAT_MAX_BODY_BYTES = 64 * 1024;

    public HttpSettings {
        Objects.requireNonNull(clock, "clock");
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections must be at least 1");
        }
        if (maxBodyBytes < 0) {
            throw new IllegalArgumentException("maxBodyBytes must be 0 or more");
        }
    }

    /** Settings with the seat API's body limit. */
    public HttpSettings(Duration headerTimeout, Duration bodyTimeout, Duration idleTimeout, int maxConnections,
                        Clock clock) {
        this(headerTimeout, bodyTimeout, idleTimeout, maxConnections, clock, SEAT_MAX_BODY_BYTES);
    }
}
