package dev.idempotent.seatgrant.server;

import java.util.List;
import java.util.Objects;

/**
 * What the store holds, summarised so anyone can see the incident: how many seats and keys exist, and
 * every (workspaceId, userId) that has more than one seat.
 *
 * @param seats      the number of seats
 * @param keys       the number of idempotency keys seen (claimed or completed)
 * @param duplicates each (workspaceId, userId) with more than one seat
 */
public record Ledger(long seats, long keys, List<Duplicate> duplicates) {

    public Ledger {
        duplicates = List.copyOf(duplicates);
    }

    /**
     * One user who holds more than one seat in a workspace: the incident, made visible.
     *
     * @param workspaceId     the workspace
     * @param userId          the user
     * @param seatIds         the seats, oldest first
     * @param idempotencyKeys the keys those seats were written under (keyless grants contribute none)
     */
    public record Duplicate(String workspaceId, String userId, List<String> seatIds, List<String> idempotencyKeys) {
        public Duplicate {
            Objects.requireNonNull(workspaceId, "workspaceId");
            Objects.requireNonNull(userId, "userId");
            seatIds = List.copyOf(seatIds);
            idempotencyKeys = List.copyOf(idempotencyKeys);
        }
    }
}
