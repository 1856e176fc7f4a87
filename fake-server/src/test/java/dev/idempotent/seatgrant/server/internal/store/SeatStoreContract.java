package dev.idempotent.seatgrant.server.internal.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.seatgrant.server.Ledger;
import dev.idempotent.seatgrant.server.Seat;
import dev.idempotent.seatgrant.server.internal.store.SeatStore.ClaimResult;
import dev.idempotent.seatgrant.server.internal.store.SeatStore.CompleteResult;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The store's contract, run against every store (SQLite, H2, PostgreSQL and the in-memory one): the same
 * scenarios, one suite. Time is passed in, so lease expiry is tested without waiting.
 */
abstract class SeatStoreContract {

    private static final Duration LEASE = Duration.ofSeconds(10);
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private SeatStore store;
    /** The database {@link #store} is open on. */
    private DbSpec spec;

    abstract DbSpec freshDatabase();

    /**
     * Whether earlier versions of this server made stores of this kind, which may carry the seats' old unique
     * index (see {@link #aStoreWithTheOldUniqueIndexLosesItAndKeepsItsSeats}).
     */
    boolean earlierVersionsMadeSuchStores() {
        return true;
    }

    @BeforeEach
    void open() {
        spec = freshDatabase();
        store = SeatStore.open(spec, 4);
    }

    @AfterEach
    void close() {
        store.close();
    }

    private static Seat seat(String id, String userId) {
        return new Seat(id, "ws", userId, "member", T0);
    }

    @Test
    void aClaimedKeyCompletesOnceAndThenReplays() {
        assertEquals(new ClaimResult.Claimed(false), store.claim("k", "h", "a", T0, LEASE));

        assertEquals(new CompleteResult.Committed(seat("s1", "u")), store.complete("k", "a", seat("s1", "u")));

        assertEquals(new ClaimResult.Completed(seat("s1", "u")), store.claim("k", "h", "b", T0.plusSeconds(1), LEASE));
        assertEquals(new ClaimResult.Mismatch(), store.claim("k", "other", "c", T0.plusSeconds(1), LEASE));
        assertEquals(1, store.ledger().seats());
        assertEquals(1, store.ledger().keys());
    }

    @Test
    void aLiveClaimIsInProgressForOthers() {
        store.claim("k", "h", "a", T0, LEASE);

        ClaimResult other = store.claim("k", "h", "b", T0.plusSeconds(5), LEASE);

        assertEquals(new ClaimResult.InProgress(T0.plus(LEASE)), other);
        assertEquals(new ClaimResult.Mismatch(), store.claim("k", "other", "c", T0.plusSeconds(5), LEASE));
    }

    @Test
    void anExpiredClaimIsTakenOverAndTheStalledHolderWritesNothing() {
        store.claim("k", "h", "crashed", T0, LEASE);

        ClaimResult takeover = store.claim("k", "h", "rescuer", T0.plus(LEASE).plusMillis(1), LEASE);
        assertEquals(new ClaimResult.Claimed(true), takeover);

        // The first holder wakes up and tries to finish: it no longer owns the key, so no second seat.
        assertEquals(new CompleteResult.LostClaim(), store.complete("k", "crashed", seat("s-stale", "u")));
        assertEquals(new CompleteResult.Committed(seat("s-new", "u")), store.complete("k", "rescuer", seat("s-new", "u")));
        Ledger ledger = store.ledger();
        assertEquals(1, ledger.seats());
        assertEquals(List.of(), ledger.duplicates());
        assertTrue(store.find("s-stale").isEmpty());
    }

    @Test
    void peekReportsWithoutTakingOver() {
        assertEquals(new ClaimResult.InProgress(T0), store.peek("nobody", "h", T0));
        store.claim("k", "h", "a", T0, LEASE);
        Instant expired = T0.plus(LEASE).plusSeconds(1);

        assertEquals(new ClaimResult.InProgress(T0.plus(LEASE)), store.peek("k", "h", expired));
        assertEquals(new ClaimResult.Mismatch(), store.peek("k", "other", expired));
        assertEquals(new CompleteResult.Committed(seat("s1", "u")), store.complete("k", "a", seat("s1", "u")));
        assertEquals(new ClaimResult.Completed(seat("s1", "u")), store.peek("k", "h", expired));
    }

    @Test
    void aReleasedClaimCanBeClaimedAgain() {
        store.claim("k", "h", "a", T0, LEASE);
        store.release("k", "a");

        assertEquals(new ClaimResult.Claimed(false), store.claim("k", "h", "b", T0, LEASE));
    }

    @Test
    void keylessSeatsAreNeverDedupedAndTheLedgerShowsThem() {
        store.insertWithoutKey(seat("s1", "u"));
        store.insertWithoutKey(new Seat("s2", "ws", "u", "member", T0.plusSeconds(1)));
        store.insertWithoutKey(seat("s3", "someone-else"));

        Ledger ledger = store.ledger();
        assertEquals(3, ledger.seats());
        assertEquals(List.of(new Ledger.Duplicate("ws", "u", List.of("s1", "s2"), List.of())), ledger.duplicates());
        assertEquals(2, store.list("ws", "u", 100).size());
        assertEquals(3, store.list(null, null, 100).size());
        assertEquals(seat("s3", "someone-else"), store.find("s3").orElseThrow());
    }

    @Test
    void aGrantOfAKeyThatExistsWritesNothing() {
        assertTrue(store.grant("k", "h", seat("s1", "u"), T0).join());

        assertEquals(false, store.grant("k", "h", seat("s2", "u"), T0.plusSeconds(1)).join());
        assertEquals(false, store.grant("k", "other", seat("s3", "u"), T0.plusSeconds(1)).join());
        assertEquals(new ClaimResult.Completed(seat("s1", "u")), store.claim("k", "h", "b", T0.plusSeconds(2), LEASE));
        assertEquals(1, store.ledger().seats());
        assertTrue(store.find("s2").isEmpty());
    }

    @Test
    void aGrantOfAKeySomeoneHoldsWritesNothing() {
        store.claim("k", "h", "holder", T0, LEASE);

        assertEquals(false, store.grant("k", "h", seat("s-grant", "u"), T0.plusSeconds(1)).join());
        assertEquals(new CompleteResult.Committed(seat("s-held", "u")), store.complete("k", "holder", seat("s-held", "u")));
        assertEquals(new CompleteResult.LostClaim(), store.complete("k", "holder", seat("s-again", "u")));
        assertEquals(1, store.ledger().seats());
    }

    /**
     * One seat per key rests on the keys table alone (the seats' key column has no unique index): many grants of
     * one key submitted at once, so that most share a group commit, still write exactly one seat.
     */
    @Test
    void grantsOfOneKeySubmittedTogetherWriteOneSeat() {
        List<CompletableFuture<Boolean>> grants = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            grants.add(store.grant("k", "h", seat("s" + i, "u"), T0));
            grants.add(store.grant("other-" + i, "h", seat("o" + i, "v" + i), T0));
        }

        long wrote = grants.stream().filter(g -> g.join()).count();

        assertEquals(41, wrote, "one grant of the shared key and all 40 grants of distinct keys");
        Ledger ledger = store.ledger();
        assertEquals(41, ledger.seats());
        assertEquals(41, ledger.keys());
        assertEquals(List.of(), ledger.duplicates());
        assertEquals(1, store.list("ws", "u", 100).size());
    }

    /**
     * A store made by an earlier version carries a unique index on {@code seats.idempotency_key}; opening it drops
     * that index and keeps every row, so old stores get the cheaper grant too.
     */
    @Test
    void aStoreWithTheOldUniqueIndexLosesItAndKeepsItsSeats() throws SQLException {
        Assumptions.assumeTrue(earlierVersionsMadeSuchStores(), "no earlier version made such a store");
        DbSpec spec = freshDatabase();
        try (Connection c = DriverManager.getConnection(spec.jdbcUrl());
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE seats (id VARCHAR(64) PRIMARY KEY, workspace_id VARCHAR(255) NOT NULL,"
                    + " user_id VARCHAR(255) NOT NULL, role VARCHAR(32) NOT NULL, created_at BIGINT NOT NULL,"
                    + " idempotency_key VARCHAR(255), CONSTRAINT seats_one_per_key UNIQUE (idempotency_key))");
            s.execute("INSERT INTO seats VALUES ('s-old', 'ws', 'u', 'member', 0, 'k-old')");
            assertEquals(1, uniqueConstraintsOnSeats(s));
        }

        try (SeatStore old = SeatStore.open(spec, 2)) {
            assertEquals("s-old", old.find("s-old").orElseThrow().id());
            assertTrue(old.grant("k-new", "h", new Seat("s-new", "ws", "u2", "member", T0), T0).join());
            assertEquals(2, old.ledger().seats());
        }
        try (Connection c = DriverManager.getConnection(spec.jdbcUrl());
             Statement s = c.createStatement()) {
            assertEquals(0, uniqueConstraintsOnSeats(s));
        }
        // Opening it again finds nothing to drop and changes nothing.
        try (SeatStore again = SeatStore.open(spec, 2)) {
            assertEquals(2, again.ledger().seats());
        }
    }

    private static int uniqueConstraintsOnSeats(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLE_CONSTRAINTS"
                + " WHERE UPPER(TABLE_NAME) = 'SEATS' AND CONSTRAINT_TYPE = 'UNIQUE'")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    @Test
    void resetEmptiesEverything() {
        store.claim("k", "h", "a", T0, LEASE);
        store.complete("k", "a", seat("s1", "u"));

        store.reset();

        assertEquals(new Ledger(0, 0, List.of()), store.ledger());
    }

    /**
     * Reset is atomic with respect to grants (issue 20): grants race a reset, round after round, and once they
     * settle every seat still has its key, and a client's retry of each key it was answered for is a replay,
     * never a second seat. Before the fix, reset deleted the seats, then the keys, in two statements; a group
     * commit that landed between them left seats whose keys were gone, and the retries made duplicates.
     */
    @Test
    @Tag("race")
    void resetsRacingGrantsNeverLeaveASeatWithoutItsKey() {
        raceResets(store, store);
    }

    /**
     * Grants through {@code store} race resets through {@code resetting}: the same store, or another instance on
     * the same database (see {@code PostgresSeatStoreTest}). Tagged {@code race}: a race needs many rounds, and
     * the mutation profile, which runs the covering tests once per mutant, leaves them out.
     */
    final void raceResets(SeatStore store, SeatStore resetting) {
        for (int round = 0; round < RESET_ROUNDS; round++) {
            // Seats for the reset to delete, so that it takes a while; then grants one after another, each its
            // own commit, while the reset runs.
            List<CompletableFuture<Boolean>> grants = new ArrayList<>();
            for (int i = 0; i < SEATS_BEFORE_RESET; i++) {
                grants.add(store.grant(raceKey(round, i), "h", raceSeat(round, i, "first"), T0));
            }
            grants.forEach(CompletableFuture::join);
            int r = round;
            CompletableFuture<Void> stream = CompletableFuture.runAsync(() -> {
                for (int i = SEATS_BEFORE_RESET; i < GRANTS_PER_ROUND; i++) {
                    CompletableFuture<Boolean> grant = store.grant(raceKey(r, i), "h", raceSeat(r, i, "first"), T0);
                    grants.add(grant);
                    grant.join();
                }
            });
            resetting.reset();
            stream.join();

            List<Integer> answered = new ArrayList<>();
            for (int i = 0; i < GRANTS_PER_ROUND; i++) {
                if (grants.get(i).join()) {
                    answered.add(i);
                }
            }
            Ledger settled = store.ledger();
            assertEquals(settled.keys(), settled.seats(), "round " + round + ": a seat whose key the reset deleted");

            List<CompletableFuture<Boolean>> retries = new ArrayList<>();
            for (int i : answered) {
                retries.add(store.grant(raceKey(round, i), "h", raceSeat(round, i, "retry"), T0.plusSeconds(1)));
            }
            retries.forEach(CompletableFuture::join);
            assertEquals(List.of(), store.ledger().duplicates(), "round " + round);
        }
    }

    /** The database the contract's store is open on, for a second instance on it. */
    final DbSpec spec() {
        return spec;
    }

    /** The store under test. */
    final SeatStore store() {
        return store;
    }

    private static final int RESET_ROUNDS = 20;
    private static final int SEATS_BEFORE_RESET = 300;
    private static final int GRANTS_PER_ROUND = 400;

    private static String raceKey(int round, int i) {
        return "race-" + round + "-" + i;
    }

    /** One user per key: a user with two seats is a duplicate. */
    private static Seat raceSeat(int round, int i, String attempt) {
        return new Seat("s-" + attempt + "-" + round + "-" + i, "ws", "u-" + round + "-" + i, "member", T0);
    }

    @Test
    void aStoreErrorNeverCarriesTheUrl() {
        store.close();
        StoreException e = org.junit.jupiter.api.Assertions.assertThrows(StoreException.class, () -> store.ledger());
        assertInstanceOf(StoreException.class, e);
        assertTrue(!String.valueOf(e.getMessage()).contains("jdbc:"), e::getMessage);
        store = SeatStore.open(freshDatabase(), 1);
    }
}
