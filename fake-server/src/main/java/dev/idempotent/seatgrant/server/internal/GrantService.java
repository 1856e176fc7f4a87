package dev.idempotent.seatgrant.server.internal;

import dev.idempotent.seatgrant.server.Seat;
import dev.idempotent.seatgrant.server.internal.store.SeatStore;
import dev.idempotent.seatgrant.server.internal.store.SeatStore.ClaimResult;
import dev.idempotent.seatgrant.server.internal.store.SeatStore.CompleteResult;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Grants seats through the store, off the I/O threads. A keyed grant nothing holds back is one transaction
 * (the completed key and the seat together); a key that already exists, or a grant the {@code delay} fault
 * holds, goes the long way: claim the key, hold it, then write the seat and complete the key in one transaction.
 *
 * <p>Thread-safe. Every store call runs on {@code dbExecutor}; a hold waits on a timer, never on a thread, and
 * {@link #releaseHolds()} ends every hold under way at once (the grader's twins end theirs on an event, not a time).
 */
public final class GrantService {

    /** What a grant came to. */
    public sealed interface Outcome {
        /** This request wrote the seat. */
        record Created(Seat seat) implements Outcome { }

        /** The key had already completed with the same payload. */
        record Replayed(Seat seat) implements Outcome { }

        /** The key had been used with a different payload. */
        record KeyMismatch() implements Outcome { }

        /** Another request holds the key; try again after {@code retryAfterSeconds}. */
        record InProgress(long retryAfterSeconds) implements Outcome { }
    }

    private static final AtomicLong SEAT_COUNTER = new AtomicLong();

    private final SeatStore store;
    private final Clock clock;
    private final Duration lease;
    private final Executor dbExecutor;
    private final ResetGenerations generations;
    /** The holds under way, each with the instant it began; {@link #releaseHolds()} ends them. */
    private final ConcurrentHashMap<Runnable, Instant> holds = new ConcurrentHashMap<>();

    public GrantService(SeatStore store, Clock clock, Duration lease, Executor dbExecutor) {
        this(store, clock, lease, dbExecutor, new ResetGenerations());
    }

    /** @param generations a store write of a request a reset outlived is dropped: its seat would outlive the reset */
    public GrantService(SeatStore store, Clock clock, Duration lease, Executor dbExecutor,
                        ResetGenerations generations) {
        this.store = store;
        this.clock = clock;
        this.lease = lease;
        this.dbExecutor = dbExecutor;
        this.generations = generations;
    }

    /** {@link #grant(GrantRequest, String, long, long)} in the current reset generation. */
    public CompletableFuture<Outcome> grant(GrantRequest request, String key, long holdMs) {
        return grant(request, key, holdMs, generations.current());
    }

    /**
     * Grants a seat.
     *
     * @param key    the Idempotency-Key; nullable, and then nothing dedupes the grant
     * @param holdMs     how long to hold the claim before committing (the {@code delay} fault); 0 for none
     * @param generation the reset generation of the request: once a reset ends it, the store is not written, and
     *                   the future fails with {@link ResetGenerations.Outdated}
     */
    public CompletableFuture<Outcome> grant(GrantRequest request, String key, long holdMs, long generation) {
        if (key == null) {
            if (holdMs <= 0) {
                Seat seat = newSeat(request);
                return grantInStore(null, request, seat, generation).thenApply(wrote -> new Outcome.Created(seat));
            }
            return CompletableFuture.supplyAsync(() -> (Outcome) new Outcome.Created(
                    generations.write(generation, () -> store.insertWithoutKey(newSeat(request)))), after(holdMs));
        }
        if (holdMs <= 0) {
            Seat seat = newSeat(request);
            return grantInStore(key, request, seat, generation).thenCompose(wrote -> wrote
                    ? CompletableFuture.completedFuture((Outcome) new Outcome.Created(seat))
                    // The key exists: replay it, refuse a mismatch, report it in progress, or take an expired
                    // claim over, exactly as a held grant would.
                    : CompletableFuture.supplyAsync(() -> generations.write(generation,
                            () -> claimThenComplete(request, key)), dbExecutor));
        }
        String owner = newOwner();
        return CompletableFuture.supplyAsync(() -> generations.write(generation,
                        () -> store.claim(key, request.canonicalHash(), owner, clock.instant(), lease)), dbExecutor)
                .thenCompose(claim -> {
                    if (claim instanceof ClaimResult.Claimed) {
                        return CompletableFuture.supplyAsync(() -> generations.write(generation,
                                () -> complete(request, key, owner)), after(holdMs));
                    }
                    return CompletableFuture.completedFuture(fromClaim(claim));
                });
    }

    /** The group-committed write, with a reset held off until it is done (or refused once a reset ended it). */
    private CompletableFuture<Boolean> grantInStore(String key, GrantRequest request, Seat seat, long generation) {
        if (!generations.enter(generation)) {
            return CompletableFuture.failedFuture(new ResetGenerations.Outdated());
        }
        CompletableFuture<Boolean> written;
        try {
            written = store.grant(key, request.canonicalHash(), seat, clock.instant());
        } catch (RuntimeException e) {
            generations.exit(generation);
            throw e;
        }
        return written.whenComplete((wrote, failure) -> generations.exit(generation));
    }

    /** The long way, on a store thread already: claim, and complete at once if the claim is ours. */
    private Outcome claimThenComplete(GrantRequest request, String key) {
        String owner = newOwner();
        ClaimResult claim = store.claim(key, request.canonicalHash(), owner, clock.instant(), lease);
        return claim instanceof ClaimResult.Claimed ? complete(request, key, owner) : fromClaim(claim);
    }

    private Outcome complete(GrantRequest request, String key, String owner) {
        CompleteResult result;
        try {
            result = store.complete(key, owner, newSeat(request));
        } catch (RuntimeException e) {
            // Give the key back so the client's retry is not told "in progress" until the lease runs out.
            try {
                store.release(key, owner);
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        if (result instanceof CompleteResult.Committed committed) {
            return new Outcome.Created(committed.seat());
        }
        // We held the key so long that our lease ran out and another request took it over; it will write
        // (or has written) the one seat, so report what it did and write nothing ourselves.
        return fromClaim(store.peek(key, request.canonicalHash(), clock.instant()));
    }

    private Outcome fromClaim(ClaimResult claim) {
        if (claim instanceof ClaimResult.Completed completed) {
            return new Outcome.Replayed(completed.seat());
        }
        if (claim instanceof ClaimResult.Mismatch) {
            return new Outcome.KeyMismatch();
        }
        // In progress (Claimed never reaches here): the holder is usually a request about to commit, so one
        // second is a polite "soon", not the rest of its lease.
        return new Outcome.InProgress(1);
    }

    /**
     * Runs its task on the store's executor after {@code holdMs}, or as soon as {@link #releaseHolds()} is called,
     * whichever comes first; never twice.
     */
    private Executor after(long holdMs) {
        if (holdMs <= 0) {
            return dbExecutor;
        }
        return task -> {
            AtomicBoolean ran = new AtomicBoolean();
            Runnable[] self = new Runnable[1];
            self[0] = () -> {
                if (ran.compareAndSet(false, true)) {
                    holds.remove(self[0]);
                    dbExecutor.execute(task);
                }
            };
            holds.put(self[0], clock.instant());
            CompletableFuture.delayedExecutor(holdMs, TimeUnit.MILLISECONDS).execute(self[0]);
        };
    }

    /** When the oldest hold still under way began (a {@code delay} fault's grant); empty when none is. */
    public Optional<Instant> heldSince() {
        return holds.values().stream().min(Instant::compareTo);
    }

    /** Ends every hold under way now: each held grant goes on to its commit at once. Later holds are not affected. */
    public void releaseHolds() {
        holds.keySet().forEach(Runnable::run);
    }

    /**
     * A claim owner: unique among live claims is all it needs, so 128 random bits from the thread's own generator
     * do (a SecureRandom UUID per request was a shared lock on the hot path).
     */
    private static String newOwner() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return hex16(random.nextLong()) + hex16(random.nextLong());
    }

    /**
     * A seat id, 32 hex digits after {@code seat_}: the clock's milliseconds and a per-process counter first, so
     * new ids sort after old ones and every insert lands at the right edge of the seats' primary-key index (a
     * random id dirtied a random index page per grant, which the file store then had to write out again; at a
     * million seats that page is rarely in the cache either), then 64 random bits, so two servers sharing one
     * PostgreSQL database never mint the same id. The primary key would refuse a repeat anyway; ids are not secrets.
     */
    private static String newSeatId(long epochMillis) {
        long ordered = (epochMillis << 16) | (SEAT_COUNTER.getAndIncrement() & 0xFFFF);
        return "seat_" + hex16(ordered) + hex16(ThreadLocalRandom.current().nextLong());
    }

    private static String hex16(long value) {
        String hex = Long.toHexString(value);
        return "0".repeat(16 - hex.length()) + hex;
    }

    private Seat newSeat(GrantRequest request) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        String id = newSeatId(System.currentTimeMillis());
        return new Seat(id, request.workspaceId(), request.userId(), request.role(), now);
    }
}
