package dev.idempotent.seatgrant.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.seatgrant.server.Ledger;
import dev.idempotent.seatgrant.server.MutableClock;
import dev.idempotent.seatgrant.server.Seat;
import dev.idempotent.seatgrant.server.internal.GrantService.Outcome;
import dev.idempotent.seatgrant.server.internal.store.DbSpec;
import dev.idempotent.seatgrant.server.internal.store.JdbcSeatStore;
import dev.idempotent.seatgrant.server.internal.store.SeatStore;
import dev.idempotent.seatgrant.server.internal.store.StoreException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The grant service on a real in-memory H2 store, with its store executor in the test's hands: which grants go
 * the one-transaction way and which are held, what a hold writes before it ends, the outcome of each path, a
 * commit that fails (the key is given back), a stalled holder whose claim was taken over, and the seat ids.
 *
 * <p>The executor only queues; the test runs its tasks. So "nothing is written during the hold" is checked at a
 * moment the test chose, not by waiting, and a grant that needs no store thread must finish while none runs.
 */
class GrantServiceTest {

    private static final Instant T0 = Instant.parse("2026-05-06T07:08:09.123456789Z");
    private static final Duration LEASE = Duration.ofSeconds(10);
    private static final Duration BOUND = Duration.ofSeconds(30);

    private final MutableClock clock = new MutableClock(T0);
    private final QueuedExecutor storeThreads = new QueuedExecutor();
    private JdbcSeatStore store;

    @BeforeEach
    void open() {
        store = JdbcSeatStore.open(DbSpec.parse("jdbc:h2:mem:grant-service-" + java.util.UUID.randomUUID()
                + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000"), 4);
    }

    @AfterEach
    void close() {
        store.close();
    }

    private static GrantRequest request(String userId) throws GrantRequest.Invalid {
        return GrantRequest.parse(("{\"workspaceId\":\"ws\",\"userId\":\"" + userId + "\",\"role\":\"member\"}")
                .getBytes(StandardCharsets.UTF_8));
    }

    private GrantService service(SeatStore on, Executor executor) {
        return new GrantService(on, clock, LEASE, executor);
    }

    private static Outcome done(CompletableFuture<Outcome> grant) throws Exception {
        return grant.get(BOUND.toSeconds(), TimeUnit.SECONDS);
    }

    private Seat created(Outcome outcome) {
        Seat seat = assertInstanceOf(Outcome.Created.class, outcome).seat();
        assertEquals(Optional.of(seat), store.find(seat.id()), "the seat reported is the seat stored");
        return seat;
    }

    @Test
    void aGrantNothingHoldsNeedsNoStoreThreadKeyedOrNot() throws Exception {
        // Every store thread busy (none of the queued work runs): the one-transaction grant still commits.
        GrantService grants = service(store, storeThreads);
        Seat keyed = created(done(grants.grant(request("u1"), "k-1", 0)));
        Seat keyless = created(done(grants.grant(request("u2"), null, 0)));

        assertEquals("u1", keyed.userId());
        assertEquals("u2", keyless.userId());
        assertEquals("ws", keyless.workspaceId());
        assertEquals("member", keyless.role());
        assertEquals(T0.truncatedTo(java.time.temporal.ChronoUnit.MILLIS), keyless.createdAt(),
                "createdAt is the clock's, to the millisecond the store keeps");
        assertEquals(0, storeThreads.size());
        assertEquals(new Ledger(2, 1, List.of()), store.ledger());
    }

    @Test
    void aHeldKeylessGrantWritesNothingUntilItsHoldIsOver() throws Exception {
        CompletableFuture<Outcome> grant = service(store, storeThreads).grant(request("u1"), null, 1);

        Runnable write = storeThreads.awaitNext();
        assertFalse(grant.isDone());
        assertEquals(0, store.ledger().seats(), "nothing is written while the grant is held");

        write.run();
        created(done(grant));
        assertEquals(1, store.ledger().seats());
    }

    @Test
    void aHeldKeyedGrantHoldsItsKeyThenCommits() throws Exception {
        GrantRequest request = request("u1");
        CompletableFuture<Outcome> grant = service(store, storeThreads).grant(request, "k-1", 1);

        storeThreads.awaitNext().run();
        Runnable commit = storeThreads.awaitNext();
        assertFalse(grant.isDone());
        assertInstanceOf(SeatStore.ClaimResult.InProgress.class,
                store.claim("k-1", request.canonicalHash(), "someone-else", clock.instant(), LEASE),
                "during the hold the key is claimed");
        assertEquals(0, store.ledger().seats());

        commit.run();
        Seat seat = created(done(grant));
        assertEquals(new Ledger(1, 1, List.of()), store.ledger());
        assertInstanceOf(SeatStore.ClaimResult.Completed.class,
                store.claim("k-1", request.canonicalHash(), "someone-else", clock.instant(), LEASE));
        assertEquals(seat.id(), ((SeatStore.ClaimResult.Completed) store.peek("k-1", request.canonicalHash(),
                clock.instant())).seat().id());
    }

    @Test
    void aUsedKeyReplaysWithTheSamePayloadAndIsAMismatchWithAnother() throws Exception {
        GrantService grants = service(store, Runnable::run);
        Seat first = created(done(grants.grant(request("u1"), "k-1", 0)));

        Outcome again = done(grants.grant(request("u1"), "k-1", 0));
        assertEquals(first, assertInstanceOf(Outcome.Replayed.class, again).seat());
        assertInstanceOf(Outcome.KeyMismatch.class, done(grants.grant(request("u2"), "k-1", 0)));
        // The held path reads the same key the same way.
        assertEquals(first, assertInstanceOf(Outcome.Replayed.class, done(grants.grant(request("u1"), "k-1", 1)))
                .seat());
        assertInstanceOf(Outcome.KeyMismatch.class, done(grants.grant(request("u2"), "k-1", 1)));
        assertEquals(1, store.ledger().seats());
    }

    @Test
    void aKeyAnotherRequestHoldsIsInProgressForOneSecond() throws Exception {
        GrantRequest request = request("u1");
        store.claim("k-1", request.canonicalHash(), "holder", clock.instant(), LEASE);
        GrantService grants = service(store, Runnable::run);

        assertEquals(new Outcome.InProgress(1), done(grants.grant(request, "k-1", 0)));
        assertEquals(new Outcome.InProgress(1), done(grants.grant(request, "k-1", 1)));
        assertEquals(0, store.ledger().seats());
    }

    @Test
    void aStalledHolderWhoseClaimWasTakenOverWritesNothing() throws Exception {
        GrantService grants = service(store, storeThreads);
        CompletableFuture<Outcome> stalled = grants.grant(request("u1"), "k-1", 1);
        storeThreads.awaitNext().run();
        Runnable stalledCommit = storeThreads.awaitNext();

        clock.advance(LEASE.plusSeconds(1));
        CompletableFuture<Outcome> retry = grants.grant(request("u1"), "k-1", 1);
        storeThreads.awaitNext().run();
        Runnable retryCommit = storeThreads.awaitNext();

        // The stalled holder wakes first: its claim is the retry's now, so it writes nothing and says so.
        stalledCommit.run();
        assertEquals(new Outcome.InProgress(1), done(stalled));
        assertEquals(0, store.ledger().seats());

        retryCommit.run();
        created(done(retry));
        assertEquals(new Ledger(1, 1, List.of()), store.ledger());
    }

    @Test
    void aCommitThatFailsGivesTheKeyBackForTheRetry() throws Exception {
        StoreException commitFailed = new StoreException("commit failed", null);
        GrantRequest request = request("u1");
        SeatStore failingCommit = new FailingStore(store, commitFailed, null);

        ExecutionException failed = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> done(service(failingCommit, Runnable::run).grant(request, "k-1", 1)));

        assertSame(commitFailed, failed.getCause());
        assertEquals(0, commitFailed.getSuppressed().length);
        assertEquals(new SeatStore.ClaimResult.Claimed(false),
                store.claim("k-1", request.canonicalHash(), "the-retry", clock.instant(), LEASE),
                "the key was released, not left in progress until its lease ends");
        assertEquals(0, store.ledger().seats());
    }

    @Test
    void aReleaseThatFailsTooTravelsWithTheCommitFailure() throws Exception {
        StoreException commitFailed = new StoreException("commit failed", null);
        StoreException releaseFailed = new StoreException("release failed", null);
        SeatStore failing = new FailingStore(store, commitFailed, releaseFailed);

        ExecutionException failed = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> done(service(failing, Runnable::run).grant(request("u1"), "k-1", 1)));

        assertSame(commitFailed, failed.getCause());
        assertEquals(List.of(releaseFailed), List.of(commitFailed.getSuppressed()));
    }

    @Test
    void seatIdsStartWithTheTimeThenACounterThenRandomBits() throws Exception {
        GrantService grants = service(store, Runnable::run);
        long before = System.currentTimeMillis();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            ids.add(created(done(grants.grant(request("u" + i), null, 0))).id());
        }
        long after = System.currentTimeMillis();

        long previousCounter = -1;
        for (String id : ids) {
            assertTrue(id.matches("seat_[0-9a-f]{32}"), id);
            long ordered = Long.parseUnsignedLong(id.substring(5, 21), 16);
            long millis = ordered >>> 16;
            assertTrue(millis >= before && millis <= after, id + ": " + millis + " not in [" + before + ", " + after + "]");
            long counter = ordered & 0xFFFF;
            if (previousCounter >= 0) {
                assertEquals((previousCounter + 1) & 0xFFFF, counter, "the counter moves by one per seat: " + ids);
            }
            previousCounter = counter;
        }
        assertEquals(ids.size(), ids.stream().map(id -> id.substring(21)).distinct().count(),
                "the random part differs from seat to seat");
    }

    /** Runs nothing by itself: tasks wait in a queue until the test takes and runs them. */
    private static final class QueuedExecutor implements Executor {
        private final ConcurrentLinkedQueue<Runnable> queue = new ConcurrentLinkedQueue<>();

        @Override
        public void execute(Runnable task) {
            queue.add(task);
        }

        int size() {
            return queue.size();
        }

        /** The next task handed to the executor, waiting for one (a hold hands it over from a timer thread). */
        Runnable awaitNext() {
            long deadline = System.nanoTime() + BOUND.toNanos();
            Runnable task;
            while ((task = queue.poll()) == null) {
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("no store task within " + BOUND);
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
            }
            return task;
        }
    }

    /** The real store, except that completing a claim fails, and giving one back may fail too (null: it works). */
    private static final class FailingStore implements SeatStore {
        private final SeatStore real;
        private final StoreException onComplete;
        private final StoreException onRelease;

        FailingStore(SeatStore real, StoreException onComplete, StoreException onRelease) {
            this.real = real;
            this.onComplete = onComplete;
            this.onRelease = onRelease;
        }

        @Override
        public CompletableFuture<Boolean> grant(String key, String requestHash, Seat seat, Instant now) {
            return real.grant(key, requestHash, seat, now);
        }

        @Override
        public ClaimResult claim(String key, String requestHash, String owner, Instant now, Duration lease) {
            return real.claim(key, requestHash, owner, now, lease);
        }

        @Override
        public CompleteResult complete(String key, String owner, Seat seat) {
            throw onComplete;
        }

        @Override
        public ClaimResult peek(String key, String requestHash, Instant now) {
            return real.peek(key, requestHash, now);
        }

        @Override
        public void release(String key, String owner) {
            if (onRelease != null) {
                throw onRelease;
            }
            real.release(key, owner);
        }

        @Override
        public Seat insertWithoutKey(Seat seat) {
            return real.insertWithoutKey(seat);
        }

        @Override
        public Optional<Seat> find(String seatId) {
            return real.find(seatId);
        }

        @Override
        public List<Seat> list(String workspaceId, String userId, int limit) {
            return real.list(workspaceId, userId, limit);
        }

        @Override
        public Ledger ledger() {
            return real.ledger();
        }

        @Override
        public void reset() {
            real.reset();
        }

        @Override
        public void close() {
            real.close();
        }
    }
}
