package dev.idempotent.seatgrant.server.grade;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * One run of the worker's command for one delivery of the event.
 *
 * @param exit       the exit code; meaningless when {@code timedOut}
 * @param timedOut   whether the grader killed it at the delivery timeout (a nack, as a bus would see it)
 * @param start      when the process was started
 * @param end        when it had exited (or been killed)
 * @param log        what it printed, stdout then stderr, line by line, blank lines left out
 * @param stderrHead the first non-blank line it printed on stderr, untrimmed and uncut; empty when none
 * @param output     what it printed, stdout then stderr, as it printed it (up to 1 MiB of each)
 * @param outputCut  whether either stream printed more than the 1 MiB kept
 */
record Delivery(int exit, boolean timedOut, Instant start, Instant end, List<String> log, String stderrHead,
                String output, boolean outputCut) {

    /** Exit code 0: the worker acknowledges the message. */
    static final int ACK = 0;
    /** Exit code 3: the event can never succeed; dead-letter it, do not redeliver. */
    static final int REJECT = 3;

    Delivery {
        log = List.copyOf(log);
    }

    boolean acked() {
        return !timedOut && exit == ACK;
    }

    boolean rejected() {
        return !timedOut && exit == REJECT;
    }

    /** Anything but an ack or a reject: the bus redelivers. */
    boolean nacked() {
        return !acked() && !rejected();
    }

    /** Whether {@code at} falls within this delivery's lifetime. */
    boolean covers(Instant at) {
        return !at.isBefore(start) && !at.isAfter(end);
    }

    Duration took() {
        return Duration.between(start, end);
    }

    /** {@code ack}, {@code reject}, {@code nack (exit 1)} or {@code killed at the delivery timeout}. */
    String verdict() {
        if (timedOut) {
            return "killed at the delivery timeout";
        }
        if (acked()) {
            return "ack";
        }
        return rejected() ? "reject" : "nack (exit " + exit + ")";
    }
}
