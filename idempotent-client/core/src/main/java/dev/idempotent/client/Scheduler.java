package dev.idempotent.client;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * How {@link IdempotentClient#sendAsync(IdempotentRequest)} waits between attempts without holding a thread: the
 * asynchronous twin of {@link Sleeper}. Injected per client, so a test can move its own clock instead of waiting.
 * By default a client uses one daemon thread of its own, started on the first asynchronous wait and stopped by
 * {@link IdempotentClient#close()}.
 */
@FunctionalInterface
public interface Scheduler {

    /**
     * A future that completes normally once {@code delay} has passed. The client starts its next attempt on the
     * thread that completes it. The client cancels the future when the call is cancelled; an implementation should
     * then drop the wait.
     *
     * @param delay how long to wait, never negative
     * @return a future completed after the delay
     */
    CompletableFuture<Void> delay(Duration delay);
}
