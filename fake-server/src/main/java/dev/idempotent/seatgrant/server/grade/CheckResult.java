package dev.idempotent.seatgrant.server.grade;

import java.util.Objects;

/**
 * How one check of the catalogue went.
 *
 * @param id         the check's stable kebab-case id, e.g. {@code twin-deliveries}
 * @param signal     the rubric signal it counts towards
 * @param passed     whether the worker did what the check asks
 * @param evidence   one line from the journal, the ledger and the worker's log that shows why
 * @param duplicates users this check's server ended with more than one seat for (0 or 1: one user per check)
 */
public record CheckResult(String id, Signal signal, boolean passed, String evidence, int duplicates) {

    public CheckResult {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(signal, "signal");
        Objects.requireNonNull(evidence, "evidence");
        if (duplicates < 0) {
            throw new IllegalArgumentException("duplicates must not be negative");
        }
    }
}
