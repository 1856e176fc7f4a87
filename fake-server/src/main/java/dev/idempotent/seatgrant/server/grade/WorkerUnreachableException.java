package dev.idempotent.seatgrant.server.grade;

/**
 * The worker's first delivery failed without a single request reaching the server: a wrong path in the command,
 * a crash on start-up or an unread {@code SEATS_BASE_URL}, not a retry policy. Grading on would score every
 * check 0 and hide the cause, so the grader stops.
 */
public final class WorkerUnreachableException extends RuntimeException {

    WorkerUnreachableException(String message) {
        super(message);
    }
}
