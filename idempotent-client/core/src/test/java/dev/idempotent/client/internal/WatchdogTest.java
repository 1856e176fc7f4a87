package dev.idempotent.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The watchdog's own thread: a daemon started by the first watched attempt, gone by the time {@code close()} returns.
 */
class WatchdogTest {

    @Test
    void itsThreadHasEndedWhenCloseReturns() {
        // Twenty times: without the wait in close(), the thread is still winding down right after it, nearly always.
        for (int i = 0; i < 20; i++) {
            String name = "watchdog-under-test-" + i;
            Watchdog watchdog = new Watchdog(name);
            watchdog.watch(new CompletableFuture<>(), new CompletableFuture<>(), Duration.ofMinutes(1));
            List<Thread> sweepers = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().equals(name)).toList();
            assertEquals(1, sweepers.size(), "watching an attempt starts the thread");
            // A client nobody closed must not keep the JVM from exiting.
            assertTrue(sweepers.get(0).isDaemon(), "the watchdog's thread is a daemon");

            watchdog.close();

            assertFalse(sweepers.get(0).isAlive(), "close() returned with its thread still running, round " + i);
        }
    }
}
