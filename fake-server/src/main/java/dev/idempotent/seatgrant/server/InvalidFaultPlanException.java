package dev.idempotent.seatgrant.server;

/**
 * A fault plan that cannot be used; the message names the first problem and never echoes input values
 * beyond field names, so it is safe to send back in a 400.
 */
public final class InvalidFaultPlanException extends IllegalArgumentException {

    public InvalidFaultPlanException(String reason) {
        super(reason);
    }

    public InvalidFaultPlanException(String reason, Throwable cause) {
        super(reason, cause);
    }
}
