package dev.idempotent.seatgrant.worker.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.seatgrant.worker.SeatRequested;
import dev.idempotent.seatgrant.worker.testing.CapturedEvents;
import dev.idempotent.seatgrant.worker.testing.FakeTime;
import dev.idempotent.seatgrant.worker.testing.SeatServer;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The incident itself, against a server that really commits the first POST and then resets the
 * connection: the fixture ends with two seats for one requestId and reports success; the minimal patch and
 * the answer key end with one.
 */
class IncidentTest {

    private static final SeatRequested EVENT = new SeatRequested("req_incident", "ws_1", "u_1");

    private static Implementation.Observed run(Implementation impl, SeatServer server) {
        FakeTime time = new FakeTime();
        try (CapturedEvents events = new CapturedEvents()) {
            return impl.run(server.baseUri(), time, events, EVENT, Duration.ofSeconds(30));
        }
    }

    @Test
    void theFixtureGrantsTwoSeatsForOneRequestAndCallsItSuccess() throws Exception {
        try (SeatServer server = new SeatServer(1)) {
            Implementation.Observed o = run(LabImplementation.FIXTURE, server);
            assertTrue(o.error().isEmpty(), "the fixture believes it succeeded");
            assertEquals(2, server.posts());
            assertEquals(2, server.seats().size(), "the duplicate seat");
            assertNull(server.seats().get(0).key(), "no Idempotency-Key was ever sent");
            assertEquals(server.seats().get(0).body(), server.seats().get(1).body(), "same grant, twice");
        }
    }

    @Test
    void theMinimalPatchGrantsOne() throws Exception {
        try (SeatServer server = new SeatServer(1)) {
            Implementation.Observed o = run(LabImplementation.MINIMAL_PATCH, server);
            assertTrue(o.error().isEmpty());
            assertEquals(2, server.posts());
            assertEquals(1, server.seats().size());
            assertEquals("replayed", o.outcome().orElseThrow());
        }
    }

    @Test
    void theAnswerKeyGrantsOne() throws Exception {
        try (SeatServer server = new SeatServer(1)) {
            Implementation.Observed o = run(AnswerKey.SYNC, server);
            assertTrue(o.error().isEmpty());
            assertEquals(2, server.posts());
            assertEquals(1, server.seats().size());
            assertEquals("replayed", o.outcome().orElseThrow());
        }
    }
}
