package dev.idempotent.seatgrant.server.internal.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.seatgrant.server.Seat;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * SQLite's write-ahead log starts again from its beginning while grants never stop ({@code
 * JdbcSeatStore.checkpointLoop}). SQLite restarts the log only when a checkpoint has copied all of it, and a
 * passive checkpoint never quite catches up with a writer that never pauses; so without the checkpoint under the
 * store lock the log would grow for as long as the load lasts, by some 9 KB a grant. Every restart writes a new
 * log header with the next checkpoint sequence number (bytes 12 to 15, big-endian), which is what this counts.
 * Tagged {@code load}: the mutation run leaves it out (see fake-server/pom.xml); the normal suite runs it.
 */
@Tag("load")
class SqliteLogRestartTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final int GRANTERS = 8;
    private static final int RESTARTS = 3;

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void theLogStartsAgainWhileGrantsNeverStopAndKeepsEveryGrant() throws Exception {
        DbSpec spec = DbSpec.parse("sqlite:" + dir.resolve("seats"));
        Path log = Path.of(spec.storeFile() + "-wal");
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong granted = new AtomicLong();
        List<Integer> sequences = new ArrayList<>();
        try (SeatStore store = SeatStore.open(spec, 8)) {
            List<CompletableFuture<Void>> granters = new ArrayList<>();
            for (int g = 0; g < GRANTERS; g++) {
                granters.add(CompletableFuture.runAsync(() -> {
                    while (!stop.get()) {
                        // A random key, as a UUID client sends: each grant lands on a random page of the key index.
                        String key = UUID.randomUUID().toString();
                        Seat seat = new Seat("seat_" + key, "ws", "user", "member", T0);
                        if (store.grant(key, "h", seat, T0).join()) {
                            granted.incrementAndGet();
                        }
                    }
                }));
            }
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
                while (distinct(sequences) <= RESTARTS && System.nanoTime() < deadline) {
                    Integer sequence = checkpointSequence(log);
                    Integer last = sequences.isEmpty() ? null : sequences.get(sequences.size() - 1);
                    if (sequence != null && !sequence.equals(last)) {
                        sequences.add(sequence);
                    }
                    Thread.sleep(10);
                }
            } finally {
                stop.set(true);
                CompletableFuture.allOf(granters.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
            }
            assertTrue(distinct(sequences) > RESTARTS, "the log started again " + (distinct(sequences) - 1)
                    + " times in 90 s of grants that never paused (" + granted.get() + " grants): " + sequences);
            assertEquals(granted.get(), store.ledger().seats(), "every grant kept across the restarts");
            assertEquals(granted.get(), store.ledger().keys());
        }
    }

    private static int distinct(List<Integer> sequences) {
        return (int) sequences.stream().distinct().count();
    }

    /** The log header's checkpoint sequence number, or null while there is no complete header to read. */
    private static Integer checkpointSequence(Path log) throws IOException {
        if (!Files.exists(log)) {
            return null;
        }
        try (FileChannel channel = FileChannel.open(log, StandardOpenOption.READ)) {
            ByteBuffer header = ByteBuffer.allocate(16);
            while (header.hasRemaining() && channel.read(header, header.position()) > 0) {
                // read the rest
            }
            return header.hasRemaining() ? null : header.getInt(12);
        }
    }
}
