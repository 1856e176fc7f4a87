package dev.idempotent.seatgrant.server.internal.cli;

import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;

/** What {@code serve} and {@code proxy} do once started: print their one line, then run until the JVM stops. */
final class UntilStopped {

    private UntilStopped() {
    }

    /**
     * Prints {@code startupLine} on {@code out} and blocks until the JVM is asked to stop (Ctrl-C, a signal), when
     * {@code running} is closed. Returns 0.
     */
    static int run(AutoCloseable running, String startupLine, PrintStream out) {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                running.close();
            } catch (Exception e) {
                // The JVM is going away; there is nobody left to tell.
            }
            stopped.countDown();
        }, "fake-server-shutdown"));
        out.println(startupLine);
        out.flush();
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }
}
