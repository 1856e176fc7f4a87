package dev.idempotent.client.internal;

import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Ends what the transport cannot be trusted to end: an attempt past its budget, and every call at
 * {@link #close()}. One daemon thread per client, started by the first call, looks at the attempts in flight every
 * {@link #TICK}; so an attempt ends at most a tick (plus the time to wake a thread) after its budget, within
 * {@link #SLACK}. It works above any transport: a blocking attempt is interrupted (the JDK's {@code send} then
 * abandons its exchange), an asynchronous one is failed and its transport future cancelled. The thread that reads
 * the answer's body never enforces anything. Thread-safe.
 *
 * <p>Not a timer per attempt: arming and cancelling one on every call woke a thread on every call, which cost about
 * 7% of the loopback benchmark on two cores (docs/benchmarks.md).
 */
public final class Watchdog implements AutoCloseable {

    /** How often the thread looks. */
    static final Duration TICK = Duration.ofMillis(50);

    /** The most an attempt may run over its budget before it is ended: a tick, and room to wake the threads. */
    public static final Duration SLACK = Duration.ofMillis(100);

    /** The message of the timeout an attempt past its budget ends with, as the JDK reports its own. */
    public static final String TIMED_OUT = "the attempt ran out of its budget before the whole answer arrived";

    /** The most {@link #close()} waits for the thread to end once told to. */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    private final Set<Watched> watched = ConcurrentHashMap.newKeySet();
    private final String threadName;
    private Thread sweeper;
    private volatile CancellationException closedBy;

    /**
     * A watchdog whose thread is named {@code threadName}.
     *
     * @param threadName the sweeping thread's name
     */
    public Watchdog(String threadName) {
        this.threadName = threadName;
    }

    /** {@return the exception that stands for the close, once {@link #close()} ran; null before} */
    public CancellationException closedBy() {
        return closedBy;
    }

    /** Something in flight: a blocking call, or one asynchronous attempt. */
    private abstract static class Watched {
        /** Ends it if its budget has run out by {@code now} (nanoTime). */
        abstract void sweep(long now);

        /** Ends it because the client closed. */
        abstract void stop();
    }

    /**
     * Watches the calling thread's blocking call until {@link Blocking#close()}; every attempt of the call and
     * every wait between attempts goes through it.
     *
     * @return the guard of the calling thread's call
     * @throws IllegalStateException when the watchdog is closed (the client was)
     */
    public Blocking blocking() {
        Blocking b = new Blocking(Thread.currentThread());
        register(b);
        if (closedBy != null) {
            // close() may have swept the set before this call joined it.
            watched.remove(b);
            throw new IllegalStateException("this IdempotentClient is closed");
        }
        return b;
    }

    /**
     * Fails {@code attempt} with an {@link HttpTimeoutException} and cancels {@code transport} (which aborts the
     * exchange) unless the attempt completes within {@code timeout} (plus the slack).
     *
     * @param attempt   the attempt's outcome as the call sees it
     * @param transport the transport's future for the attempt, cancelled when the budget runs out
     * @param timeout   the attempt's budget, from now
     */
    public void watch(CompletableFuture<?> attempt, CompletableFuture<?> transport, Duration timeout) {
        Async a = new Async(attempt, transport, System.nanoTime() + timeout.toNanos());
        register(a);
        attempt.whenComplete((r, f) -> watched.remove(a));
    }

    private void register(Watched w) {
        watched.add(w);
        if (sweeper == null) {
            start();
        }
    }

    private synchronized void start() {
        if (sweeper != null || closedBy != null) {
            return;
        }
        Thread t = new Thread(this::sweep, threadName);
        t.setDaemon(true);
        t.start();
        sweeper = t;
    }

    private void sweep() {
        while (closedBy == null) {
            LockSupport.parkNanos(TICK.toNanos());
            long now = System.nanoTime();
            for (Watched w : watched) {
                w.sweep(now);
            }
        }
    }

    /**
     * Ends every call it watches: a blocking one is interrupted in its attempt or its wait and ends with
     * {@link Closed}; an asynchronous attempt is left to its call, which the client closes itself. Ends the thread
     * and waits for it to end (up to 5 s). Idempotent.
     */
    @Override
    public void close() {
        Thread t;
        synchronized (this) {
            if (closedBy != null) {
                return;
            }
            closedBy = new CancellationException("closed by IdempotentClient.close()");
            t = sweeper;
        }
        if (t != null) {
            t.interrupt();
        }
        for (Watched w : watched) {
            w.stop();
        }
        if (t != null && t != Thread.currentThread()) {
            // The thread is gone when close() returns, not a moment later: a caller counting its threads right
            // after the close found it alive on a loaded machine. It ends on the interrupt; the bound is for a
            // machine that does not schedule it.
            try {
                t.join(CLOSE_WAIT.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** A blocking attempt or wait was ended by {@link #close()}. */
    public static final class Closed extends Exception {
        private static final long serialVersionUID = 1L;

        Closed(CancellationException closedBy) {
            super("the client was closed", closedBy);
        }
    }

    /**
     * What a blocking attempt or wait runs.
     *
     * @param <T> its result
     */
    @FunctionalInterface
    public interface Op<T> {
        /**
         * Runs it on the calling thread.
         *
         * @return its result
         * @throws java.io.IOException  as the transport throws it
         * @throws InterruptedException when interrupted
         */
        T run() throws java.io.IOException, InterruptedException;
    }

    /**
     * One blocking call's guard. Only its own thread calls {@link #attempt} and {@link #await}; the watchdog
     * interrupts that thread only while it is inside one of them, and the interrupt never outlives it: a thread
     * that returns from one clears the interrupt the watchdog sent, and keeps one that came from elsewhere.
     */
    public final class Blocking extends Watched implements AutoCloseable {
        private static final int IDLE = 0;
        private static final int BLOCKED = 1;
        private static final int INTERRUPTING = 2;
        private static final int INTERRUPTED = 3;

        private final Thread thread;
        private final AtomicInteger state = new AtomicInteger(IDLE);
        /** When the current attempt's budget runs out (nanoTime); only read while {@link #timed}. */
        private volatile long deadline;
        private volatile boolean timed;
        /** Why the watchdog interrupted: true for the close, false for the deadline. */
        private volatile boolean forClose;

        private Blocking(Thread thread) {
            this.thread = thread;
        }

        /**
         * Runs one attempt, ended at {@code timeout} from now (plus the slack) if it has not ended by then.
         *
         * @param timeout the attempt's budget
         * @param op      the attempt
         * @param <T>     its result
         * @return its result
         * @throws HttpTimeoutException when the budget ran out first
         * @throws Closed               when the client was closed first
         * @throws java.io.IOException  as the attempt throws it
         * @throws InterruptedException when the thread was interrupted by someone else
         */
        public <T> T attempt(Duration timeout, Op<T> op) throws java.io.IOException, InterruptedException, Closed {
            deadline = System.nanoTime() + timeout.toNanos();
            timed = true;
            try {
                return run(op);
            } finally {
                timed = false;
            }
        }

        /**
         * Runs a wait between attempts, ended only by the close.
         *
         * @param op the wait
         * @throws Closed               when the client was closed first
         * @throws InterruptedException when the thread was interrupted by someone else
         */
        public void await(Op<Void> op) throws InterruptedException, Closed {
            try {
                run(op);
            } catch (java.io.IOException impossible) {
                throw new IllegalStateException("a wait does no I/O", impossible);
            }
        }

        private <T> T run(Op<T> op) throws java.io.IOException, InterruptedException, Closed {
            state.set(BLOCKED);
            // Read after entering: a close that came before is seen here, one that comes after sees BLOCKED.
            if (closedBy != null) {
                leave();
                throw new Closed(closedBy);
            }
            T result;
            try {
                result = op.run();
            } catch (java.io.IOException | InterruptedException | RuntimeException failed) {
                if (leave()) {
                    throw failed;
                }
                if (forClose) {
                    throw new Closed(closedBy);
                }
                throw new HttpTimeoutException(TIMED_OUT);
            }
            // An answer that arrived as the watchdog gave up on it is still the answer (after a close, the call
            // then stops before its next attempt).
            leave();
            return result;
        }

        /**
         * Leaves the blocked state; false when the watchdog interrupted this thread, in which case the interrupt
         * has been delivered and cleared.
         */
        private boolean leave() {
            while (true) {
                if (state.compareAndSet(BLOCKED, IDLE)) {
                    return true;
                }
                if (state.compareAndSet(INTERRUPTED, IDLE)) {
                    Thread.interrupted();
                    return false;
                }
                Thread.onSpinWait();
            }
        }

        @Override
        void sweep(long now) {
            if (timed && now - deadline >= 0) {
                interrupt(false);
            }
        }

        @Override
        void stop() {
            // Between two attempts or waits, nothing to interrupt: the next one sees the close on entering.
            interrupt(true);
        }

        private void interrupt(boolean close) {
            if (!state.compareAndSet(BLOCKED, INTERRUPTING)) {
                return;
            }
            // The sweep read the deadline of an attempt that may have ended since; the one now blocked has its own.
            if (!close && !(timed && System.nanoTime() - deadline >= 0)) {
                state.set(BLOCKED);
                return;
            }
            forClose = close;
            thread.interrupt();
            state.set(INTERRUPTED);
        }

        /** Stops watching this call. */
        @Override
        public void close() {
            watched.remove(this);
        }
    }

    /** One asynchronous attempt. */
    private static final class Async extends Watched {
        private final CompletableFuture<?> attempt;
        private final CompletableFuture<?> transport;
        private final long deadline;

        Async(CompletableFuture<?> attempt, CompletableFuture<?> transport, long deadline) {
            this.attempt = attempt;
            this.transport = transport;
            this.deadline = deadline;
        }

        @Override
        void sweep(long now) {
            if (now - deadline >= 0 && attempt.completeExceptionally(new HttpTimeoutException(TIMED_OUT))) {
                transport.cancel(true);
            }
        }

        @Override
        void stop() {
            // The client ends its asynchronous calls itself, each with its own outcome.
        }
    }
}
