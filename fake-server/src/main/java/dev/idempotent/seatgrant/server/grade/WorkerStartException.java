package dev.idempotent.seatgrant.server.grade;

/** The worker's command could not be started at all (no such program, not executable): nothing can be graded. */
public final class WorkerStartException extends RuntimeException {

    WorkerStartException(String message) {
        super(message);
    }
}
