package dev.idempotent.seatgrant.server.internal.store;

/** The database failed; the message never carries a JDBC URL or a credential. */
public final class StoreException extends RuntimeException {
    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
