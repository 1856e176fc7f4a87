package dev.idempotent.seatgrant.server.internal.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idempotent.seatgrant.server.JournalEntry;
import dev.idempotent.seatgrant.server.Ledger;
import dev.idempotent.seatgrant.server.Seat;
import java.util.List;

/** The wire shapes of seats, the journal and the ledger, written by hand so field names are visibly fixed. */
final class JsonViews {

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private JsonViews() {
    }

    static ObjectNode seat(Seat seat) {
        ObjectNode node = F.objectNode();
        node.put("id", seat.id());
        node.put("workspaceId", seat.workspaceId());
        node.put("userId", seat.userId());
        node.put("role", seat.role());
        node.put("createdAt", seat.createdAt().toString());
        return node;
    }

    static ObjectNode seats(List<Seat> seats) {
        ObjectNode node = F.objectNode();
        ArrayNode array = node.putArray("seats");
        seats.forEach(s -> array.add(seat(s)));
        return node;
    }

    static ObjectNode journal(List<JournalEntry> entries) {
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
        }
        return node;
    }

    static ObjectNode ledger(Ledger ledger) {
        ObjectNode node = F.objectNode();
        node.put("seats", ledger.seats());
        node.put("keys", ledger.keys());
        ArrayNode array = node.putArray("duplicates");
        for (Ledger.Duplicate d : ledger.duplicates()) {
            ObjectNode item = array.addObject();
            item.put("workspaceId", d.workspaceId());
            item.put("userId", d.userId());
            ArrayNode ids = item.putArray("seatIds");
            d.seatIds().forEach(ids::add);
            ArrayNode keys = item.putArray("idempotencyKeys");
            d.idempotencyKeys().forEach(keys::add);
        }
        return node;
    }
}
