package dev.idempotent.seatgrant.server.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Keeps a reset's promise that what comes after it starts clean: each request belongs to the generation that was
 * current when its work began, and a reset starts a new one. A request of an older generation still in flight when
 * the reset ran is cut off: its connection is closed, and whatever it would write later (a seat, a journal entry, a
 * resource in a proxy's ledger) is dropped instead of landing in the next test's evidence.
 *
 * <p>Writes go through {@link #write(long, Supplier)} (or {@link #enter}/{@link #exit} around asynchronous work):
 * a write of an old generation does nothing, and a reset waits, bounded, for the writes already under way, so it
 * clears only after them. Thread-safe.
 */
public final class ResetGenerations {

    /** How long a reset waits for writes under way; a store call takes milliseconds, so this is only a bound. */
    static final Duration DRAIN_WAIT = Duration.ofSeconds(10);

    /** Thrown into the work of a request whose generation a reset ended: the caller drops what it would write. */
    public static final class Outdated extends RuntimeException {
        public Outdated() {
            super("a reset ended this request's generation", null, false, false);
        }
    }

    private final Map<Object, Cut> inFlight = new ConcurrentHashMap<>();
    /** Written under the lock; read without it on the hot path. */
    private volatile long current;
    private long writing;
    private long draining;

    /** The generation a request that begins now belongs to. */
    public long current() {
        return current;
    }

    /**
     * Marks a request of {@code generation} as in flight until {@link #done}; a reset of its generation runs
     * {@code cut} (closes its connection) once.
     *
     * @param request identifies the request for {@link #done}
     */
    public void begin(Object request, long generation, Runnable cut) {
        inFlight.put(request, new Cut(generation, cut));
        if (generation != current()) {
            // A reset came between reading the generation and now: it did not see this request, so cut it here.
            inFlight.remove(request);
            cut.run();
        }
    }

    /** The request is answered (or its fault struck): a reset leaves its connection alone. */
    public void done(Object request) {
        inFlight.remove(request);
    }

    /** Whether {@code generation} is still current: a request of an older one writes nothing more. */
    public boolean isCurrent(long generation) {
        return generation == current;
    }

    /**
     * Starts a write of {@code generation}; false (and nothing to {@link #exit}) when a reset ended it.
     */
    public synchronized boolean enter(long generation) {
        if (generation != current) {
            return false;
        }
        writing++;
        return true;
    }

    /** Ends a write begun by a successful {@link #enter}. */
    public synchronized void exit(long generation) {
        if (generation == current) {
            writing--;
        } else if (--draining == 0) {
            notifyAll();
        }
    }

    /**
     * Runs {@code write} if {@code generation} is current, with a reset held off until it returns.
     *
     * @throws Outdated when a reset ended the generation: nothing was written
     */
    public <T> T write(long generation, Supplier<T> write) {
        if (!enter(generation)) {
            throw new Outdated();
        }
        try {
            return write.get();
        } finally {
            exit(generation);
        }
    }

    /**
     * Starts a new generation: closes the connections of requests still in flight from older ones and waits (at
     * most {@link #DRAIN_WAIT}) for writes under way; the caller then clears what the old generation left.
     */
    public void advance() {
        List<Cut> cuts = new ArrayList<>();
        synchronized (this) {
            current++;
            draining += writing;
            writing = 0;
            long deadline = System.nanoTime() + DRAIN_WAIT.toNanos();
            boolean interrupted = false;
            for (long left = DRAIN_WAIT.toNanos(); draining > 0 && left > 0; left = deadline - System.nanoTime()) {
                try {
                    TimeUnit.NANOSECONDS.timedWait(this, left);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            long now = current;
            inFlight.entrySet().removeIf(e -> {
                if (e.getValue().generation < now) {
                    cuts.add(e.getValue());
                    return true;
                }
                return false;
            });
        }
        cuts.forEach(c -> c.cut.run());
    }

    private record Cut(long generation, Runnable cut) {
    }
}
