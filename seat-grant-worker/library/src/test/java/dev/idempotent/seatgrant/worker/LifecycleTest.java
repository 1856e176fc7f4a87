package dev.idempotent.seatgrant.worker;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.idempotent.seatgrant.worker.GrantListener.Outcome;
import dev.idempotent.seatgrant.worker.GrantListener.OutcomeEvent;
import dev.idempotent.seatgrant.worker.testing.FakeTime;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link SeatGrantWorker#close()} releases everything the worker created, and a closed worker takes no more work.
 */
class LifecycleTest {

    private static final String SEAT = "{\"id\":\"seat_1\",\"role\":\"member\"}";

    @RegisterExtension
    static final WireMockExtension wm = WireMockExtension.newInstance()
            .options(options().dynamicPort().bindAddress("127.0.0.1"))
            .build();

    private final SeatRequested event = new SeatRequested("req_1", "ws_1", "u_1");

    private SeatGrantConfig.Builder config() {
        return SeatGrantConfig.builder(URI.create(wm.baseUrl())).baseDelay(Duration.ofMillis(1))
                .maxDelay(Duration.ofMillis(5));
    }

    @Test
    void fiftyWorkersCreatedUsedAndClosedLeaveNoThreadBehind() throws Exception {
        wm.stubFor(post("/v1/seats").willReturn(aResponse().withStatus(201).withBody(SEAT)));
        // Warm up: the server's own request threads and the JDK's shared threads exist before the baseline.
        for (int i = 0; i < 3; i++) {
            try (SeatGrantWorker w = new SeatGrantWorker(config().build())) {
                w.handle(event);
                w.handleAsync(event).get(30, TimeUnit.SECONDS);
            }
        }
        int baseline = liveThreads().size();
        // Workers other tests in this JVM left open may still own threads; only new ones count here.
        List<String> before = workerThreads();

        for (int i = 0; i < 50; i++) {
            // Real sleeper, real scheduler: each worker starts its client's threads and its timer thread.
            try (SeatGrantWorker w = new SeatGrantWorker(config().build())) {
                w.handle(event);
                w.handleAsync(event).get(30, TimeUnit.SECONDS);
                w.handleAsync(new SeatRequested("req_retry_" + i, "ws_1", "u_1")).get(30, TimeUnit.SECONDS);
            }
            List<String> left = workerThreads().stream().filter(n -> !before.contains(n)).toList();
            assertEquals(List.of(), left, "close() stops the threads the worker itself started, at once");
        }
        // The JDK's HttpClient selector thread: stopped by close() on 21+; on 17 it ends once the client is garbage.
        awaitThreads(baseline + 2, "after 50 workers");
    }

    @Test
    void aClosedWorkerRefusesNewWorkAndCloseIsIdempotent() {
        SeatGrantWorker worker = new SeatGrantWorker(config().build());
        worker.close();
        worker.close();
        assertThrows(IllegalStateException.class, () -> worker.handle(event));
        assertThrows(IllegalStateException.class, () -> worker.handle(event, Instant.now().plusSeconds(5)));
        assertThrows(IllegalStateException.class, () -> worker.handleAsync(event));
        wm.verify(0, postRequestedFor(urlEqualTo("/v1/seats")));
    }

    @Test
    void closingCancelsAsyncGrantsInFlightAndReportsThem() {
        wm.stubFor(post("/v1/seats").willReturn(aResponse().withStatus(503)));
        List<OutcomeEvent> outcomes = new CopyOnWriteArrayList<>();
        List<CompletableFuture<Void>> waits = new CopyOnWriteArrayList<>();
        FakeTime time = new FakeTime();
        Scheduler never = delay -> {
            CompletableFuture<Void> w = new CompletableFuture<>();
            waits.add(w);
            return w;
        };
        SeatGrantWorker worker = new SeatGrantWorker(config().listener(new GrantListener() {
            @Override
            public void onOutcome(OutcomeEvent outcome) {
                outcomes.add(outcome);
            }
        }).build(), time, never, time);
        CompletableFuture<GrantOutcome> grant = worker.handleAsync(event);
        awaitCondition(() -> waits.size() == 1, "the grant reaches its first backoff");

        worker.close();

        assertThrows(CancellationException.class, grant::join);
        assertTrue(waits.get(0).isCancelled(), "the pending wait was dropped");
        assertEquals(1, outcomes.size());
        assertEquals(Outcome.CANCELLED, outcomes.get(0).outcome());
        assertEquals(Optional.of(OutcomeEvent.CLOSE), outcomes.get(0).endedBy(), "closed, not cancelled by the caller");
        assertEquals(1, outcomes.get(0).attempts());
        wm.verify(1, postRequestedFor(urlEqualTo("/v1/seats")));
    }

    @Test
    void aSyncGrantRunningWhenTheWorkerClosesStopsBeforeItsNextAttempt() {
        wm.stubFor(post("/v1/seats").willReturn(aResponse().withStatus(503)));
        FakeTime time = new FakeTime();
        List<OutcomeEvent> outcomes = new CopyOnWriteArrayList<>();
        SeatGrantWorker[] self = new SeatGrantWorker[1];
        Sleeper closeWhileWaiting = delay -> self[0].close();
        self[0] = new SeatGrantWorker(config().listener(new GrantListener() {
            @Override
            public void onOutcome(OutcomeEvent outcome) {
                outcomes.add(outcome);
            }
        }).build(), closeWhileWaiting, time, time);

        IllegalStateException e = assertThrows(IllegalStateException.class, () -> self[0].handle(event));
        assertTrue(e.getMessage().contains("req_1"), e.getMessage());
        wm.verify(1, postRequestedFor(urlEqualTo("/v1/seats")));
        assertEquals(List.of(Outcome.CANCELLED), outcomes.stream().map(OutcomeEvent::outcome).toList());
        assertEquals(Optional.of(OutcomeEvent.CLOSE), outcomes.get(0).endedBy());
        assertInstanceOf(IllegalStateException.class, e);
    }

    private static List<String> workerThreads() {
        return liveThreads().stream().filter(n -> n.startsWith("seat-grant-")).toList();
    }

    /**
     * Every live thread of this JVM but the seat server's own: WireMock's Jetty grows and shrinks its pool with
     * the connections it serves, which says nothing about the client side.
     */
    private static List<String> liveThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(n -> !n.startsWith("qtp") && !n.startsWith("Connector-Scheduler"))
                .toList();
    }

    /** Waits until at most {@code max} threads are alive, nudging the GC (Java 17's HttpClient threads need it). */
    private static void awaitThreads(int max, String when) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (liveThreads().size() > max) {
            if (System.nanoTime() > end) {
                fail(when + ": " + liveThreads().size() + " live threads, expected at most " + max + ": "
                        + liveThreads().stream().sorted().collect(Collectors.joining(", ")));
            }
            System.gc();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
    }

    private static void awaitCondition(BooleanSupplier condition, String what) {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                fail("timed out waiting until " + what);
            }
            Thread.onSpinWait();
        }
    }
}
