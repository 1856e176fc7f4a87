package dev.idempotent.seatgrant.worker.testing;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The threads a {@code SeatGrantWorker} starts for itself (its HTTP client's executor and its timer, all named
 * {@code seat-grant-<n>-...}), so a test can check that whoever created a worker also closed it: {@code close()}
 * joins them, so none is alive once it returns. The JDK's own selector thread is not among them (on Java 17 it
 * ends only after a garbage collection).
 */
public final class WorkerThreads {

    private WorkerThreads() {
    }

    /** {@return the worker threads alive now} */
    public static Set<Thread> live() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("seat-grant-"))
                .collect(Collectors.toSet());
    }

    /**
     * The worker threads alive now that were not alive before.
     *
     * @param before what {@link #live()} returned earlier
     * @return their names, sorted
     */
    public static List<String> startedSince(Set<Thread> before) {
        return live().stream().filter(t -> !before.contains(t)).map(Thread::getName).sorted().toList();
    }
}
