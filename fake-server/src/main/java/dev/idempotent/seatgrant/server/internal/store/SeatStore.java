package dev.idempotent.seatgrant.server.internal.store;

import dev.idempotent.seatgrant.server.Ledger;
import dev.idempotent.seatgrant.server.Seat;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Durable seats and idempotency keys. Uniqueness lives here, in the database, never in a map in the process:
 * two server processes on one PostgreSQL database dedupe each other.
 *
 * <p>A keyed grant that nothing holds back is one step: {@link #grant} writes the completed key and the seat in
 * one transaction, or reports that the key already exists. A held grant (the {@code delay} fault) is two steps:
 * {@link #claim} records the key as in progress under a lease owned by this request; {@link #complete} writes
 * the seat and marks the key completed in one transaction, but only while this request still owns the claim. A claim whose lease ran out (its holder crashed or stalled) can be taken over;
 * the stalled holder's later {@code complete} then finds it no longer owns the key and writes nothing.
 *
 * <p>Implementations are thread-safe. Every method may throw {@link StoreException} when the database fails.
 */
public interface SeatStore extends AutoCloseable {

    /**
     * Opens the store {@code spec} names: {@link MemorySeatStore} for {@code mem}, else {@link JdbcSeatStore}.
     *
     * @param maxConnections the most concurrent calls a database store serves (its pool size)
     * @throws StoreException if the database cannot be reached or its file cannot be used (the message names the
     *                        cause and never a URL), or if its JDBC driver or the pool is not on the classpath
     *                        (the message names the dependencies to add)
     */
    static SeatStore open(DbSpec spec, int maxConnections) {
        if (spec.kind() == DbSpec.Kind.MEMORY) {
            return new MemorySeatStore();
        }
        // Before JdbcSeatStore is loaded: it links against the pool, and fake-server's drivers are optional.
        StoreDrivers.require(spec.kind());
        return JdbcSeatStore.open(spec, maxConnections);
    }

    /**
     * Writes {@code seat} and {@code key}, already completed, in one transaction: the uncontended keyed grant.
     * Grants that arrive together share one transaction and one commit (group commit); the future completes after
     * that commit returned, so the seat is stored before anyone is told about it. A concurrent transaction that
     * inserts the same key makes this grant wait for it, then report the key as taken.
     *
     * @param key nullable: a seat with no key, which nothing dedupes
     * @return a future of {@code true} if this call wrote the seat, {@code false} if the key already existed
     *         (nothing written: the caller goes through {@link #claim}, which replays, refuses a mismatch or takes
     *         an expired claim over); it fails with {@link StoreException} when the database does
     */
    CompletableFuture<Boolean> grant(String key, String requestHash, Seat seat, Instant now);

    /**
     * Claims {@code key} for the request identified by {@code owner}.
     *
     * @param requestHash a hash of the canonical payload; a different payload under a used key is a mismatch
     * @param now         the caller's clock reading
     * @param lease       how long the claim holds before another request may take it over
     */
    ClaimResult claim(String key, String requestHash, String owner, Instant now, Duration lease);

    /**
     * Writes {@code seat} and completes {@code key} in one transaction if {@code owner} still holds the claim.
     *
     * @return {@link CompleteResult.Committed} or {@link CompleteResult.LostClaim} (nothing written)
     */
    CompleteResult complete(String key, String owner, Seat seat);

    /**
     * Reads what {@link #claim} would find for {@code key}, changing nothing: {@code Completed}, {@code Mismatch},
     * or {@code InProgress} (also when there is no row any more: the caller should come back shortly).
     */
    ClaimResult peek(String key, String requestHash, Instant now);

    /** Gives up a claim this owner holds (the work failed before the commit); no-op if not held. */
    void release(String key, String owner);

    /** Writes a seat with no key: nothing dedupes it, which is how the incident happens. */
    Seat insertWithoutKey(Seat seat);

    Optional<Seat> find(String seatId);

    /** Seats, oldest first, filtered by whichever arguments are non-null (both nullable). */
    List<Seat> list(String workspaceId, String userId, int limit);

    Ledger ledger();

    /**
     * Deletes every seat and key, atomically with respect to grants: a grant committed while it runs is either
     * gone with everything else or kept whole, its seat with its key; never a seat whose key is gone.
     */
    void reset();

    /** Closes the pool; further calls fail. */
    @Override
    void close();

    /** What a claim found. */
    sealed interface ClaimResult {
        /** This request now owns the key (new, or taken over from an expired claim). */
        record Claimed(boolean takenOver) implements ClaimResult { }

        /** The key already completed with the same payload; replay this seat. */
        record Completed(Seat seat) implements ClaimResult { }

        /** The key was used with a different payload. */
        record Mismatch() implements ClaimResult { }

        /** Another request holds a live claim until {@code leaseUntil}. */
        record InProgress(Instant leaseUntil) implements ClaimResult { }
    }

    /** What a completion did. */
    sealed interface CompleteResult {
        record Committed(Seat seat) implements CompleteResult { }

        /** The claim expired and another request took it; nothing was written. */
        record LostClaim() implements CompleteResult { }
    }
}
