package dev.idempotent.seatgrant.worker.testing;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@link CompletableFuture#join()} with a bound. A future the worker never completes (a bug that loses a completion)
 * fails the test with a message instead of hanging the build, and the wait, unlike {@code join}, ends when the test
 * thread is interrupted, as a JUnit timeout does.
 */
public final class Await {

    /** Far above any wait the tests expect (they run on fake time), so only a future nobody completes hits it. */
    private static final long BOUND_SECONDS = 30;

    private Await() {
    }

    /**
     * Waits for the future as {@code join} would, and throws as it would.
     *
     * @param future the future
     * @param <T>    its value's type
     * @return its value
     * @throws CompletionException   when it completed exceptionally, with the cause {@code join} would carry
     * @throws java.util.concurrent.CancellationException when it was cancelled
     * @throws AssertionError        when it did not complete within the bound, or the wait was interrupted
     */
    public static <T> T join(CompletableFuture<T> future) {
        try {
            return future.get(BOUND_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new CompletionException(e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError("the future did not complete within " + BOUND_SECONDS + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for the future", e);
        }
    }
}
