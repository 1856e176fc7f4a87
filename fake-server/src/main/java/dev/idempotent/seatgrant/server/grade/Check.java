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

    /** A verdict and its reason; the trial's facts are appended to make the evidence. */
    record Judgement(boolean passed, String reason) {
        static Judgement pass(String reason) {
            return new Judgement(true, reason);
        }

        static Judgement fail(String reason) {
            return new Judgement(false, reason);
        }
    }
}
