package dev.idempotent.fetch;

import java.time.Duration;

/**
 * How the client waits between attempts: a seam, so tests can record the delays instead of sitting
 * through them. Implementations must be thread-safe.
 */
@FunctionalInterface
interface Sleeper {

    /** Really waits, on the calling thread. */
    Sleeper THREAD = delay -> Thread.sleep(delay.toMillis());

    /**
     * Waits for {@code delay}.
     *
     * @throws InterruptedException when the calling thread is interrupted while waiting
     */
    void sleep(Duration delay) throws InterruptedException;
}
