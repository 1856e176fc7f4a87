package dev.idempotent.seatgrant.server.internal.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.nio.charset.StandardCharsets;

/**
 * A response the server intends to send (a fault may replace it), plus what the journal records about it.
 *
 * @param status    the HTTP status
 * @param headers   extra headers (Location, Retry-After, Idempotent-Replayed, Allow; a proxied answer's own)
 * @param body      the body bytes; empty for none
 * @param contentType nullable when there is no body
 * @param committed true when this request wrote a seat
 * @param seatId    the seat written or replayed; nullable
 */
public record Reply(int status, HttpHeaders headers, byte[] body, String contentType, boolean committed,
                    String seatId) {

    public static Reply json(int status, JsonNode body) {
        return new Reply(status, new DefaultHttpHeaders(), body.toString().getBytes(StandardCharsets.UTF_8),
                "application/json", false, null);
    }

    public static Reply empty(int status) {
        return new Reply(status, new DefaultHttpHeaders(), new byte[0], null, false, null);
    }

    public Reply withHeader(CharSequence name, Object value) {
        headers.set(name, value);
        return this;
    }

    public Reply withSeat(String id, boolean wasCommitted) {
        return new Reply(status, headers, body, contentType, wasCommitted, id);
    }

    /**
     * This reply as an HTTP/1.1 response, with {@code Connection: close} unless {@code keepAlive}, and with
     * {@code Connection: keep-alive} when an HTTP/1.0 client asked to keep the connection (RFC 9112 section 9.3:
     * without it, such a client takes the connection as closing).
     */
    FullHttpResponse toResponse(boolean keepAlive, boolean http10) {
        // 204 and 304 never carry a body (RFC 9110): bytes after their headers would be read as the start of the
        // next response on a kept-alive connection. A status fault may ask for either.
        boolean bodyless = status == 204 || status == 304;
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.valueOf(status), bodyless ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(body));
        response.headers().add(headers);
        if (!bodyless) {
            if (contentType != null) {
                response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
            }
            // A bodiless reply that names a length is a proxied answer to HEAD: the length of what GET would get.
            if (body.length > 0 || !headers.contains(HttpHeaderNames.CONTENT_LENGTH)) {
                response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
            }
        }
        if (!keepAlive) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        } else if (http10) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        }
        return response;
    }
}
