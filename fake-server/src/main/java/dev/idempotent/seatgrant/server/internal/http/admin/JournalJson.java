package dev.idempotent.seatgrant.server.internal.http.admin;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idempotent.seatgrant.server.JournalEntry;
import java.util.List;

/** The wire shape of {@code GET /__admin/requests}, written by hand so field names are visibly fixed. */
final class JournalJson {

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private JournalJson() {
    }

    /** @param forwarded a proxy's journal: every entry also gets the operation and what the upstream answered */
    static ObjectNode journal(List<JournalEntry> entries, boolean forwarded) {
        ObjectNode node = F.objectNode();
        ArrayNode array = node.putArray("requests");
        for (JournalEntry e : entries) {
            ObjectNode item = array.addObject();
            item.put("seq", e.seq());
            item.put("at", e.at().toString());
            item.put("method", e.method());
            item.put("path", e.path());
            item.put("idempotencyKey", e.idempotencyKey());
            item.put("workspaceId", e.workspaceId());
            item.put("userId", e.userId());
            item.put("attempt", e.attempt());
            item.put("fault", e.fault());
            item.put("committed", e.committed());
            item.put("seatId", e.seatId());
            item.put("status", e.status());
            item.put("sent", e.sent());
            item.put("answeredMs", e.answeredMs());
            if (forwarded) {
                item.put("operation", e.operation());
                item.put("upstreamStatus", e.upstreamStatus());
                item.put("upstreamError", e.upstreamError());
            }
        }
        return node;
    }
}
