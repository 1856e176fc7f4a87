package dev.idempotent.seatgrant.server.internal.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.seatgrant.server.Seat;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Group commit without a database: a runner that records its groups shows which grants share a transaction,
 * and runners that fail or forget show that no caller is ever left waiting (every wait here is bounded, so a
 * caller left waiting fails the test instead of hanging it).
 */
class GroupCommitTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    /** The grant's answer, or its failure as a CompletionException; a grant left waiting fails the test. */
    private static boolean answer(CompletableFuture<Boolean> grant) {
        try {
            return grant.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new CompletionException(e.getCause());
        } catch (InterruptedException | TimeoutException e) {
            throw new AssertionError("the grant was never answered", e);
        }
    }

    private static Seat seat(int i) {
        return new Seat("s" + i, "ws", "u" + i, "member", NOW);
    }

    /** Holds the first group until released, so that later grants queue behind it; answers every grant true. */
    private static final class HeldRunner implements GroupCommit.Runner {
        final List<Integer> sizes = new CopyOnWriteArrayList<>();
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public void run(List<GroupCommit.Op> group) {
            sizes.add(group.size());
            started.countDown();
            try {
                assertTrue(release.await(30, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            group.forEach(op -> op.done().complete(true));
        }
    }

    @Test
    void grantsThatArriveDuringACommitShareTheNextOneUpToTheBatchLimit() throws Exception {
        HeldRunner runner = new HeldRunner();
        try (GroupCommit groups = new GroupCommit(1, runner)) {
            List<CompletableFuture<Boolean>> grants = new ArrayList<>();
            grants.add(groups.submit("first", "h", seat(0), NOW));
            assertTrue(runner.started.await(30, TimeUnit.SECONDS));
            for (int i = 1; i <= GroupCommit.MAX_BATCH + 10; i++) {
                grants.add(groups.submit("k" + i, "h", seat(i), NOW));
            }
            assertTrue(grants.stream().noneMatch(CompletableFuture::isDone), "nobody is answered before the commit");

            runner.release.countDown();

            grants.forEach(grant -> assertTrue(answer(grant)));
            assertEquals(List.of(1, GroupCommit.MAX_BATCH, 10), runner.sizes);
        }
    }

    @Test
    void aRunnerThatAnswersNobodyFailsEveryGrantOfItsGroupInsteadOfLeavingItWaiting() {
        try (GroupCommit groups = new GroupCommit(1, group -> { })) {
            CompletableFuture<Boolean> grant = groups.submit("k", "h", seat(1), NOW);

            CompletionException failed = assertThrows(CompletionException.class, () -> answer(grant));
            assertEquals("a grant was left unanswered", failed.getCause().getMessage());
        }
    }

    @Test
    void aRunnerThatAnswersSomeLeavesTheirAnswersAloneAndFailsTheRest() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        GroupCommit.Runner firstOnly = group -> {
            started.countDown();
            try {
                assertTrue(release.await(30, TimeUnit.SECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            group.get(0).done().complete(true);
        };
        try (GroupCommit groups = new GroupCommit(1, firstOnly)) {
            CompletableFuture<Boolean> alone = groups.submit("k0", "h", seat(0), NOW);
            assertTrue(started.await(30, TimeUnit.SECONDS));
            CompletableFuture<Boolean> answered = groups.submit("k1", "h", seat(1), NOW);
            CompletableFuture<Boolean> forgotten = groups.submit("k2", "h", seat(2), NOW);

            release.countDown();

            assertTrue(answer(alone));
            assertTrue(answer(answered), "the runner's own answer stands");
            CompletionException failed = assertThrows(CompletionException.class, () -> answer(forgotten));
            assertEquals("a grant was left unanswered", failed.getCause().getMessage());
        }
    }

    @Test
    void aRunnerThatThrowsAnErrorFailsItsGroupAndTheWriterServesTheNext() {
        AtomicInteger calls = new AtomicInteger();
        GroupCommit.Runner errorFirst = group -> {
            if (calls.getAndIncrement() == 0) {
                throw new AssertionError("an Error, not an exception");
            }
            group.forEach(op -> op.done().complete(true));
        };
        try (GroupCommit groups = new GroupCommit(1, errorFirst)) {
            CompletionException failed = assertThrows(CompletionException.class,
                    () -> answer(groups.submit("k1", "h", seat(1), NOW)));
            assertEquals(AssertionError.class, failed.getCause().getClass());

            assertTrue(answer(groups.submit("k2", "h", seat(2), NOW)), "the only writer is still alive");
        }
    }

    @Test
    void aRunnerThatThrowsFailsEveryGrantOfItsGroupWithThatFailure() {
        IllegalStateException boom = new IllegalStateException("boom");
        try (GroupCommit groups = new GroupCommit(2, group -> {
            throw boom;
        })) {
            CompletionException failed = assertThrows(CompletionException.class,
                    () -> answer(groups.submit("k", "h", seat(1), NOW)));
            assertSame(boom, failed.getCause());
        }
    }

    @Test
    void closingFinishesTheQueuedGroupsThenRefusesNewGrants() throws Exception {
        HeldRunner runner = new HeldRunner();
        GroupCommit groups = new GroupCommit(1, runner);
        CompletableFuture<Boolean> first = groups.submit("first", "h", seat(0), NOW);
        assertTrue(runner.started.await(30, TimeUnit.SECONDS));
        CompletableFuture<Boolean> queued = groups.submit("queued", "h", seat(1), NOW);

        runner.release.countDown();
        groups.close();

        assertTrue(answer(first));
        assertTrue(answer(queued), "a grant queued before close is still written");
        CompletionException refused = assertThrows(CompletionException.class,
                () -> answer(groups.submit("late", "h", seat(2), NOW)));
        assertEquals("the store is closed", refused.getCause().getMessage());
    }
}
