package dev.idempotent.seatgrant.server.internal.http.proxy;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import java.io.IOException;

/**
 * How the proxy reads a field out of a JSON body, one way for every rule that does ({@code --created json:},
 * {@code --operation json:}, {@code --volatile-field}): a JSON pointer (RFC 6901), and a string or a number as the
 * field's value. Stateless.
 */
final class BodyJson {

    static final ObjectMapper JSON = new ObjectMapper();

    private BodyJson() {
    }

    /**
     * {@code pointer} compiled.
     *
     * @param what the form's name for the message, such as {@code json:POINTER}
     * @throws IllegalArgumentException when it does not start with {@code /} or is not a JSON pointer
     */
    static JsonPointer pointer(String pointer, String what) {
        if (!pointer.startsWith("/")) {
            throw new IllegalArgumentException(what + " needs a JSON pointer such as /id (RFC 6901)");
        }
        try {
            return JsonPointer.compile(pointer);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(what + " is not a JSON pointer (RFC 6901)");
        }
    }

    /** The body as JSON, its reader index untouched; null when it is empty or not JSON. */
    static JsonNode parse(ByteBuf body) {
        if (!body.isReadable()) {
            return null;
        }
        try (ByteBufInputStream in = new ByteBufInputStream(body.duplicate())) {
            return JSON.readTree(in);
        } catch (IOException e) {
            return null;
        }
    }

    /** The body as JSON; null when it is empty or not JSON. */
    static JsonNode parse(byte[] body) {
        if (body.length == 0) {
            return null;
        }
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            return null;
        }
    }

    /** The string or number at {@code pointer} as text; null for nothing, an object, an array, a boolean or null. */
    static String scalar(JsonNode json, JsonPointer pointer) {
        if (json == null) {
            return null;
        }
        JsonNode node = json.at(pointer);
        return node.isTextual() || node.isNumber() ? node.asText() : null;
    }
}
