package dev.idempotent.seatgrant.server.internal;

import dev.idempotent.seatgrant.server.JournalEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * The last {@code capacity} requests to the seat API, faulted ones included, as a ring: past the bound the
 * oldest entry is overwritten, so memory stays flat however long the server runs. The ledger comes from the
 * store, not from here, so a wrapped journal never changes what the ledger says.
 *
 * <p>An entry takes its {@code seq} when its outcome is known (an answer chosen, or a fault struck). One whose
 * answer is still being written is <em>unsettled</em> until the write completes or fails; {@link #after} stops
 * before the first unsettled entry, so a reader that follows the journal with {@code after=SEQ} never skips
 * an entry and never sees one change after it was read.
 *
 * <p>Thread-safe: one lock, held for array arithmetic only; renders take turns on a chain of their own.
 */
public final class Journal {

    /** The default bound: ample for any demo or test; about 40 MB when full of typical entries (measured). */
    public static final int DEFAULT_CAPACITY = 100_000;

    private final JournalEntry[] ring;
    private final boolean[] settled;
    private final boolean forwarded;
    private long next = 1;
    private long oldest = 1;
    private final Object renderTurns = new Object();
    /** Completes (with null, holding no render) when the last render handed in has finished. */
    private CompletableFuture<Void> lastRender = CompletableFuture.completedFuture(null);

    /**
     * @param forwarded true for a proxy's journal: its entries say which operation each request belonged to and
     *                  what the upstream answered, and the admin API lists those fields on every entry
     */
    public Journal(int capacity, boolean forwarded) {
        if (capacity < 1) {
            throw new IllegalArgumentException("journal capacity must be at least 1");
        }
        ring = new JournalEntry[capacity];
        settled = new boolean[capacity];
        this.forwarded = forwarded;
    }

    /** A seat server's journal. */
    public Journal(int capacity) {
        this(capacity, false);
    }

    public Journal() {
        this(DEFAULT_CAPACITY);
    }

    /** True for a proxy's journal (see the constructor). */
    public boolean forwarded() {
        return forwarded;
    }

    public int capacity() {
        return ring.length;
    }

    /**
     * Appends an entry, giving it the next {@code seq}, and returns that seq.
     *
     * @param isSettled false when a response is still being written ({@link #settle} follows)
     */
    public synchronized long record(JournalEntry entry, boolean isSettled) {
        long seq = next++;
        int slot = slot(seq);
        ring[slot] = entry.withSeq(seq);
        settled[slot] = isSettled;
        if (seq - oldest >= ring.length) {
            oldest = seq - ring.length + 1;
        }
        return seq;
    }

    /**
     * Says whether the response of entry {@code seq} reached the socket; a no-op once the ring has moved past it.
     *
     * @param answeredMs milliseconds from the request's first byte until its response reached the socket; null
     *                   when it did not ({@code sent: false})
     */
    public synchronized void settle(long seq, Long answeredMs) {
        if (seq < oldest || seq >= next) {
            return;
        }
        int slot = slot(seq);
        ring[slot] = ring[slot].withAnswer(answeredMs);
        settled[slot] = true;
    }

    /** Every retained entry, oldest first; unsettled ones read {@code sent: false}. */
    public synchronized List<JournalEntry> snapshot() {
        List<JournalEntry> out = new ArrayList<>((int) (next - oldest));
        for (long seq = oldest; seq < next; seq++) {
            out.add(ring[slot(seq)]);
        }
        return out;
    }

    /** The retained entries with {@code seq > after}, oldest first, up to (not including) the first unsettled one. */
    public synchronized List<JournalEntry> after(long after) {
        List<JournalEntry> out = new ArrayList<>();
        for (long seq = Math.max(oldest, after + 1); seq < next; seq++) {
            int slot = slot(seq);
            if (!settled[slot]) {
                break;
            }
            out.add(ring[slot]);
        }
        return out;
    }

    /**
     * Runs {@code render} on {@code executor} once every render handed in before it has finished, so at most one
     * runs at a time. Rendering the whole journal builds tens of megabytes of JSON (about 40 MB when full), and a
     * durable server's heap is 256 MB: readers polling at once must take turns, not each hold a copy. Nothing
     * blocks while a render waits for its turn; a render that fails does not hold up the next.
     */
    public <T> CompletableFuture<T> renderInTurn(Supplier<T> render, Executor executor) {
        synchronized (renderTurns) {
            CompletableFuture<T> mine = lastRender.thenApplyAsync(ignored -> render.get(), executor);
            lastRender = mine.handle((result, failure) -> null);
            return mine;
        }
    }

    /** Forgets every entry; seq carries on, so a follower's {@code after} stays meaningful. */
    public synchronized void clear() {
        for (long seq = oldest; seq < next; seq++) {
            ring[slot(seq)] = null;
        }
        oldest = next;
    }

    private int slot(long seq) {
        return (int) (seq % ring.length);
    }
}
