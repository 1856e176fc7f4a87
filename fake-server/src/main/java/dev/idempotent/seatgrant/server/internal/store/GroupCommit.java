package dev.idempotent.seatgrant.server.internal.store;

import dev.idempotent.seatgrant.server.Seat;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Group commit for uncontended grants: the grants that arrive while a transaction is committing wait in a queue,
 * and the next writer takes all of them (up to {@link #MAX_BATCH}) into one transaction, one commit and, on an
 * H2 file, one store of the file. Every grant's future completes only after that commit returned, so nobody is
 * answered before their seat is in the store. There is no timer: an idle server commits a lone grant at once,
 * and a busy one commits bigger groups, because more grants queue while the previous group commits.
 *
 * <p>Thread-safe. {@code writers} threads take turns on the queue: one for H2 (its file has one store step,
 * so a second writer would only wait for it), a few for PostgreSQL, whose commits overlap.
 */
final class GroupCommit implements AutoCloseable {

    /** The most grants one transaction carries: bounds a transaction's size and a failed group's retry work. */
    static final int MAX_BATCH = 256;

    /** One grant waiting for its group. {@code key} is null for a keyless seat. */
    record Op(String key, String requestHash, Seat seat, Instant now, CompletableFuture<Boolean> done) { }

    /** Runs one group: writes each op in one transaction and reports, per op, whether it wrote its seat. */
    @FunctionalInterface
    interface Runner {
        void run(List<Op> group);
    }

    private static final Op STOP = new Op(null, null, null, null, null);

    private final BlockingQueue<Op> queue = new LinkedBlockingQueue<>();
    private final List<Thread> writers = new ArrayList<>();
    private volatile boolean closed;

    GroupCommit(int writerCount, Runner runner) {
        for (int i = 0; i < writerCount; i++) {
            Thread writer = new Thread(() -> loop(runner), "seat-store-writer-" + (i + 1));
            writer.setDaemon(true);
            writers.add(writer);
            writer.start();
        }
    }

    /** Queues a grant; the future completes, on a writer thread, once its group committed (or failed). */
    CompletableFuture<Boolean> submit(String key, String requestHash, Seat seat, Instant now) {
        CompletableFuture<Boolean> done = new CompletableFuture<>();
        if (closed) {
            done.completeExceptionally(new StoreException("the store is closed", null));
            return done;
        }
        queue.add(new Op(key, requestHash, seat, now, done));
        if (closed) {
            // Closed while we queued: the writers may be gone, so do not leave the caller waiting.
            failPending();
        }
        return done;
    }

    private void loop(Runner runner) {
        List<Op> group = new ArrayList<>(MAX_BATCH);
        while (true) {
            Op first;
            try {
                first = queue.take();
            } catch (InterruptedException e) {
                return;
            }
            if (first == STOP) {
                return;
            }
            group.clear();
            group.add(first);
            queue.drainTo(group, MAX_BATCH - 1);
            int stops = 0;
            for (int i = group.size() - 1; i >= 0; i--) {
                if (group.get(i) == STOP) {
                    group.remove(i);
                    stops++;
                }
            }
            boolean stop = stops > 0;
            for (int extra = 1; extra < stops; extra++) {
                queue.add(STOP); // another writer's stop signal: hand it back
            }
            try {
                runner.run(group);
            } catch (RuntimeException | Error e) {
                // An Error too: this thread may be the store's only writer, and if it died every later grant
                // would wait for ever.
                for (Op op : group) {
                    op.done().completeExceptionally(e);
                }
            }
            for (Op op : group) {
                // A runner must settle every op; one that did not is a bug, and its caller must not hang on it.
                if (!op.done().isDone()) {
                    op.done().completeExceptionally(new StoreException("a grant was left unanswered", null));
                }
            }
            if (stop) {
                return;
            }
        }
    }

    private void failPending() {
        for (Op op = queue.poll(); op != null; op = queue.poll()) {
            if (op != STOP) {
                op.done().completeExceptionally(new StoreException("the store is closed", null));
            }
        }
    }

    /** Lets the writers finish the groups already queued, then stops them; bounded. */
    @Override
    public void close() {
        closed = true;
        for (int i = 0; i < writers.size(); i++) {
            queue.add(STOP);
        }
        for (Thread writer : writers) {
            try {
                writer.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        failPending();
    }
}
