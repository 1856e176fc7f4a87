package dev.idempotent.seatgrant.server.internal.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.seatgrant.server.Seat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The H2 file store ({@code --db h2:PATH}) keeps its file compact. Every grant rewrites one random leaf of the keys' index, and
 * the chunk that held the old leaf usually keeps a few live pages of the tables that only grow at their end, so
 * few chunks ever empty by themselves. Something must rewrite such chunks: the store's writer does, a slice at a
 * time between group commits ({@code JdbcSeatStore.compactSlice}), with H2's own compaction switched off. With
 * neither (as when the store opened files with {@code WRITE_DELAY=0}, which starts no H2 background thread) the
 * file grew by about 7 KB per grant for ever.
 *
 * <p>The store is opened with the settings a file path gets, plus one change: {@code RETENTION_TIME=0}. H2
 * reuses a dead chunk's space only after the retention time (45 s by default, so a power loss finds the
 * chunks the last durable header points at), and a test cannot wait that long.
 */
class H2FileCompactionTest {

    private static final int GRANTS = 25_000;
    private static final int IN_FLIGHT = 64;
    /**
     * What a grant may add to the file. The live rows and index entries of a grant take about 0.4 KB; with the
     * writer's compaction 25,000 grants left 0.7 to 0.8 KB each on this project's 2-core machine, and without any
     * compaction 2.5 KB (and 7 KB under the default retention time). A slice is compacted at most every 50 ms, so
     * a much faster machine fits more grants between two slices and may leave more per grant; the bound leaves it
     * twice the room measured here.
     */
    private static final long MAX_BYTES_PER_GRANT = 1_536;

    @TempDir
    Path dir;

    @Test
    void grantsThatRewriteRandomPagesLeaveTheFileCompact() throws Exception {
        DbSpec path = DbSpec.parse("h2:" + dir.resolve("seats"));
        DbSpec spec = new DbSpec(path.kind(), path.jdbcUrl() + ";RETENTION_TIME=0", path.description(), path.file());
        try (JdbcSeatStore store = JdbcSeatStore.open(spec, 4)) {
            Instant now = Instant.parse("2026-12-01T00:00:00Z");
            for (int sent = 0; sent < GRANTS; sent += IN_FLIGHT) {
                // A wave of grants in flight together, as from a load generator's connections: group commit
                // writes them in a few transactions, each with its own random pages of the keys' index.
                List<CompletableFuture<Boolean>> wave = new ArrayList<>(IN_FLIGHT);
                for (int i = sent; i < Math.min(GRANTS, sent + IN_FLIGHT); i++) {
                    Seat seat = new Seat(String.format(Locale.ROOT, "seat_%016x%016x", i, i), "ws_1", "user_1",
                            "member", now);
                    wave.add(store.grant(UUID.randomUUID().toString(), "hash", seat, now));
                }
                for (CompletableFuture<Boolean> grant : wave) {
                    assertTrue(grant.get(30, TimeUnit.SECONDS));
                }
            }
            assertEquals(GRANTS, store.ledger().seats());
            // Measured while the store is open, as a server that runs for days is.
            long size = Files.size(dir.resolve("seats.mv.db"));
            assertTrue(size <= GRANTS * MAX_BYTES_PER_GRANT, () -> String.format(Locale.ROOT,
                    "%,d grants left a file of %,d bytes (%,d per grant)", GRANTS, size, size / GRANTS));
        }
    }
}
