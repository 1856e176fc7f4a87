package dev.idempotent.seatgrant.worker.variants;

import dev.idempotent.seatgrant.worker.SeatRequested;

/**
 * One worker variant seen from the consumer that feeds it: handle an event, or throw so the bus redelivers; close it
 * when the consumer stops, as a process that exits releases what it held.
 *
 * <p>Implementations are safe to call from several threads at once, as a consumer with concurrency does.
 */
@FunctionalInterface
public interface GrantHandler extends AutoCloseable {

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

    /**
     * Releases what the variant created: the answer key closes its {@code SeatGrantWorker} (its HTTP client and
     * threads); the interview variants hold nothing that needs it. A delivery still running when this is called may
     * end with {@link IllegalStateException}, a nack. Idempotent.
     */
    @Override
    default void close() {
    }
}
