package dev.idempotent.seatgrant.server.internal.cli;

import dev.idempotent.seatgrant.server.internal.ReadyFile;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/** What {@code serve} and {@code proxy} do once started: print their one line, then run until the JVM stops. */
final class UntilStopped {

    private UntilStopped() {
    }

    /**
     * Prints {@code startupLine} on {@code out}, writes {@code base} to {@code readyFile} when there is one, and
     * blocks until the JVM is asked to stop (Ctrl-C, a signal), when the ready file is removed and {@code running}
     * closed. Returns 0, or 1 when the ready file cannot be written (the server is closed then).
     *
     * @param readyFile {@code --ready-file}; null for none
     */
    static int run(AutoCloseable running, String startupLine, URI base, Path readyFile, PrintStream out,
                   PrintStream err) {
        out.println(startupLine);
        out.flush();
        if (readyFile != null) {
            try {
                ReadyFile.write(readyFile, base);
            } catch (IOException e) {
                err.println("fake-server: cannot write " + ReadyFile.FLAG + " " + readyFile + " ("
                        + e.getClass().getSimpleName() + "); stopping");
                closeQuietly(running);
                return 1;
            }
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            // First, so a script never reads "ready" from a server that is going away.
            ReadyFile.delete(readyFile);
            closeQuietly(running);
            stopped.countDown();
        }, "fake-server-shutdown"));
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    private static void closeQuietly(AutoCloseable running) {
        try {
            running.close();
        } catch (Exception e) {
            // The JVM is going away; there is nobody left to tell.
        }
    }
}
