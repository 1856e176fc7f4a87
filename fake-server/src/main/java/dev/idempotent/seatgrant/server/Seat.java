package dev.idempotent.seatgrant.server;

import java.time.Instant;
import java.util.Objects;

/**
 * One granted seat, as the store holds it and as {@code POST /v1/seats} and {@code GET /v1/seats/{id}} return it.
 *
 * @param id          the server-assigned id, e.g. {@code seat_3f2a...}
 * @param workspaceId the workspace the seat belongs to
 * @param userId      the user holding the seat
 * @param role        one of {@link #ROLES}
 * @param createdAt   when the seat was committed, to the millisecond
 */
public record Seat(String id, String workspaceId, String userId, String role, Instant createdAt) {

    /** The roles a grant may ask for; anything else is a 400. */
    public static final java.util.Set<String> ROLES = java.util.Set.of("member", "admin", "viewer");

    public Seat {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(workspaceId, "workspaceId");
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(createdAt, "createdAt");
    }
}
