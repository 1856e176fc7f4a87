package dev.idempotent.seatgrant.worker;

import java.util.Objects;

/**
 * A {@code seat.requested} event as the bus delivers it: at least once, possibly twice at the same moment.
 *
 * <p>{@code requestId} is the producer's identity for this grant and becomes the {@code Idempotency-Key}
 * of every POST the worker sends for it, so it must be a legal key: 1 to 255 visible ASCII characters.
 *
 * @param requestId   the grant's identity, stable across redeliveries
 * @param workspaceId the workspace receiving the seat
 * @param userId      the user receiving the seat
 * @throws IllegalArgumentException if a field is blank or {@code requestId} is not a legal key
 */
public record SeatRequested(String requestId, String workspaceId, String userId) {

    /** The longest requestId the seat API accepts as an Idempotency-Key. */
    public static final int MAX_REQUEST_ID_LENGTH = 255;

    public SeatRequested {
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(workspaceId, "workspaceId");
        Objects.requireNonNull(userId, "userId");
        if (!isLegalKey(requestId)) {
            // Reject at the edge: a key the server refuses would turn every delivery into a 400.
            throw new IllegalArgumentException(
                    "requestId must be 1 to " + MAX_REQUEST_ID_LENGTH + " visible ASCII characters");
        }
        if (workspaceId.isBlank() || userId.isBlank()) {
            throw new IllegalArgumentException("workspaceId and userId must not be blank");
        }
    }

    private static boolean isLegalKey(String key) {
        if (key.isEmpty() || key.length() > MAX_REQUEST_ID_LENGTH) {
            return false;
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c < 0x21 || c > 0x7e) {
                return false;
            }
        }
        return true;
    }
}
