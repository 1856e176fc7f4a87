package dev.idempotent.seatgrant.server.lab;

import dev.idempotent.seatgrant.worker.variants.Variant;

/**
 * One row of the lab's table: what one worker variant did to one batch of events.
 *
 * @param variant         the worker variant
 * @param events          events in the batch
 * @param posts           POST /v1/seats requests the server received, faulted ones included
 * @param seats           seats the server holds afterwards
 * @param duplicates      seats beyond the first for any one grant
 * @param failed          events lost: dead-lettered, or acknowledged although no seat exists for them
 * @param afterLostAnswer extra seats on events delivered once, before the restart
 * @param onTwins         extra seats on events delivered twice at the same moment, before the restart
 * @param afterRestart    extra seats created by redeliveries to the restarted worker
 * @param deadLettered    events no delivery managed to handle
 * @param ackedWithoutSeat events a worker acknowledged although the server holds no seat for them
 */
public record VariantResult(
        Variant variant,
        int events,
        long posts,
        long seats,
        long duplicates,
        int failed,
        long afterLostAnswer,
        long onTwins,
        long afterRestart,
        int deadLettered,
        int ackedWithoutSeat) {

    /** The one-word reading of the row. */
    public Verdict verdict() {
        if (duplicates > 0) {
            return Verdict.DUPLICATES;
        }
        return failed > 0 ? Verdict.LOST_EVENTS : Verdict.ONE_SEAT_EACH;
    }

    /** Whether this row shows what the variant is in the lab to show. */
    public boolean asExpected() {
        if (variant.expectedToBeSafe()) {
            return verdict() == Verdict.ONE_SEAT_EACH;
        }
        if (variant.expectedToDuplicate()) {
            return verdict() == Verdict.DUPLICATES;
        }
        return true;
    }

    /** Which fault did what, in words, e.g. {@code 20 after a lost answer, 5 on twin deliveries}. */
    public String causes() {
        StringBuilder out = new StringBuilder();
        append(out, afterLostAnswer, "after a lost answer");
        append(out, onTwins, "on twin deliveries");
        append(out, afterRestart, "after the restart");
        append(out, deadLettered, deadLettered == 1 ? "event dead-lettered" : "events dead-lettered");
        append(out, ackedWithoutSeat, ackedWithoutSeat == 1 ? "event acked without a seat"
                : "events acked without a seat");
        return out.length() == 0 ? "-" : out.toString();
    }

    private static void append(StringBuilder out, long count, String what) {
        if (count > 0) {
            out.append(out.length() == 0 ? "" : ", ").append(count).append(' ').append(what);
        }
    }

    /** How a row reads at a glance. */
    public enum Verdict {
        /** At least one grant has more than one seat: the incident. */
        DUPLICATES("duplicate seats"),
        /** No duplicates, but some events were lost: dead-lettered, or acknowledged with no seat behind them. */
        LOST_EVENTS("lost events"),
        /** Every event handled, every grant exactly one seat: the invariant holds. */
        ONE_SEAT_EACH("one seat each");

        private final String words;

        Verdict(String words) {
            this.words = words;
        }

        /** The verdict as the table and the JSON print it. */
        public String words() {
            return words;
        }
    }
}
