package dev.idempotent.seatgrant.worker;

import java.util.OptionalInt;

/**
 * The calling thread was interrupted while waiting for a response or a backoff; the interrupt flag is
 * restored before this is thrown. The seat may exist; redelivery is safe because the key is stable.
 */
public final class GrantInterruptedException extends GrantException {

    /**
     * Reports a shutdown that cut the grant short; the caller restores the interrupt flag before throwing.
     *
     * @param requestId the event's requestId
     * @param attempts  POSTs sent, or started, before the interrupt
     * @param cause     the interrupt
     */
    public GrantInterruptedException(String requestId, int attempts, InterruptedException cause) {
        super("seat grant interrupted for requestId " + requestId + " after " + attempts + " attempt(s)",
                requestId, attempts, OptionalInt.empty(), cause);
    }
}
