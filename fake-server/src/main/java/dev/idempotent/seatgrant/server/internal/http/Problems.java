package dev.idempotent.seatgrant.server.internal.http;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.nio.charset.StandardCharsets;

/**
 * RFC 9457 problem details. Types are {@code tag:} URIs (RFC 4151): stable identifiers that do not pretend to
 * be pages someone can fetch. A detail names what was wrong, never echoes what the client sent.
 */
public final class Problems {

    public static final String MEDIA_TYPE = "application/problem+json";
    private static final String TYPE_PREFIX = "tag:idempotent.dev,2026:problem:";

    private Problems() {
    }

    public static Reply problem(int status, String slug, String detail) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("type", TYPE_PREFIX + slug);
        node.put("title", HttpResponseStatus.valueOf(status).reasonPhrase());
        node.put("status", status);
        node.put("detail", detail);
        return new Reply(status, new io.netty.handler.codec.http.DefaultHttpHeaders(),
                node.toString().getBytes(StandardCharsets.UTF_8), MEDIA_TYPE, false, null);
    }
}
