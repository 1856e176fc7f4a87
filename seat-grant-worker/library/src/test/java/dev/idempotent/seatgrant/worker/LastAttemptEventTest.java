package dev.idempotent.seatgrant.worker;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.idempotent.seatgrant.worker.GrantListener.AttemptEvent;
import dev.idempotent.seatgrant.worker.GrantListener.Outcome;
import dev.idempotent.seatgrant.worker.testing.FakeTime;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The attempt that ends a grant is reported like every other one: an operator's dashboard built on
 * {@link GrantListener#onAttempt} sees the last attempt of an exhausted grant, with its status or the name of the
 * transport failure, and the threads a worker starts for itself never keep a service's JVM alive.
 */
class LastAttemptEventTest {

    private static final String SEAT = "{\"id\":\"seat_1\",\"role\":\"member\"}";

    @RegisterExtension
    static final WireMockExtension wm = WireMockExtension.newInstance()
            .options(options().dynamicPort().bindAddress("127.0.0.1"))
            .build();

    private final SeatRequested event = new SeatRequested("req_1", "ws_1", "u_1");
    private final FakeTime time = new FakeTime();
    private final List<AttemptEvent> attempts = new CopyOnWriteArrayList<>();
    private final GrantListener recorder = new GrantListener() {
        @Override
        public void onAttempt(AttemptEvent attempt) {
            attempts.add(attempt);
        }
    };

    @Test
    void theAttemptThatRunsIntoTheDeadlineIsReportedAsExhausted() {
        wm.stubFor(post("/v1/seats").willReturn(aResponse().withStatus(503).withHeader("Retry-After", "2")));
        SeatGrantConfig config = SeatGrantConfig.builder(URI.create(wm.baseUrl())).maxAttempts(10)
                .callTimeout(Duration.ofSeconds(3)).listener(recorder).build();
        try (SeatGrantWorker worker = new SeatGrantWorker(config, time, time, time)) {
            GrantExhaustedException e = assertThrows(GrantExhaustedException.class, () -> worker.handle(event));
            assertEquals(GrantExhaustedException.Limit.DEADLINE, e.limit());
        }
        // t=0: 503, wait 2 s; t=2: 503, and the next wait would end past t=3, so this attempt is the last.
        assertEquals(List.of(Outcome.RETRY, Outcome.EXHAUSTED), attempts.stream().map(AttemptEvent::outcome).toList());
        AttemptEvent last = attempts.get(1);
        assertEquals(2, last.attempt());
        assertEquals(OptionalInt.of(503), last.status());
        assertEquals(Optional.empty(), last.delay());
    }

    @Test
    void aTransportFailureOnTheLastAttemptNamesItsExceptionClass() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        SeatGrantConfig config = SeatGrantConfig.builder(URI.create("http://127.0.0.1:" + closedPort))
                .maxAttempts(1).listener(recorder).build();
        try (SeatGrantWorker worker = new SeatGrantWorker(config, time, time, time)) {
            assertThrows(GrantExhaustedException.class, () -> worker.handle(event));
        }
        assertEquals(1, attempts.size());
        AttemptEvent only = attempts.get(0);
        assertEquals(Outcome.EXHAUSTED, only.outcome());
        assertEquals(OptionalInt.empty(), only.status());
        assertTrue(only.error().orElse("").endsWith("ConnectException"), only.toString());
    }

    @Test
    void theThreadsAWorkerStartsForItselfAreDaemons() throws Exception {
        wm.stubFor(post("/v1/seats").willReturn(aResponse().withStatus(201).withBody(SEAT)));
        List<Thread> before = List.copyOf(Thread.getAllStackTraces().keySet());
        List<Thread> started;
        try (SeatGrantWorker worker = new SeatGrantWorker(SeatGrantConfig.builder(URI.create(wm.baseUrl())).build())) {
            worker.handle(event);
            worker.handleAsync(new SeatRequested("req_2", "ws_1", "u_2")).get(30, TimeUnit.SECONDS);
            started = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().startsWith("seat-grant-") && !before.contains(t)).toList();
        }
        assertFalse(started.isEmpty(), "the worker ran its own client on threads of its own");
        for (Thread thread : started) {
            assertTrue(thread.isDaemon(), thread.getName() + " would keep the JVM alive");
        }
    }
}
