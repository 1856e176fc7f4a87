package dev.idempotent.seatgrant.server.internal.http.admin;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.idempotent.seatgrant.server.JournalEntry;
import dev.idempotent.seatgrant.server.internal.Journal;
import dev.idempotent.seatgrant.server.internal.http.BodyStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The body of {@code GET /__admin/requests}, written a part of about {@value #PART_BYTES} bytes at a time and read
 * from the journal as it goes, a few hundred entries at a time: however large the journal and however slowly the
 * client reads, an answer holds one part and one batch of entries, never the whole journal as one string.
 *
 * <p>Two shapes. The whole journal, {@code {"requests": [...]}}: every entry kept when the answer began, unsettled
 * ones as {@code sent: false}; an entry the ring drops while a slow answer is under way is not written. A page,
 * {@code {"requests": [...], "next": SEQ | null}}: at most {@code limit} entries after {@code after}, stopping before
 * the first unsettled one; {@code next} is the {@code after} of the next page while the journal holds more, and
 * null once this page reached its end.
 *
 * <p>Field names are written by hand so they are visibly fixed. One per answer; its parts are made one at a time
 * on the executor.
 */
final class JournalStream implements BodyStream {

    /** About how much JSON one part holds. */
    static final int PART_BYTES = 32 * 1024;
    /** How many entries one read of the journal takes. */
    private static final int BATCH = 256;
    private static final JsonFactory JSON = new JsonFactory().setRootValueSeparator(null);

    private final Journal journal;
    private final Executor executor;
    private final boolean paged;
    /** The newest seq this answer lists; for the whole journal, read when the first part is made. */
    private long upTo;
    private long cursor;
    private int remaining;
    private boolean started;
    private boolean wroteEntry;
    private boolean finished;

    private JournalStream(Journal journal, Executor executor, boolean paged, long after, long upTo, int limit) {
        this.journal = journal;
        this.executor = executor;
        this.paged = paged;
        this.cursor = after;
        this.upTo = upTo;
        this.remaining = limit;
    }

    /** Every entry the journal holds now: {@code {"requests": [...]}}. */
    static JournalStream whole(Journal journal, Executor executor) {
        // The bound is read on the executor with the first part: the journal's lock is never taken on the event loop.
        return new JournalStream(journal, executor, false, 0, -1, Integer.MAX_VALUE);
    }

    /** Up to {@code limit} settled entries after {@code after}: {@code {"requests": [...], "next": SEQ | null}}. */
    static JournalStream page(Journal journal, Executor executor, long after, int limit) {
        return new JournalStream(journal, executor, true, after, Long.MAX_VALUE, limit);
    }

    @Override
    public CompletableFuture<byte[]> next() {
        if (finished) {
            return CompletableFuture.completedFuture(null);
        }
        return CompletableFuture.supplyAsync(this::part, executor);
    }

    private byte[] part() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(PART_BYTES + PART_BYTES / 4);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            if (!started) {
                if (!paged) {
                    upTo = journal.lastSeq();
                }
                g.writeRaw("{\"requests\":[");
                started = true;
            }
            while (!finished && g.getOutputBuffered() + out.size() < PART_BYTES) {
                int max = paged ? Math.min(BATCH, remaining) : BATCH;
                Journal.Slice slice = journal.slice(cursor, upTo, max, paged);
                for (JournalEntry e : slice.entries()) {
                    if (wroteEntry) {
                        g.writeRaw(',');
                    }
                    write(g, e, journal.forwarded());
                    wroteEntry = true;
                }
                cursor = slice.through();
                remaining -= slice.entries().size();
                boolean full = slice.entries().size() == max;
                if (!slice.more() || !full || (paged && remaining == 0)) {
                    g.writeRaw(']');
                    if (paged) {
                        g.writeRaw(",\"next\":" + (slice.more() ? Long.toString(cursor) : "null"));
                    }
                    g.writeRaw('}');
                    finished = true;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("writing JSON to memory cannot fail", e);
        }
        return out.toByteArray();
    }

    /** @param forwarded a proxy's journal: every entry also gets its operation and what the upstream answered */
    private static void write(JsonGenerator g, JournalEntry e, boolean forwarded) throws IOException {
        g.writeStartObject();
        g.writeNumberField("seq", e.seq());
        g.writeStringField("at", e.at().toString());
        g.writeStringField("method", e.method());
        g.writeStringField("path", e.path());
        g.writeStringField("idempotencyKey", e.idempotencyKey());
        g.writeStringField("workspaceId", e.workspaceId());
        g.writeStringField("userId", e.userId());
        g.writeNumberField("attempt", e.attempt());
        g.writeStringField("fault", e.fault());
        g.writeBooleanField("committed", e.committed());
        g.writeStringField("seatId", e.seatId());
        if (e.status() == null) {
            g.writeNullField("status");
        } else {
            g.writeNumberField("status", e.status());
        }
        g.writeBooleanField("sent", e.sent());
        if (e.answeredMs() == null) {
            g.writeNullField("answeredMs");
        } else {
            g.writeNumberField("answeredMs", e.answeredMs());
        }
        g.writeBooleanField("cut", e.cut());
        if (forwarded) {
            g.writeStringField("operation", e.operation());
            if (e.upstreamStatus() == null) {
                g.writeNullField("upstreamStatus");
            } else {
                g.writeNumberField("upstreamStatus", e.upstreamStatus());
            }
            g.writeStringField("upstreamError", e.upstreamError());
        }
        g.writeEndObject();
    }
}
