package dev.idempotent.seatgrant.worker.variants;

import dev.idempotent.seatgrant.worker.SeatRequested;

/**
 * One worker variant seen from the consumer that feeds it: handle an event, or throw so the bus redelivers.
 *
 * <p>Implementations are safe to call from several threads at once, as a consumer with concurrency does.
 */
@FunctionalInterface
public interface GrantHandler {

    /** What a handled event came to, as far as the variant itself can tell. */
    enum Handled {
        /** The variant believes it created the seat now. */
        GRANTED,
        /** The variant believes the seat already existed (a replay, or its own record of an earlier delivery). */
        REPLAYED
    }

    /**
     * Handles one delivery of {@code event}.
     *
     * @throws Exception whatever the variant throws when it gives up; the caller does not acknowledge the event
     */
    Handled handle(SeatRequested event) throws Exception;
}
