package dev.idempotent.seatgrant.server;

import java.time.Instant;
import java.util.Objects;

/**
 * One request the seat API (or a proxy) received, faulted or not, as {@code GET /__admin/requests} lists it.
 * A proxy's entries use the seat fields where they mean the same ({@code idempotencyKey} is the operation's key,
 * {@code seatId} the resource the upstream created) and add {@code operation}, {@code upstreamStatus} and
 * {@code upstreamError}, which are null on the seat server's.
 *
 * @param seq            its place in the journal, from 1, increasing in the order outcomes became known; never
 *                       reused, not even after a reset ({@code GET /__admin/requests?after=SEQ} relies on it)
 * @param at             when the server read the request's first byte, by the server's clock (the time of the
 *                       read that carried it; see {@code answeredMs} for when it was answered)
 * @param method         the HTTP method
 * @param path           the API path, never the query string, and without the server's base path
 * @param idempotencyKey the Idempotency-Key header; nullable (absent or invalid)
 * @param workspaceId    the grant's workspaceId for a POST whose body was valid, the filter for a list; else null
 * @param userId         the grant's userId for a POST whose body was valid, the filter for a list; else null
 * @param attempt        which request this was for its key (or, keyless, for its body), from 1; 0 when refused
 *                       before the fault plan was asked
 * @param fault          the fault's wire name ({@code reset-after-commit}, ...); nullable (no fault)
 * @param committed      true when this request wrote the seat
 * @param seatId         the seat this request wrote or replayed; nullable
 * @param status         the status the server chose; nullable when a fault replaced the response
 * @param sent           true only once the whole response reached the socket; false while it is being written,
 *                       when the connection broke first, and when a fault replaced it
 * @param answeredMs     milliseconds from {@code at} until the whole response reached the socket, by the same
 *                       clock, never negative; nullable: null exactly when {@code sent} is false (nothing written
 *                       yet, a write that failed, a fault that replaced the answer)
 */
public record JournalEntry(
        long seq,
        Instant at,
        String method,
        String path,
        String idempotencyKey,
        String workspaceId,
        String userId,
        int attempt,
        String fault,
        boolean committed,
        String seatId,
        Integer status,
        boolean sent,
        Long answeredMs,
        String operation,
        Integer upstreamStatus,
        String upstreamError) {

    public JournalEntry {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        if (sent != (answeredMs != null)) {
            throw new IllegalArgumentException("answeredMs is set exactly when the response was sent");
        }
        if (answeredMs != null && answeredMs < 0) {
            throw new IllegalArgumentException("answeredMs is never negative");
        }
    }

    /** An entry of the seat server's, which forwards nothing: no operation, no upstream. */
    public JournalEntry(long seq, Instant at, String method, String path, String idempotencyKey, String workspaceId,
                        String userId, int attempt, String fault, boolean committed, String seatId, Integer status,
                        boolean sent, Long answeredMs) {
        this(seq, at, method, path, idempotencyKey, workspaceId, userId, attempt, fault, committed, seatId, status,
                sent, answeredMs, null, null, null);
    }

    /** This entry at another place in the journal. */
    public JournalEntry withSeq(long newSeq) {
        return new JournalEntry(newSeq, at, method, path, idempotencyKey, workspaceId, userId, attempt, fault,
                committed, seatId, status, sent, answeredMs, operation, upstreamStatus, upstreamError);
    }

    /**
     * This entry once it is known whether its response reached the socket.
     *
     * @param newAnsweredMs milliseconds from {@code at} until it did; null when it did not
     */
    public JournalEntry withAnswer(Long newAnsweredMs) {
        return new JournalEntry(seq, at, method, path, idempotencyKey, workspaceId, userId, attempt, fault,
                committed, seatId, status, newAnsweredMs != null, newAnsweredMs, operation, upstreamStatus,
                upstreamError);
    }
}
