package dev.idempotent.seatgrant.server;

import java.util.Objects;

/**
 * The names the seat API speaks on the wire: its route, the grant's JSON fields (in the request, the answer and the
 * list filters), the value of the usual role, and the list answer's array. {@link #PACKET} is the packet's own; a
 * generated handout renames them all (read from its {@code mapping.tsv} by {@code grade --handout}), and a server
 * given those names serves the handout's API as it is. The {@code Idempotency-Key} header never changes, and the
 * journal, the fault rules and the ledger keep the packet's names ({@code /v1/seats}), so whatever reads them reads
 * one vocabulary.
 *
 * @param seats       the route, e.g. {@code /v1/seats}: a {@code /} and segments of URL-safe characters
 * @param workspaceId the grant's first id field
 * @param userId      the grant's second id field
 * @param role        the grant's role field
 * @param member      the value of the usual role ({@code member} in the packet's names)
 * @param list        the list answer's array, {@code seats} in the packet's names
 */
public record ApiNames(String seats, String workspaceId, String userId, String role, String member, String list) {

    /** The packet's own names. */
    public static final ApiNames PACKET = new ApiNames("/v1/seats", "workspaceId", "userId", "role", "member", "seats");

    public ApiNames {
        Objects.requireNonNull(seats, "seats");
        if (!seats.matches("(/[A-Za-z0-9._~-]+)+") || seats.startsWith("/__admin")) {
            throw new IllegalArgumentException("the route must be / and segments of A-Z a-z 0-9 - . _ ~");
        }
        for (String field : new String[] {workspaceId, userId, role, list}) {
            if (field == null || !field.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                throw new IllegalArgumentException("a field name must be letters, digits and _");
            }
        }
        if (workspaceId.equals(userId) || workspaceId.equals(role) || userId.equals(role)) {
            throw new IllegalArgumentException("the three field names must differ");
        }
        if (member == null || member.isBlank()) {
            throw new IllegalArgumentException("the usual role's value must not be blank");
        }
    }

    /** A role as the wire carries it, from the packet's value. */
    public String roleToWire(String role) {
        return role.equals("member") ? member : role.equals(member) ? "member" : role;
    }

    /** A role in the packet's value, from the wire's. */
    public String roleFromWire(String role) {
        return role.equals(member) ? "member" : role.equals("member") ? member : role;
    }
}
