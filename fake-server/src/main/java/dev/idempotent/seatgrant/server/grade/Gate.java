package dev.idempotent.seatgrant.server.grade;

import java.util.Objects;

/**
 * One of the four gates beside the sum: any fails the worker whatever its signals say.
 *
 * @param passed whether the worker got through
 * @param reason what the grader saw, in one line
 */
public record Gate(boolean passed, String reason) {

    public Gate {
        Objects.requireNonNull(reason, "reason");
    }
}
