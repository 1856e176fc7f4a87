package dev.idempotent.seatgrant.server.internal.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.seatgrant.server.Ledger;
import dev.idempotent.seatgrant.server.Seat;
import dev.idempotent.seatgrant.server.internal.store.SeatStore.ClaimResult;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The store contract on the in-memory store ({@code --db mem}), and what its layout (strings in large byte
 * arrays, columns in pages, hash tables that split their buckets) could get wrong that the contract's handful of
 * seats would not show.
 */
class MemorySeatStoreTest extends SeatStoreContract {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @Override
    DbSpec freshDatabase() {
        return DbSpec.parse("mem");
    }

    @Override
    boolean earlierVersionsMadeSuchStores() {
        return false;
    }

    @Test
    void tensOfThousandsOfSeatsAreEachFoundByKeyIdAndUserAfterEveryTableGrew() {
        try (MemorySeatStore store = new MemorySeatStore()) {
            int n = 20_000; // past a page of the row columns, and past one arena chunk (with 64-char hashes)
            for (int i = 0; i < n; i++) {
                Seat seat = new Seat("seat-" + i, "ws-" + (i % 7), "user-" + (i % 1000), "member",
                        T0.plusMillis(i));
                assertTrue(store.grant("key-" + i, hashOf(i), seat, T0).join());
            }
            for (int i = 0; i < n; i += 997) {
                Seat expected = new Seat("seat-" + i, "ws-" + (i % 7), "user-" + (i % 1000), "member",
                        T0.plusMillis(i));
                assertEquals(expected, store.find("seat-" + i).orElseThrow());
                assertEquals(new ClaimResult.Completed(expected),
                        store.claim("key-" + i, hashOf(i), "someone", T0, Duration.ofSeconds(1)));
                assertInstanceOf(ClaimResult.Mismatch.class,
                        store.claim("key-" + i, "other", "someone", T0, Duration.ofSeconds(1)));
            }
            assertTrue(store.find("seat-" + n).isEmpty());
            assertEquals(new ClaimResult.Claimed(false),
                    store.claim("key-" + n, "h", "someone", T0, Duration.ofSeconds(1)));

            // user-5 in ws-5 holds the seats i = 5 + 7000k (i % 7 == 5 and i % 1000 == 5): 5, 7005, 14005.
            List<String> ids = store.list("ws-5", "user-5", 100).stream().map(Seat::id).toList();
            assertEquals(List.of("seat-5", "seat-7005", "seat-14005"), ids);
            Ledger ledger = store.ledger();
            assertEquals(n, ledger.seats());
            assertEquals(n + 1, ledger.keys(), "every written key and the claim in flight");
            assertEquals(1000, ledger.duplicates().size(), "7,000 users hold more than one seat; a thousand are shown");
            assertEquals(new Ledger.Duplicate("ws-0", "user-0", List.of("seat-0", "seat-7000", "seat-14000"),
                    List.of("key-0", "key-7000", "key-14000")), ledger.duplicates().get(0));
        }
    }

    /** A request hash as long as the server's (a SHA-256 in hex), different for each seat. */
    private static String hashOf(int i) {
        return String.format("%064x", i);
    }

    @Test
    void aColumnGrowsItsPageListAndKeepsEveryValue() {
        MemorySeatStore.IntColumn ints = new MemorySeatStore.IntColumn();
        MemorySeatStore.LongColumn longs = new MemorySeatStore.LongColumn();
        int n = 300_000; // more pages than the page list starts with
        for (int i = 0; i < n; i++) {
            ints.set(i, i * 7);
            longs.set(i, i * 1_000_000_007L);
        }
        for (int i = 0; i < n; i += 101) {
            assertEquals(i * 7, ints.get(i));
            assertEquals(i * 1_000_000_007L, longs.get(i));
        }
        assertEquals((n - 1) * 7, ints.get(n - 1));
    }

    @Test
    void seatsAddedOutOfTimeOrderAreListedOldestFirst() {
        try (MemorySeatStore store = new MemorySeatStore()) {
            List<Integer> seconds = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                seconds.add(i);
            }
            // Nearly in order, as a group commit's seats are, then one far older than all, then a tie on time.
            seconds.set(10, 12);
            seconds.set(12, 10);
            seconds.add(-100);
            for (int i = 0; i < seconds.size(); i++) {
                store.insertWithoutKey(new Seat("s" + (char) ('a' + i), "ws", "u", "member",
                        T0.plusSeconds(seconds.get(i))));
            }
            store.insertWithoutKey(new Seat("s0", "ws", "u", "member", T0.plusSeconds(5)));

            List<Seat> listed = store.list(null, null, 1000);
            List<Seat> byUser = store.list("ws", "u", 1000);
            assertEquals(listed, byUser);
            assertEquals(seconds.size() + 1, listed.size());
            for (int i = 1; i < listed.size(); i++) {
                Seat before = listed.get(i - 1);
                Seat after = listed.get(i);
                int order = before.createdAt().compareTo(after.createdAt());
                assertTrue(order < 0 || order == 0 && before.id().compareTo(after.id()) < 0, listed::toString);
            }
            assertEquals(T0.plusSeconds(-100), listed.get(0).createdAt());
            assertEquals(List.of("s0", "sf"), listed.subList(6, 8).stream().map(Seat::id).toList(),
                    "a tie on time goes by id");
            assertEquals(listed.subList(0, 3), store.list(null, null, 3));
            assertEquals(listed.stream().map(Seat::id).toList(),
                    store.ledger().duplicates().get(0).seatIds());
        }
    }

    @Test
    void everyStringReadsBackAsItCameAndDifferentOnesNeverMatch() {
        try (MemorySeatStore store = new MemorySeatStore()) {
            // Lone surrogates, which UTF-8 cannot write (getBytes would make both "?"), a pair, and non-ASCII text.
            String loneHigh = "u\uD800";
            String loneLow = "u\uDC00";
            String pair = "u\uD83D\uDE00";
            String big = "x".repeat(MemorySeatStore.Arena.CHUNK + 10); // longer than an arena chunk
            List<Seat> seats = List.of(
                    new Seat("s1", "ws-é", loneHigh, "member", T0),
                    new Seat("s2", "ws-é", loneLow, "member", T0),
                    new Seat("s3", "ws-日本", pair, "admin", T0),
                    new Seat("s4", "ws", big, "viewer", T0),
                    new Seat("s5", "ws", "after-the-big-one", "member", T0));
            for (Seat seat : seats) {
                assertTrue(store.grant("key-" + seat.id() + "\uD800", "h", seat, T0).join());
            }
            for (Seat seat : seats) {
                assertEquals(seat, store.find(seat.id()).orElseThrow());
                assertEquals(List.of(seat), store.list(seat.workspaceId(), seat.userId(), 10));
                assertEquals(new ClaimResult.Completed(seat),
                        store.peek("key-" + seat.id() + "\uD800", "h", T0));
            }
            assertEquals(new ClaimResult.InProgress(T0), store.peek("key-s1\uDC00", "h", T0));
            assertEquals(List.of(), store.ledger().duplicates());
        }
    }

    @Test
    void theIndexFindsEveryEntryAsItSplitsItsBuckets() {
        MemorySeatStore.Index index = new MemorySeatStore.Index();
        int n = 100_000;
        for (int value = 0; value < n; value++) {
            index.put(value % 5000, value); // twenty entries to each hash: the caller's match decides among them
            if (value < 20_000 && value % 500 == 0) {
                assertAllFound(index, value + 1);
            }
        }
        assertAllFound(index, n);
        assertTrue(index.directorySize() > 64, "the buckets split: " + index.directorySize());
        assertEquals(-1, index.find(42, v -> v == n), "an entry never put");
        assertEquals(-1, index.find(5001, v -> true), "a hash never put");
    }

    @Test
    void entriesThatAllHashAlikeGrowTheirBucketInPlace() {
        MemorySeatStore.Index index = new MemorySeatStore.Index();
        int n = 3 * MemorySeatStore.Index.BUCKET; // more than one bucket holds, and no split can part them
        for (int value = 0; value < n; value++) {
            index.put(7, value);
        }
        assertAllFound(index, n, v -> 7);
        assertEquals(1 << MemorySeatStore.Index.MAX_DEPTH, index.directorySize());
    }

    private static void assertAllFound(MemorySeatStore.Index index, int count) {
        assertAllFound(index, count, v -> v % 5000);
    }

    private static void assertAllFound(MemorySeatStore.Index index, int count, IntUnaryOperator hashOf) {
        for (int value = 0; value < count; value++) {
            int expected = value;
            assertEquals(expected, index.find(hashOf.applyAsInt(value), v -> v == expected), () -> "entry " + expected);
        }
    }

    @Test
    void theEncodingRoundTripsEveryChar() {
        StringBuilder all = new StringBuilder();
        for (char c = 0; c < Character.MAX_VALUE; c++) {
            all.append(c);
        }
        all.append(Character.MAX_VALUE);
        String s = all.toString();
        byte[] encoded = MemorySeatStore.Arena.encode(s);
        assertEquals(s, MemorySeatStore.Arena.decode(encoded, 0, encoded.length));
    }
}
