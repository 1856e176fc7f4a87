package dev.idempotent.seatgrant.server;

/** How the server answers a POST whose Idempotency-Key already completed with the same payload. */
public enum ReplayStatus {
    /** {@code 409 Conflict} with the original seat as the body, as in the seed's patch (the default). */
    CONFLICT,
    /** The original {@code 201 Created} and body again, the way Stripe replays. */
    ORIGINAL;

    /**
     * Reads the CLI spelling: {@code 409} or {@code original}.
     *
     * @throws IllegalArgumentException for anything else
     */
    public static ReplayStatus parse(String value) {
        return switch (value) {
            case "409" -> CONFLICT;
            case "original" -> ORIGINAL;
            default -> throw new IllegalArgumentException("replay status must be 409 or original");
        };
    }
}
