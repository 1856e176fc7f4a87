package dev.idempotent.seatgrant.worker;

import java.util.List;
import java.util.Objects;

/**
 * A {@code seat.requested} event as the bus delivers it: at least once, possibly twice at the same moment.
 *
 * <p>The fields follow the seat API's own input rules, so an event the server would refuse with a 400 is refused
 * here, at the edge, instead of being sent (and dead-lettered) on every delivery:
 * <ul>
 *   <li>{@code requestId} becomes the {@code Idempotency-Key} of every POST for this event: 1 to
 *       {@value #MAX_REQUEST_ID_LENGTH} characters, each a visible ASCII character (0x21 to 0x7E); no space, no
 *       control character, nothing outside ASCII; and not starting with {@code "} (the server reads such a key as a
 *       structured-field string, the IETF draft's form of the key).</li>
 *   <li>{@code workspaceId} and {@code userId}: 1 to {@value #MAX_ID_LENGTH} characters, not blank, no leading or
 *       trailing whitespace ({@code s.equals(s.strip())}), no control character, no unpaired surrogate. Kept exactly
 *       as given otherwise: the worker never trims, so the id it grants is the id the producer sent.</li>
 *   <li>{@code role}: one of {@link #ROLES} ({@code member}, {@code admin}, {@code viewer}), exactly as the seat
 *       API spells it; the three-argument constructor means {@value #DEFAULT_ROLE}.</li>
 * </ul>
 *
 * @param requestId   the grant's identity, stable across redeliveries
 * @param workspaceId the workspace receiving the seat
 * @param userId      the user receiving the seat
 * @param role        the seat's role, one of {@link #ROLES}
 */
public record SeatRequested(String requestId, String workspaceId, String userId, String role) {

    /** The longest requestId the seat API accepts as an Idempotency-Key. */
    public static final int MAX_REQUEST_ID_LENGTH = 255;

    /** The longest workspaceId or userId the seat API accepts. */
    public static final int MAX_ID_LENGTH = 255;

    /** The roles the seat API grants; it refuses any other with a 400. */
    public static final List<String> ROLES = List.of("member", "admin", "viewer");

    /** The role of an event built without one. */
    public static final String DEFAULT_ROLE = "member";

    /**
     * Checks every field against the seat API's rules.
     *
     * @param requestId   the grant's identity, stable across redeliveries
     * @param workspaceId the workspace receiving the seat
     * @param userId      the user receiving the seat
     * @param role        the seat's role, one of {@link #ROLES}
     * @throws IllegalArgumentException if {@code requestId} is not a legal Idempotency-Key (or starts with
     *     {@code "}), an id is blank,
     *     too long, padded with whitespace or holds a control character or an unpaired surrogate, or the role is
     *     not one of {@link #ROLES}
     * @throws NullPointerException     if a field is null
     */
    public SeatRequested {
        Objects.requireNonNull(requestId, "requestId");
        Objects.requireNonNull(workspaceId, "workspaceId");
        Objects.requireNonNull(userId, "userId");
        Objects.requireNonNull(role, "role");
        if (!isLegalKey(requestId)) {
            // Reject at the edge: a key the server refuses would turn every delivery into a 400.
            throw new IllegalArgumentException(
                    "requestId must be 1 to " + MAX_REQUEST_ID_LENGTH + " visible ASCII characters (0x21 to 0x7E)");
        }
        if (requestId.charAt(0) == '"') {
            // The server reads a key that starts with a double quote as a structured-field string, so it would
            // dedupe this grant under another key ("r1" as r1), or refuse it.
            throw new IllegalArgumentException("requestId must not start with a double quote (\")");
        }
        checkId(workspaceId, "workspaceId");
        checkId(userId, "userId");
        if (!ROLES.contains(role)) {
            // The seat API refuses any other role with a 400; its spelling is exact (no "Member", no " admin").
            throw new IllegalArgumentException("role must be one of " + String.join(", ", ROLES));
        }
    }

    /**
     * An event for a seat with the role {@value #DEFAULT_ROLE}, as every event was before the role was carried.
     *
     * @param requestId   the grant's identity, stable across redeliveries
     * @param workspaceId the workspace receiving the seat
     * @param userId      the user receiving the seat
     * @throws IllegalArgumentException if {@code requestId} is not a legal Idempotency-Key, or an id breaks the
     *     rules above
     * @throws NullPointerException     if a field is null
     */
    public SeatRequested(String requestId, String workspaceId, String userId) {
        this(requestId, workspaceId, userId, DEFAULT_ROLE);
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

    private static void checkId(String id, String name) {
        // Messages name the rule, never the value: an id can be personal data.
        if (id.isBlank()) {
            throw new IllegalArgumentException(name + " must not be blank");
        }
        if (!id.equals(id.strip())) {
            throw new IllegalArgumentException(name + " must not start or end with whitespace");
        }
        if (id.length() > MAX_ID_LENGTH) {
            throw new IllegalArgumentException(name + " must be at most " + MAX_ID_LENGTH + " characters");
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (Character.isISOControl(c)) {
                throw new IllegalArgumentException(name + " must not contain control characters");
            }
            if (Character.isHighSurrogate(c) && i + 1 < id.length() && Character.isLowSurrogate(id.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException(name + " must be valid Unicode text");
            }
        }
    }
}
