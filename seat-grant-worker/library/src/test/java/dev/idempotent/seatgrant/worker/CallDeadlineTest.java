package dev.idempotent.seatgrant.worker;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.idempotent.seatgrant.worker.testing.FakeTime;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code handle(event, deadline)}: the earlier of the caller's deadline and the configured call timeout wins, and
 * running out of it is {@link GrantExhaustedException.Limit#DEADLINE}. Every server answer is a 503 with
 * {@code Retry-After: 2}, so the attempts land at t = 0, 2, 4, ... on the fake clock.
 */
class CallDeadlineTest {

    @RegisterExtension
    static final WireMockExtension wm = WireMockExtension.newInstance()
            .options(options().dynamicPort().bindAddress("127.0.0.1"))
            .build();

    private final SeatRequested event = new SeatRequested("req_1", "ws_1", "u_1");
    private final FakeTime time = new FakeTime();

    @BeforeEach
    void alwaysBusy() {
        wm.stubFor(post("/v1/seats").willReturn(aResponse().withStatus(503).withHeader("Retry-After", "2")));
    }

    private SeatGrantWorker worker(Duration callTimeout) {
        return new SeatGrantWorker(SeatGrantConfig.builder(URI.create(wm.baseUrl())).maxAttempts(10)
                .callTimeout(callTimeout).build(), time, time, time);
    }

    @Test
    void anEarlierCallerDeadlineWins() {
        try (SeatGrantWorker w = worker(Duration.ofSeconds(30))) {
            GrantExhaustedException e = assertThrows(GrantExhaustedException.class,
                    () -> w.handle(event, time.instant().plusSeconds(3)));
            // t=0 attempt 1, wait 2 s; t=2 attempt 2; a second wait would end at t=4, past t=3.
            assertEquals(GrantExhaustedException.Limit.DEADLINE, e.limit());
            assertEquals(2, e.attempts());
            assertEquals(OptionalInt.of(503), e.status());
            assertEquals(List.of(Duration.ofSeconds(2)), time.sleeps());
        }
        wm.verify(2, postRequestedFor(urlEqualTo("/v1/seats")));
    }

    @Test
    void anEarlierCallTimeoutWins() {
        try (SeatGrantWorker w = worker(Duration.ofSeconds(5))) {
            GrantExhaustedException e = assertThrows(GrantExhaustedException.class,
                    () -> w.handle(event, time.instant().plusSeconds(3600)));
            // Attempts at t=0, 2, 4; a third wait would end at t=6, past the 5 s call timeout.
            assertEquals(GrantExhaustedException.Limit.DEADLINE, e.limit());
            assertEquals(3, e.attempts());
        }
        wm.verify(3, postRequestedFor(urlEqualTo("/v1/seats")));
    }

    @Test
    void aDeadlineAlreadyPastSendsNothing() {
        try (SeatGrantWorker w = worker(Duration.ofSeconds(30))) {
            GrantExhaustedException e = assertThrows(GrantExhaustedException.class,
                    () -> w.handle(event, time.instant()));
            assertEquals(GrantExhaustedException.Limit.DEADLINE, e.limit());
            assertEquals(0, e.attempts());
            assertEquals(OptionalInt.empty(), e.status());
            assertEquals(List.of(), time.sleeps());
        }
        wm.verify(0, postRequestedFor(urlEqualTo("/v1/seats")));
    }
}
