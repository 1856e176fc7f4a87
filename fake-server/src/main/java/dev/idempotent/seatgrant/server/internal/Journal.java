package dev.idempotent.seatgrant.server.internal;

import dev.idempotent.seatgrant.server.JournalEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Every request to the seat API, faulted ones included, in arrival order. A request takes its place in line
 * when it arrives and its entry appears once its outcome is known.
 *
 * <p>Thread-safe. Bounded: past {@link #CAPACITY} entries the oldest are dropped.
 */
public final class Journal {

    public static final int CAPACITY = 100_000;

    private final AtomicLong sequence = new AtomicLong();
    private final ConcurrentSkipListMap<Long, JournalEntry> entries = new ConcurrentSkipListMap<>();

    /** Reserves this request's place in arrival order. */
    public long arrive() {
        return sequence.incrementAndGet();
    }

    public void record(long place, JournalEntry entry) {
        entries.put(place, entry);
        while (entries.size() > CAPACITY) {
            entries.pollFirstEntry();
        }
    }

    public List<JournalEntry> snapshot() {
        return new ArrayList<>(entries.values());
    }

    public void clear() {
        entries.clear();
    }
}
