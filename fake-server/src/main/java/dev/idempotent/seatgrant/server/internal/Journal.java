package dev.idempotent.seatgrant.server.internal;

import dev.idempotent.seatgrant.server.JournalEntry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The last requests to the seat API, faulted ones included, as a ring bounded twice: by count
 * ({@code capacity}) and by the heap its entries hold ({@link #MAX_BYTES}, estimated). Past either bound the
 * oldest entry goes, so memory stays flat however long the server runs and whatever its clients send. Each
 * string a client chose is cut to its first {@link JournalEntry#MAX_CLIENT_STRING_BYTES} on the way in
 * ({@code cut: true}). The ledger comes from the store, not from here, so a wrapped journal never changes what the
 * ledger says.
 *
 * <p>An entry takes its {@code seq} when its outcome is known (an answer chosen, or a fault struck). One whose
 * answer is still being written is <em>unsettled</em> until the write completes or fails, or until
 * {@link #SETTLE_WAIT} passes: an answer that has waited that long on its reader (a client that stopped reading)
 * is settled as not sent ({@code sent: false}) for good, and a later end of its write changes nothing.
 * {@link #slice} can stop before the first unsettled entry, so a reader that follows the journal with
 * {@code after=SEQ} never skips an entry and never sees one change after it was read, and a client that stops
 * reading holds the entries after its own back for at most {@link #SETTLE_WAIT}.
 *
 * <p>Thread-safe: one lock, held for array arithmetic only. The ring's array grows as entries come, up to the
 * capacity, so a large capacity costs nothing until it is used.
 */
public final class Journal {

    /** The default bound on entries: ample for any demo or test. */
    public static final int DEFAULT_CAPACITY = 100_000;

    /** The bound on the heap the entries hold, whatever the capacity: at most 64 MiB, estimated per entry. */
    public static final long MAX_BYTES = 64L * 1024 * 1024;

    /** How long an answer may wait on its reader before its entry is settled as not sent, for good. */
    public static final Duration SETTLE_WAIT = Duration.ofSeconds(1);

    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    /** The fixed cost of an entry in the heap: the record, its time, its boxed numbers and the ring's slot. */
    private static final int ENTRY_OVERHEAD_BYTES = 200;

    /** A place in the ring: an entry and whether its answer is settled. */
    private static final class Slot {
        JournalEntry entry;
        boolean settled;
        long recordedNanos;
        int bytes;
    }

    /** What one {@link #slice} found. */
    public record Slice(List<JournalEntry> entries, boolean more, long through) {
        /**
         * @param entries the entries read, oldest first
         * @param more    true when the journal holds entries past the last one read (within the slice's upper
         *                bound) that were not read: the slice was full, or stopped before an unsettled entry
         * @param through the seq to read on after: the last entry read, or the seq before the first one it could
         *                have read
         */
        public Slice {
            entries = List.copyOf(entries);
        }
    }

    private final int capacity;
    private final long maxBytes;
    private final long settleWaitNanos;
    private final LongSupplier nanoTime;
    private final boolean forwarded;
    private Slot[] ring = new Slot[16];
    /** Where the oldest entry's slot is in {@link #ring}. */
    private int head;
    private int size;
    private long bytes;
    private long next = 1;

    /** A seat server's journal. */
    public Journal(int capacity) {
        this(capacity, false);
    }

    /**
     * @param forwarded true for a proxy's journal: its entries say which operation each request belonged to and
     *                  what the upstream answered, and the admin API lists those fields on every entry
     */
    public Journal(int capacity, boolean forwarded) {
        this(capacity, MAX_BYTES, SETTLE_WAIT, System::nanoTime, forwarded);
    }

    public Journal() {
        this(DEFAULT_CAPACITY);
    }

    /**
     * @param nanoTime the clock {@code settleWait} is measured by ({@link System#nanoTime()} but in tests)
     */
    Journal(int capacity, long maxBytes, Duration settleWait, LongSupplier nanoTime) {
        this(capacity, maxBytes, settleWait, nanoTime, false);
    }

    private Journal(int capacity, long maxBytes, Duration settleWait, LongSupplier nanoTime, boolean forwarded) {
        if (capacity < 1) {
            throw new IllegalArgumentException("journal capacity must be at least 1");
        }
        if (maxBytes < 1) {
            throw new IllegalArgumentException("journal bytes must be at least 1");
        }
        this.capacity = capacity;
        this.maxBytes = maxBytes;
        this.settleWaitNanos = settleWait.toNanos();
        this.nanoTime = nanoTime;
        this.forwarded = forwarded;
    }

    public int capacity() {
        return capacity;
    }

    /** True for a proxy's journal (see {@link #Journal(int, boolean)}). */
    public boolean forwarded() {
        return forwarded;
    }

    /** The seq of the newest entry given out (kept or not), 0 before the first. */
    public synchronized long lastSeq() {
        return next - 1;
    }

    /** The heap the entries kept now hold, as estimated: at most {@link #MAX_BYTES}. */
    public synchronized long bytes() {
        return bytes;
    }

    /** How much of the heap {@code entry} holds in the journal, as estimated for the byte bound. */
    static int estimatedBytes(JournalEntry entry) {
        return ENTRY_OVERHEAD_BYTES + stringBytes(entry.method()) + stringBytes(entry.path())
                + stringBytes(entry.idempotencyKey()) + stringBytes(entry.workspaceId()) + stringBytes(entry.userId())
                + stringBytes(entry.fault()) + stringBytes(entry.seatId()) + stringBytes(entry.operation())
                + stringBytes(entry.upstreamError());
    }

    /**
     * A string's header and array: one byte a character while every character is Latin-1 (a compact string),
     * two otherwise.
     */
    private static int stringBytes(String s) {
        if (s == null) {
            return 0;
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) > 0xFF) {
                return 40 + 2 * s.length();
            }
        }
        return 40 + s.length();
    }

    /**
     * Appends an entry, cutting what its client chose to the first
     * {@link JournalEntry#MAX_CLIENT_STRING_BYTES}, gives it the next {@code seq}, and returns that seq.
     *
     * @param isSettled false when a response is still being written ({@link #settle} follows)
     */
    public synchronized long record(JournalEntry entry, boolean isSettled) {
        long seq = next++;
        Slot slot = new Slot();
        slot.entry = entry.withClientStringsCut().withSeq(seq);
        slot.settled = isSettled;
        slot.recordedNanos = nanoTime.getAsLong();
        slot.bytes = estimatedBytes(slot.entry);
        while (size > 0 && (size >= capacity || bytes + slot.bytes > maxBytes)) {
            dropOldest();
        }
        if (size == ring.length) {
            grow();
        }
        ring[(head + size) % ring.length] = slot;
        size++;
        bytes += slot.bytes;
        return seq;
    }

    /**
     * Says whether the response of entry {@code seq} reached the socket; a no-op once the ring has moved past it,
     * and for an entry already settled (one given up on after {@link #SETTLE_WAIT} included).
     *
     * @param answeredMs milliseconds from the request's first byte until its response reached the socket; null
     *                   when it did not ({@code sent: false})
     */
    public synchronized void settle(long seq, Long answeredMs) {
        Slot slot = slot(seq);
        if (slot == null || slot.settled) {
            return;
        }
        slot.settled = true;
        slot.entry = slot.entry.withAnswer(expired(slot, nanoTime.getAsLong()) ? null : answeredMs);
        notifyAll();
    }

    /** Every retained entry, oldest first; unsettled ones read {@code sent: false}. */
    public synchronized List<JournalEntry> snapshot() {
        return slice(0, Long.MAX_VALUE, Integer.MAX_VALUE, false).entries();
    }

    /**
     * Every retained entry, oldest first, once none is waiting for its answer to be written, or once {@code max} has
     * passed: what a test reads after its client got its answers, when the server may not yet have heard that the
     * last one reached the socket. An answer its reader is not taking is settled as not sent after
     * {@link #SETTLE_WAIT}, so a wait a little longer than that always ends with every entry settled.
     *
     * @throws InterruptedException if interrupted while waiting
     */
    public synchronized List<JournalEntry> settledSnapshot(Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        for (long left = max.toNanos(); left > 0 && !allSettled(); left = deadline - System.nanoTime()) {
            // settle() wakes the wait; the poll is for answers that expire while no one settles them.
            TimeUnit.NANOSECONDS.timedWait(this, Math.min(left, POLL_NANOS));
        }
        return snapshot();
    }

    /**
     * {@link #settledSnapshot(Duration)} with a bound a second past this journal's settle wait, so it ends with every
     * entry settled; if interrupted, the entries as they stand (the interrupt stays set): what a test's
     * {@code journal()} reads.
     */
    public List<JournalEntry> settledSnapshot() {
        try {
            return settledSnapshot(Duration.ofNanos(settleWaitNanos).plusSeconds(1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return snapshot();
        }
    }

    /** Whether every retained entry is settled, settling as not sent any that waited past {@link #SETTLE_WAIT}. */
    private boolean allSettled() {
        return slice(0, Long.MAX_VALUE, Integer.MAX_VALUE, true).entries().size() == size;
    }

    /** The retained entries with {@code seq > after}, oldest first, up to (not including) the first unsettled one. */
    public synchronized List<JournalEntry> after(long after) {
        return slice(after, Long.MAX_VALUE, Integer.MAX_VALUE, true).entries();
    }

    /**
     * Up to {@code max} retained entries with {@code after < seq <= upTo}, oldest first. With
     * {@code settledOnly}, it stops before the first unsettled entry (settling first, as not sent, any that has
     * waited longer than {@link #SETTLE_WAIT}); otherwise an unsettled entry reads {@code sent: false}. An
     * {@code after} older than the oldest entry kept starts at the oldest; one at or past the newest reads
     * nothing.
     */
    public synchronized Slice slice(long after, long upTo, int max, boolean settledOnly) {
        long oldest = next - size;
        long last = Math.min(upTo, next - 1);
        if (after >= last) {
            // Also the guard against after + 1 overflowing for after = Long.MAX_VALUE.
            return new Slice(List.of(), false, Math.max(after, oldest - 1));
        }
        long from = Math.max(after + 1, oldest);
        List<JournalEntry> out = new ArrayList<>((int) Math.min(max, Math.min(last - from + 1, 1024)));
        long now = nanoTime.getAsLong();
        long seq = from;
        for (; seq <= last && out.size() < max; seq++) {
            Slot slot = slot(seq);
            if (!slot.settled && settledOnly) {
                if (!expired(slot, now)) {
                    break;
                }
                slot.settled = true;
                slot.entry = slot.entry.withAnswer(null);
            }
            out.add(slot.entry);
        }
        return new Slice(out, seq <= last, seq - 1);
    }

    /** Forgets every entry; seq carries on, so a follower's {@code after} stays meaningful. */
    public synchronized void clear() {
        while (size > 0) {
            dropOldest();
        }
    }

    private boolean expired(Slot slot, long now) {
        return now - slot.recordedNanos > settleWaitNanos;
    }

    /** The slot of entry {@code seq}; null when the ring no longer (or does not yet) hold it. */
    private Slot slot(long seq) {
        long oldest = next - size;
        if (seq < oldest || seq >= next) {
            return null;
        }
        return ring[(int) ((head + (seq - oldest)) % ring.length)];
    }

    private void dropOldest() {
        bytes -= ring[head].bytes;
        ring[head] = null;
        head = (head + 1) % ring.length;
        size--;
    }

    private void grow() {
        Slot[] bigger = new Slot[(int) Math.min((long) ring.length * 2, Math.max(capacity, ring.length))];
        for (int i = 0; i < size; i++) {
            bigger[i] = ring[(head + i) % ring.length];
        }
        ring = bigger;
        head = 0;
    }
}
