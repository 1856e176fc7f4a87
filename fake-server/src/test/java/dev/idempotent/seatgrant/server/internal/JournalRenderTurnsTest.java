package dev.idempotent.seatgrant.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

/**
 * Whole-journal renders take turns: each builds tens of megabytes, so a second one must not start while the
 * first runs. The executor here only queues work, so the test decides when each render runs.
 */
class JournalRenderTurnsTest {

    /** Queues tasks; the test runs them one by one. */
    private static final class QueuedExecutor implements Executor {
        final Queue<Runnable> tasks = new ArrayDeque<>();

        @Override
        public void execute(Runnable task) {
            tasks.add(task);
        }

        void runNext() {
            tasks.remove().run();
        }
    }

    @Test
    void aRenderStartsOnlyOnceTheOneBeforeItHasFinished() {
        Journal journal = new Journal(4);
        QueuedExecutor executor = new QueuedExecutor();
        List<String> ran = new ArrayList<>();

        CompletableFuture<String> first = journal.renderInTurn(() -> {
            ran.add("first");
            return "one";
        }, executor);
        CompletableFuture<String> second = journal.renderInTurn(() -> {
            ran.add("second");
            return "two";
        }, executor);

        assertEquals(1, executor.tasks.size(), "only the first render is handed to the executor");
        executor.runNext();
        assertEquals("one", first.join());
        assertEquals(1, executor.tasks.size(), "the second is handed over once the first finished");
        assertFalse(second.isDone());
        executor.runNext();
        assertEquals("two", second.join());
        assertEquals(List.of("first", "second"), ran);
    }

    @Test
    void aRenderThatFailsDoesNotHoldUpTheNext() {
        Journal journal = new Journal(4);
        QueuedExecutor executor = new QueuedExecutor();

        CompletableFuture<String> failing = journal.renderInTurn(() -> {
            throw new IllegalStateException("render failed");
        }, executor);
        CompletableFuture<String> next = journal.renderInTurn(() -> "rendered", executor);

        executor.runNext();
        assertTrue(failing.isCompletedExceptionally());
        assertEquals(IllegalStateException.class,
                assertThrows(CompletionException.class, failing::join).getCause().getClass());
        executor.runNext();
        assertEquals("rendered", next.join());
    }
}
