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
 *                       yet, a write that failed, a fault that replaced the answer, an answer that waited more than
 *                       a second on its reader)
 * @param cut            true when the journal kept only the first {@value #MAX_CLIENT_STRING_BYTES} bytes of a
 *                       string the client chose ({@code method}, {@code path}, {@code idempotencyKey},
 *                       {@code workspaceId}, {@code userId})
 * @param operation      a proxy's: the operation the request belongs to ({@code key:...}, {@code key-sha256:...} or
 *                       {@code fingerprint:...}); nullable (a request refused before its body was whole, or any
 *                       seat-server request)
 * @param upstreamStatus a proxy's: the status the upstream answered, also when a fault kept it from the client;
 *                       nullable (the request never reached the upstream, or got no whole answer)
 * @param upstreamError  a proxy's: why the upstream gave no answer ({@code refused}, {@code timeout},
 *                       {@code broken}, {@code too-large}); nullable (it answered, or was never asked)
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
        boolean cut,
        String operation,
        Integer upstreamStatus,
        String upstreamError) {

    /**
     * How much of each string a client chose the journal keeps: its first 1 KiB, counted as the journal's JSON
     * writes it (UTF-8, a control character as its six-byte escape), so no request can make an entry large.
     */
    public static final int MAX_CLIENT_STRING_BYTES = 1024;

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

    /**
     * An entry of the seat server's, whose client strings are whole ({@code cut} false) and which forwards nothing
     * (no operation, no upstream): the form before either existed.
     */
    public JournalEntry(long seq, Instant at, String method, String path, String idempotencyKey, String workspaceId,
                        String userId, int attempt, String fault, boolean committed, String seatId, Integer status,
                        boolean sent, Long answeredMs) {
        this(seq, at, method, path, idempotencyKey, workspaceId, userId, attempt, fault, committed, seatId, status,
                sent, answeredMs, false);
    }

    /** An entry of the seat server's, which forwards nothing: no operation, no upstream. */
    public JournalEntry(long seq, Instant at, String method, String path, String idempotencyKey, String workspaceId,
                        String userId, int attempt, String fault, boolean committed, String seatId, Integer status,
                        boolean sent, Long answeredMs, boolean cut) {
        this(seq, at, method, path, idempotencyKey, workspaceId, userId, attempt, fault, committed, seatId, status,
                sent, answeredMs, cut, null, null, null);
    }

    /** This entry at another place in the journal. */
    public JournalEntry withSeq(long newSeq) {
        return new JournalEntry(newSeq, at, method, path, idempotencyKey, workspaceId, userId, attempt, fault,
                committed, seatId, status, sent, answeredMs, cut, operation, upstreamStatus, upstreamError);
    }

    /**
     * This entry with each string its client chose cut to its first {@link #MAX_CLIENT_STRING_BYTES}, and
     * {@code cut} set when any was; the entry itself when none needed it.
     */
    public JournalEntry withClientStringsCut() {
        String newMethod = cut(method);
        String newPath = cut(path);
        String newKey = cut(idempotencyKey);
        String newWorkspaceId = cut(workspaceId);
        String newUserId = cut(userId);
        if (newMethod == method && newPath == path && newKey == idempotencyKey && newWorkspaceId == workspaceId
                && newUserId == userId) {
            return this;
        }
        // The operation names a key of at most 255 characters, or a hash: it needs no cut.
        return new JournalEntry(seq, at, newMethod, newPath, newKey, newWorkspaceId, newUserId, attempt, fault,
                committed, seatId, status, sent, answeredMs, true, operation, upstreamStatus, upstreamError);
    }

    /** The longest start of {@code s} whose JSON text is at most the bound; {@code s} itself when it all fits. */
    private static String cut(String s) {
        if (s == null) {
            return null;
        }
        int bytes = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean pair = Character.isHighSurrogate(c) && i + 1 < s.length()
                    && Character.isLowSurrogate(s.charAt(i + 1));
            int cost;
            if (c < 0x20) {
                cost = 6;
            } else if (c == '"' || c == '\\') {
                cost = 2;
            } else if (c < 0x80) {
                cost = 1;
            } else if (c < 0x800) {
                cost = 2;
            } else {
                cost = pair ? 4 : 3;
            }
            if (bytes + cost > MAX_CLIENT_STRING_BYTES) {
                return s.substring(0, i);
            }
            bytes += cost;
            if (pair) {
                i++;
            }
        }
        return s;
    }

    /**
     * This entry once it is known whether its response reached the socket.
     *
     * @param newAnsweredMs milliseconds from {@code at} until it did; null when it did not
     */
    public JournalEntry withAnswer(Long newAnsweredMs) {
        return new JournalEntry(seq, at, method, path, idempotencyKey, workspaceId, userId, attempt, fault,
                committed, seatId, status, newAnsweredMs != null, newAnsweredMs, cut, operation, upstreamStatus,
                upstreamError);
    }
}
