package dev.idempotent.seatgrant.server.junit;

import dev.idempotent.seatgrant.server.FakeServer.Duplication;
import dev.idempotent.seatgrant.server.JournalEntry;
import java.util.List;

/**
 * The message of {@link FakeServerExtension#assertNoDuplicates()}: one paragraph per duplicated subject, then one
 * line per request the journal holds for it, so a failing test tells which attempt made the second seat and what
 * the client had been answered before it.
 *
 * <pre>
 * Expected at most one seat per user; found 1 duplicate:
 *   user user_1 in workspace ws_1 has 2 seats: seat_a, seat_b; keys: none; its requests:
 *     #1 POST /v1/seats, attempt 1, no key: committed seat_a; fault status-after-commit answered 504
 *     #2 POST /v1/seats, attempt 2, no key: committed seat_b; answered 201
 * </pre>
 *
 * <p>Through a proxy it speaks of operations and resources: {@code Expected at most one resource per operation}.
 *
 * <p>It quotes the Idempotency-Keys, which the server otherwise keeps out of its logs: in a test they are the
 * evidence, and they are the client's own request ids. Paths are API paths, never with a query string or a base
 * path, and no URL appears. Long stories are cut: at most {@value #MAX_SUBJECTS} subjects and
 * {@value #MAX_REQUESTS} requests each, then a count of the rest.
 */
final class DuplicatesMessage {

    static final int MAX_SUBJECTS = 20;
    static final int MAX_REQUESTS = 20;

    private DuplicatesMessage() {
    }

    static String describe(List<Duplication> duplications) {
        // Every duplication comes from one server, so the first one's noun says which kind it is.
        boolean seats = duplications.isEmpty() || "seat".equals(duplications.get(0).noun());
        StringBuilder out = new StringBuilder(seats ? "Expected at most one seat per user; found "
                : "Expected at most one resource per operation; found ").append(duplications.size()).append(duplications.size() == 1 ? " duplicate:" : " duplicates:");
        for (Duplication d : duplications.subList(0, Math.min(MAX_SUBJECTS, duplications.size()))) {
            out.append("\n  ").append(d.subject()).append(" has ").append(d.created().size()).append(' ')
                    .append(d.noun()).append("s: ").append(String.join(", ", d.created()))
                    .append("; keys: ").append(d.keys().isEmpty() ? "none" : String.join(", ", d.keys()));
            if (d.requests().isEmpty()) {
                out.append("; none of its requests is left in the journal");
                continue;
            }
            out.append("; its requests:");
            for (JournalEntry e : d.requests().subList(0, Math.min(MAX_REQUESTS, d.requests().size()))) {
                out.append("\n    ").append(request(e));
            }
            if (d.requests().size() > MAX_REQUESTS) {
                out.append("\n    ... and ").append(d.requests().size() - MAX_REQUESTS).append(" more requests");
            }
        }
        if (duplications.size() > MAX_SUBJECTS) {
            out.append("\n  ... and ").append(duplications.size() - MAX_SUBJECTS).append(" more duplicates");
        }
        return out.toString();
    }

    /**
     * {@code #2 POST /v1/seats, attempt 2, no key: committed seat_b; answered 201}; through a proxy, a lost answer
     * adds {@code ; the upstream had answered 201}.
     */
    static String request(JournalEntry e) {
        StringBuilder line = new StringBuilder().append('#').append(e.seq()).append(' ').append(e.method())
                .append(' ').append(e.path());
        if (e.attempt() > 0) {
            line.append(", attempt ").append(e.attempt());
        }
        line.append(e.idempotencyKey() == null ? ", no key" : ", key " + e.idempotencyKey()).append(": ");
        if (e.committed()) {
            line.append("committed ").append(e.seatId());
        } else if (e.seatId() != null) {
            line.append("replayed ").append(e.seatId());
        } else {
            line.append("wrote nothing");
        }
        line.append("; ");
        if (e.fault() != null) {
            line.append("fault ").append(e.fault())
                    .append(e.status() == null ? " sent no answer" : " answered " + e.status());
        } else if (e.status() == null) {
            line.append("no answer");
        } else if (e.sent()) {
            line.append("answered ").append(e.status());
        } else {
            line.append("answer ").append(e.status()).append(" not (yet) sent in full");
        }
        // Through a proxy: what the upstream did, when the client was told something else.
        if (e.upstreamError() != null) {
            line.append("; upstream ").append(e.upstreamError());
        } else if (e.upstreamStatus() != null && (e.fault() != null || !e.upstreamStatus().equals(e.status()))) {
            line.append("; the upstream had answered ").append(e.upstreamStatus());
        }
        return line.toString();
    }
}
