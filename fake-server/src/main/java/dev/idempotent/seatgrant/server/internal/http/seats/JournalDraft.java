package dev.idempotent.seatgrant.server.internal.http.seats;

import dev.idempotent.seatgrant.server.Fault;
import dev.idempotent.seatgrant.server.JournalEntry;
import dev.idempotent.seatgrant.server.internal.http.LogSafe;
import java.time.Instant;

/**
 * What the journal will say about a seat-API request whose outcome is not known yet.
 *
 * @param path    the API path (without the base path), or the request's own path when it lies outside the base
 *                path
 * @param outside true when the request missed the base path: its path may hold a near-miss of a secret base path,
 *                so no log line shows it
 */
record JournalDraft(Instant at, String method, String path, String key, String workspaceId, String userId,
                    boolean outside) {

    static JournalDraft of(Instant at, String method, String path, boolean outside) {
        return new JournalDraft(at, method, path, null, null, null, outside);
    }

    JournalDraft withKey(String newKey) {
        return new JournalDraft(at, method, path, newKey, workspaceId, userId, outside);
    }

    JournalDraft withIds(String newWorkspaceId, String newUserId) {
        return new JournalDraft(at, method, path, key, newWorkspaceId, newUserId, outside);
    }

    JournalEntry entry(int attempt, Fault fault, boolean committed, String seatId, Integer status) {
        return new JournalEntry(0, at, method, path, key, workspaceId, userId, attempt,
                fault == null ? null : fault.wireName(), committed, seatId, boxed(status), false, null);
    }

    /**
     * HTTP statuses boxed once: {@code Integer.valueOf} keeps only -128 to 127, and the journal keeps an entry's
     * status for its next 100,000 requests, one more object per request for every young collection to copy.
     */
    private static final Integer[] STATUSES = new Integer[600];

    static {
        for (int i = 100; i < STATUSES.length; i++) {
            STATUSES[i] = i;
        }
    }

    static Integer boxed(Integer status) {
        return status != null && status >= 100 && status < STATUSES.length ? STATUSES[status] : status;
    }

    /** The path as a log line may show it. */
    String loggablePath() {
        return outside ? "(outside the base path)" : LogSafe.path(path);
    }
}
