package dev.idempotent.seatgrant.server;

import java.util.Arrays;
import java.util.Optional;

/**
 * What a fault rule does to a request, named after when it strikes: before anything is written, or after the
 * seat is committed (the incident: the server did the work, the client never hears so).
 */
public enum Fault {
    /** TCP RST before anything is written: SO_LINGER 0, then close. */
    RESET("reset", Phase.BEFORE_COMMIT),
    /** Close the connection (FIN) before anything is written, no response. */
    CLOSE("close", Phase.BEFORE_COMMIT),
    /** Answer with {@code status} (e.g. 429, 503) and an optional Retry-After; nothing written. */
    STATUS("status", Phase.BEFORE_COMMIT),
    /** Wait {@code delayMs} holding the key's claim, then serve normally: a slow server. */
    DELAY("delay", Phase.BEFORE_COMMIT),
    /** Commit the seat, then TCP RST. */
    RESET_AFTER_COMMIT("reset-after-commit", Phase.AFTER_COMMIT),
    /** Commit the seat, then close the connection without a response. */
    CLOSE_AFTER_COMMIT("close-after-commit", Phase.AFTER_COMMIT),
    /** Commit the seat, then hold the connection without a byte for {@code delayMs} (bounded), then close. */
    HANG_AFTER_COMMIT("hang-after-commit", Phase.AFTER_COMMIT),
    /** Commit the seat, then answer {@code status} (e.g. 504 as a gateway would) instead of 201. */
    STATUS_AFTER_COMMIT("status-after-commit", Phase.AFTER_COMMIT);

    /** When a fault strikes relative to the store's commit. */
    public enum Phase { BEFORE_COMMIT, AFTER_COMMIT }

    private final String wireName;
    private final Phase phase;

    Fault(String wireName, Phase phase) {
        this.wireName = wireName;
        this.phase = phase;
    }

    /** The name used in fault-plan JSON and in the journal, e.g. {@code reset-after-commit}. */
    public String wireName() {
        return wireName;
    }

    public Phase phase() {
        return phase;
    }

    /** True for the two faults that need a {@code status}. */
    public boolean needsStatus() {
        return this == STATUS || this == STATUS_AFTER_COMMIT;
    }

    /** The fault with this wire name, if any. */
    public static Optional<Fault> fromWireName(String name) {
        return Arrays.stream(values()).filter(f -> f.wireName.equals(name)).findFirst();
    }
}
