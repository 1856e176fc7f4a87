package dev.idempotent.seatgrant.server.internal.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import java.nio.charset.StandardCharsets;

/**
 * A response the server intends to send (a fault may replace it), plus what the journal records about it.
 *
 * @param status    the HTTP status
 * @param headers   extra headers (Location, Retry-After, Idempotent-Replayed, Allow)
 * @param body      the body bytes; empty for none
 * @param contentType nullable when there is no body
 * @param committed true when this request wrote a seat
 * @param seatId    the seat written or replayed; nullable
 */
record Reply(int status, HttpHeaders headers, byte[] body, String contentType, boolean committed, String seatId) {

    static Reply json(int status, JsonNode body) {
        return new Reply(status, new DefaultHttpHeaders(), body.toString().getBytes(StandardCharsets.UTF_8),
                "application/json", false, null);
    }

    static Reply empty(int status) {
        return new Reply(status, new DefaultHttpHeaders(), new byte[0], null, false, null);
    }

    Reply withHeader(CharSequence name, Object value) {
        headers.set(name, value);
        return this;
    }

    Reply withSeat(String id, boolean wasCommitted) {
        return new Reply(status, headers, body, contentType, wasCommitted, id);
    }
}
