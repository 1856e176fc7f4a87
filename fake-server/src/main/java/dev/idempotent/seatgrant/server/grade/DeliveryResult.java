package dev.idempotent.seatgrant.server.grade;

import java.util.Objects;

/**
 * One run of the worker's command as the report shows it, so a reviewer can see why a check failed.
 *
 * @param exit            the exit code; nullable: the grader killed the delivery
 * @param killed          whether the grader killed it at {@code --timeout-per-delivery}
 * @param ms              how long it ran, in milliseconds
 * @param output          what it printed, stdout then stderr, with the base URL (and its host and port, and its
 *                        path) shown as {@code [SEATS_BASE_URL]}, cut to {@value #MAX_OUTPUT_BYTES} bytes of UTF-8
 * @param outputTruncated whether {@code output} was cut
 */
public record DeliveryResult(Integer exit, boolean killed, long ms, String output, boolean outputTruncated) {

    /** The most of a delivery's output a report keeps: 8 KiB, measured as UTF-8. */
    public static final int MAX_OUTPUT_BYTES = 8 * 1024;

    public DeliveryResult {
        Objects.requireNonNull(output, "output");
        if (killed != (exit == null)) {
            throw new IllegalArgumentException("a killed delivery has no exit code, and only a killed one");
        }
        if (ms < 0) {
            throw new IllegalArgumentException("ms must not be negative");
        }
    }
}
