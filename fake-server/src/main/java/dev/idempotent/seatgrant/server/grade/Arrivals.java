package dev.idempotent.seatgrant.server.grade;

import dev.idempotent.seatgrant.server.JournalEntry;
import java.util.Optional;

/** PENDING the journal's answeredMs (branch split): until it lands, no answer time is known. */
final class Arrivals {

    private Arrivals() {
    }

    static Optional<Long> answeredMs(JournalEntry e) {
        return Optional.empty();
    }
}
