package dev.idempotent.client.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * What a client's own timer does at its edges: a closed owner schedules nothing, the timer thread is a daemon
 * whichever thread started it, and closing from an interrupted thread keeps the interrupt for the caller.
 */
class OwnedResourcesTest {

    @Test
    void aClosedOwnerFailsAWaitInsteadOfSchedulingIt() {
        OwnedResources owned = new OwnedResources(false, Duration.ofSeconds(1), "owned-test");
        assertNull(owned.client(), "the caller's client is used; none is built");
        owned.close();

        CompletableFuture<Void> wait = owned.delay(Duration.ZERO);

        ExecutionException e = assertThrows(ExecutionException.class, () -> wait.get(30, TimeUnit.SECONDS));
        assertInstanceOf(IllegalStateException.class, e.getCause());
    }

    @Test
    void theTimerThreadIsADaemonEvenWhenANonDaemonThreadStartsIt() throws Exception {
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        OwnedResources owned = new OwnedResources(false, Duration.ofSeconds(1), "owned-test");
        AtomicReference<Throwable> failed = new AtomicReference<>();
        // A new thread inherits its creator's daemon flag; a non-daemon creator shows whether the factory sets it.
        Thread starter = new Thread(() -> {
            try {
                owned.delay(Duration.ZERO).get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                failed.set(e);
            }
        }, "non-daemon-starter");
        starter.setDaemon(false);
        try {
            starter.start();
            starter.join(TimeUnit.SECONDS.toMillis(30));
            assertFalse(starter.isAlive(), "the wait completed");
            assertNull(failed.get());
            List<Thread> timers = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> !before.contains(t) && t.getName().startsWith("owned-test-")
                            && t.getName().contains("-timer-"))
                    .toList();
            assertFalse(timers.isEmpty(), "the wait ran on a timer thread of the owner's own");
            for (Thread timer : timers) {
                assertTrue(timer.isDaemon(), timer.getName() + " would keep the JVM alive");
            }
        } finally {
            owned.close();
        }
    }

    @Test
    void closingFromAnInterruptedThreadKeepsTheInterrupt() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        OwnedResources owned = busyTimer(release);
        try {
            Thread.currentThread().interrupt();
            // The timer thread is still running, so close() is interrupted while it waits for that thread.
            owned.close();
            assertTrue(Thread.interrupted(), "close() restored the interrupt flag it was woken by");
        } finally {
            Thread.interrupted();
            release.countDown();
        }
    }

    /**
     * An owner whose timer thread is busy, ignoring interrupts, until {@code release} opens: a wait whose completion
     * runs a step that blocks on the timer thread. When the wait completes before the step is attached, the step
     * runs on this thread instead and does not block; then it tries again with a fresh owner.
     */
    private static OwnedResources busyTimer(CountDownLatch release) throws InterruptedException {
        Thread self = Thread.currentThread();
        for (int tries = 0; tries < 20; tries++) {
            OwnedResources owned = new OwnedResources(false, Duration.ofSeconds(1), "owned-test");
            CountDownLatch onTimer = new CountDownLatch(1);
            owned.delay(Duration.ofMillis(50)).thenRun(() -> {
                if (Thread.currentThread() != self) {
                    onTimer.countDown();
                    awaitUninterruptibly(release);
                }
            });
            if (onTimer.await(5, TimeUnit.SECONDS)) {
                return owned;
            }
            owned.close();
        }
        return fail("the timer never ran the step on its own thread");
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                if (latch.await(60, TimeUnit.SECONDS)) {
                    break;
                }
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
