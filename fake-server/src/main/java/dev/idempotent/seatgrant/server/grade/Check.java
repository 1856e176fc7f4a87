package dev.idempotent.seatgrant.server.grade;

import dev.idempotent.seatgrant.server.ServerConfig;
import java.time.Duration;
import java.util.function.UnaryOperator;

/**
 * One entry of the catalogue: a stable id, the signal it counts towards, a one-line summary for
 * {@code grade --list}, how its server is set up, what it does and judges, and how much longer than the usual
 * delivery timeout its deliveries may run (a check that holds an answer for long gives them that much more).
 */
record Check(String id, Signal signal, String summary, UnaryOperator<ServerConfig.Builder> server, Scenario scenario,
             Duration extraBudget) {

    Check(String id, Signal signal, String summary, UnaryOperator<ServerConfig.Builder> server, Scenario scenario) {
        this(id, signal, summary, server, scenario, Duration.ZERO);
    }

    /** Runs the check's deliveries in a fresh trial and says whether the worker did what it asks, and why. */
    @FunctionalInterface
    interface Scenario {
        Judgement run(Trial trial);
    }

    /**
     * A verdict and its reason; the trial's facts are appended to make the evidence. An inconclusive judgement
     * (the trial did not set up what the check needs, e.g. twins that did not overlap) is tried once more on a
     * fresh server, and reported {@link Result#INCONCLUSIVE} if the second trial cannot tell either. A failure a
     * slow server could have caused (a worker that gave up on a slow answer) is tried again when the trial's server
     * was slow; a {@linkplain #certain certain} one (an early retry, an extra seat) never is: no slow server makes
     * a worker retry early or write a second seat.
     */
    record Judgement(boolean passed, String reason, boolean inconclusive, boolean certain) {
        static Judgement pass(String reason) {
            return new Judgement(true, reason, false, false);
        }

        static Judgement fail(String reason) {
            return new Judgement(false, reason, false, false);
        }

        /** A failure that stands however slow the grader's server was. */
        static Judgement certainly(String reason) {
            return new Judgement(false, reason, false, true);
        }

        static Judgement inconclusive(String reason) {
            return new Judgement(false, reason, true, false);
        }
    }
}
