package dev.idempotent.seatgrant.server;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Waits for a condition with a bound, polling; never a fixed sleep standing in for "long enough". */
public final class Await {

    private Await() {
    }

    public static void until(Duration bound, String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + bound.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + bound + " waiting for " + what);
            }
            LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
        }
    }
}
