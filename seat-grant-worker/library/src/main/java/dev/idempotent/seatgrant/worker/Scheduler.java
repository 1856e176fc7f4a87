package dev.idempotent.seatgrant.worker;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * How {@link SeatGrantWorker#handleAsync(SeatRequested)} waits between attempts without holding a thread: the
 * asynchronous twin of {@link Sleeper}. Injected per worker instance, so a test can record a backoff of seconds and
 * move its own clock instead of waiting. By default a worker uses one daemon thread of its own, started on the
 * first asynchronous wait and stopped by {@link SeatGrantWorker#close()}.
 */
@FunctionalInterface
public interface Scheduler {

    /**
     * A future that completes normally once {@code delay} has passed. The worker starts its next attempt on the
     * thread that completes it (starting is cheap: the request itself is asynchronous). The worker cancels the
     * future when the grant is cancelled; an implementation should then drop the wait.
     *
     * @param delay how long to wait, never negative
     * @return a future completed after the delay
     */
    CompletableFuture<Void> delay(Duration delay);
}
