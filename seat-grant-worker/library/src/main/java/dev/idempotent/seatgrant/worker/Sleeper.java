package dev.idempotent.seatgrant.worker;

import java.time.Duration;

/**
 * How a worker waits between attempts. Injected per worker instance so a test can record a backoff of
 * seconds and advance its own clock instead of waiting; production uses {@link #SYSTEM}.
 */
@FunctionalInterface
public interface Sleeper {

    /** Sleeps on the calling thread with {@link Thread#sleep(long)}. */
    Sleeper SYSTEM = duration -> Thread.sleep(duration.toMillis());

    /**
     * Waits for {@code duration} (never negative).
     *
     * @param duration how long to wait
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    void sleep(Duration duration) throws InterruptedException;
}
