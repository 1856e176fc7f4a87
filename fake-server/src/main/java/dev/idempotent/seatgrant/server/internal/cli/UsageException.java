package dev.idempotent.seatgrant.server.internal.cli;

/** A bad command line; the message is one line for the user, and the process exits 2. */
public final class UsageException extends Exception {
    public UsageException(String message) {
        super(message, null, false, false);
    }
}
