package dev.idempotent.client;

import java.time.Duration;

/**
 * How {@link IdempotentClient#send(IdempotentRequest)} waits between attempts. Injected per client so a test can
 * record a backoff of seconds and move its own clock instead of waiting; production uses {@link #SYSTEM}.
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
