package dev.idempotent.seatgrant.worker.conformance;

import dev.idempotent.seatgrant.worker.SeatRequested;
import dev.idempotent.seatgrant.worker.testing.CapturedEvents;
import dev.idempotent.seatgrant.worker.testing.FakeTime;
import java.net.URI;
import java.time.Duration;

/**
 * The lab's two interview implementations as conformance implementations. Both return nothing, faithful to the
 * seed's {@code Promise<void>}, so what they did is read from their logs; neither has a deadline.
 */
enum LabImplementation implements Implementation {

    MINIMAL_PATCH {
        @Override
        public Observed run(URI baseUri, FakeTime time, CapturedEvents events, SeatRequested event, Duration callTimeout) {
            var worker = new dev.idempotent.seatgrant.worker.minimalpatch.AgentSeatGrantWorker(baseUri, time::delayMillis);
            return Implementation.viaLogs(events, event, () -> worker.handleSeatRequested(
                    new dev.idempotent.seatgrant.worker.minimalpatch.AgentSeatGrantWorker.SeatEvent(
                            event.requestId(), event.workspaceId(), event.userId())));
        }

        @Override
        public Kind kind() {
            return Kind.MINIMAL_PATCH;
        }
    },

    FIXTURE {
        @Override
        public Observed run(URI baseUri, FakeTime time, CapturedEvents events, SeatRequested event, Duration callTimeout) {
            var worker = new dev.idempotent.seatgrant.worker.fixture.AgentSeatGrantWorker(baseUri, time::delayMillis);
            return Implementation.viaLogs(events, event, () -> worker.handleSeatRequested(
                    new dev.idempotent.seatgrant.worker.fixture.AgentSeatGrantWorker.SeatEvent(
                            event.requestId(), event.workspaceId(), event.userId())));
        }

        @Override
        public Kind kind() {
            return Kind.FIXTURE;
        }
    }
}
