package dev.idempotent.seatgrant.worker;

import java.util.Objects;

/**
 * What went right for one event: the seat was created now, or the server replayed the seat an earlier
 * attempt or delivery created. Both mean the same thing to the caller (the grant is done; acknowledge the
 * message); they differ only in what they tell an operator.
 */
public sealed interface GrantOutcome {

    /** {@return the seat that now exists for this requestId} */
    String seatId();

    /** {@return how many POSTs this call sent, the successful one included (1 to maxAttempts)} */
    int attempts();

    /**
     * The server created the seat in answer to one of this call's POSTs (201 without a replay header).
     *
     * @param seatId   the new seat
     * @param attempts POSTs sent by this call
     */
    record Granted(String seatId, int attempts) implements GrantOutcome {
        /**
         * Checks the values.
         *
         * @param seatId   the seat
         * @param attempts POSTs sent by this call, at least 1
         */
        public Granted {
            Objects.requireNonNull(seatId, "seatId");
            if (attempts < 1) {
                throw new IllegalArgumentException("attempts must be at least 1");
            }
        }
    }

    /**
     * The server had already completed this key and answered with the existing seat (a 409 carrying the
     * seat, or a 2xx with {@code Idempotent-Replayed: true}). Expected after a lost response or a redelivery.
     *
     * @param seatId   the seat created earlier for this requestId
     * @param attempts POSTs sent by this call
     */
    record Replayed(String seatId, int attempts) implements GrantOutcome {
        /**
         * Checks the values.
         *
         * @param seatId   the seat
         * @param attempts POSTs sent by this call, at least 1
         */
        public Replayed {
            Objects.requireNonNull(seatId, "seatId");
            if (attempts < 1) {
                throw new IllegalArgumentException("attempts must be at least 1");
            }
        }
    }
}
