package dev.idempotent.seatgrant.server;

import java.time.Instant;
import java.util.Objects;

/**
 * One request the seat API received, faulted or not, as {@code GET /__admin/requests} lists it.
 *
 * @param at             when the request arrived
 * @param method         the HTTP method
 * @param path           the path, never the query string
 * @param idempotencyKey the Idempotency-Key header; nullable (absent or invalid)
 * @param attempt        which request this was for its key (or, keyless, for its body), from 1
 * @param fault          the fault's wire name ({@code reset-after-commit}, ...); nullable (no fault)
 * @param committed      true when this request wrote the seat
 * @param seatId         the seat this request wrote or replayed; nullable
 * @param status         the status the server sent; nullable when a fault replaced the response
 */
public record JournalEntry(
        Instant at,
        String method,
        String path,
        String idempotencyKey,
        int attempt,
        String fault,
        boolean committed,
        String seatId,
        Integer status) {

    public JournalEntry {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
    }
}
