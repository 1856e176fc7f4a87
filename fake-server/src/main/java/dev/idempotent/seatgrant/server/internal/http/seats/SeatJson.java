package dev.idempotent.seatgrant.server.internal.http.seats;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idempotent.seatgrant.server.ApiNames;
import dev.idempotent.seatgrant.server.Ledger;
import dev.idempotent.seatgrant.server.Seat;
import java.util.List;

/** The wire shapes of seats and the seat ledger, written by hand so field names are visibly fixed. */
final class SeatJson {

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private SeatJson() {
    }

    static ObjectNode seat(Seat seat) {
        return seat(seat, ApiNames.PACKET);
    }

    /** A seat in {@code names}' fields and role value (a handout's, or the packet's own). */
    static ObjectNode seat(Seat seat, ApiNames names) {
        ObjectNode node = F.objectNode();
        node.put("id", seat.id());
        node.put(names.workspaceId(), seat.workspaceId());
        node.put(names.userId(), seat.userId());
        node.put(names.role(), names.roleToWire(seat.role()));
        node.put("createdAt", seat.createdAt().toString());
        return node;
    }

    static ObjectNode seats(List<Seat> seats, ApiNames names) {
        ObjectNode node = F.objectNode();
        ArrayNode array = node.putArray(names.list());
        seats.forEach(s -> array.add(seat(s, names)));
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
