package dev.idempotent.seatgrant.server.grade;

import dev.idempotent.seatgrant.server.ServerConfig;
import java.util.function.UnaryOperator;

/**
 * One entry of the catalogue: a stable id, the signal it counts towards, a one-line summary for
 * {@code grade --list}, how its server is set up, and what it does and judges.
 */
record Check(String id, Signal signal, String summary, UnaryOperator<ServerConfig.Builder> server, Scenario scenario) {

    /** Runs the check's deliveries in a fresh trial and says whether the worker did what it asks, and why. */
    @FunctionalInterface
    interface Scenario {
        Judgement run(Trial trial);
    }

    /**
     * A verdict and its reason; the trial's facts are appended to make the evidence. An inconclusive judgement
     * (the trial did not set up what the check needs, e.g. twins that did not overlap) is tried once more on a
     * fresh server, and reported {@link Result#INCONCLUSIVE} if the second trial cannot tell either.
     */
    record Judgement(boolean passed, String reason, boolean inconclusive) {
        static Judgement pass(String reason) {
            return new Judgement(true, reason, false);
        }

        static Judgement fail(String reason) {
            return new Judgement(false, reason, false);
        }

        static Judgement inconclusive(String reason) {
            return new Judgement(false, reason, true);
        }
    }
}
