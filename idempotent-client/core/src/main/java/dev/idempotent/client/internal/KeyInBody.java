package dev.idempotent.client.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Writes the call's key into a JSON body at a pointer, for a provider that takes the key as a body field (Square's
 * {@code idempotency_key}). The member is spliced into the body's text: every other byte is kept as the caller wrote
 * it. Failures name the pointer, never a value: the body and the key may be a customer's data. Thread-safe.
 */
public final class KeyInBody {

    private static final JsonFactory JSON = new JsonFactory();

    private final String pointerText;
    private final JsonPointer pointer;

    /**
     * A writer for one pointer.
     *
     * @param pointer an RFC 6901 pointer into an object, such as {@code /idempotency_key}
     * @throws IllegalArgumentException when it is not a pointer, or points at the whole document
     */
    public KeyInBody(String pointer) {
        this.pointerText = Objects.requireNonNull(pointer, "pointer");
        JsonPointer compiled;
        try {
            compiled = JsonPointer.compile(pointer);
        } catch (IllegalArgumentException notAPointer) {
            throw new IllegalArgumentException("keyInBody " + pointer + " is not a JSON pointer (RFC 6901)");
        }
        if (compiled.matches()) {
            throw new IllegalArgumentException("keyInBody must point into the body, such as /idempotency_key");
        }
        this.pointer = compiled;
    }

    /** {@return the pointer as the caller wrote it} */
    public String pointer() {
        return pointerText;
    }

    /**
     * The body with {@code key} at the pointer: unchanged when it already holds that key, the member added (with any
     * objects on its path that are missing) before the closing brace of the deepest object present otherwise.
     *
     * @param body the caller's body: one JSON object, in UTF-8
     * @param key  the key, already checked by its {@link dev.idempotent.client.KeyForm}
     * @return the body to send
     * @throws IllegalArgumentException naming the pointer, when the body is not a JSON object, the pointer goes
     *     through an array or another non-object, names a member twice, or the body holds another value there
     */
    public byte[] write(byte[] body, String key) {
        Insert insert;
        try (JsonParser parser = JSON.createParser(body)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw refused("the body is not a JSON object");
            }
            insert = walk(parser, pointer, key);
            if (parser.nextToken() != null) {
                throw refused("the body is not one JSON object");
            }
        } catch (IOException unreadable) {
            // Jackson's message quotes the body: not repeated.
            throw refused("the body is not valid JSON");
        }
        if (insert == null) {
            return body.clone();
        }
        byte[] member = insert.text.getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[body.length + member.length];
        System.arraycopy(body, 0, out, 0, insert.offset);
        System.arraycopy(member, 0, out, insert.offset, member.length);
        System.arraycopy(body, insert.offset, out, insert.offset + member.length, body.length - insert.offset);
        return out;
    }

    /** Where and what to insert; null from {@link #walk} when the key is already there. */
    private record Insert(int offset, String text) {
    }

    /** Reads the object the parser has just entered, to its end; the insertion for {@code at}, or null. */
    private Insert walk(JsonParser parser, JsonPointer at, String key) throws IOException {
        String name = at.getMatchingProperty();
        JsonPointer tail = at.tail();
        boolean hasMembers = false;
        boolean found = false;
        Insert insert = null;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            hasMembers = true;
            String member = parser.currentName();
            JsonToken value = parser.nextToken();
            if (!member.equals(name)) {
                parser.skipChildren();
                continue;
            }
            if (found) {
                throw refused("the body names a member on its path twice");
            }
            found = true;
            if (tail.matches()) {
                if (value != JsonToken.VALUE_STRING || !parser.getText().equals(key)) {
                    throw refused("the body already holds another value there");
                }
            } else if (value == JsonToken.START_OBJECT) {
                insert = walk(parser, tail, key);
            } else if (value == JsonToken.START_ARRAY) {
                throw refused("the pointer goes through an array");
            } else {
                throw refused("the pointer goes through a value that is not an object");
            }
        }
        if (found) {
            return insert;
        }
        // At this object's closing brace.
        long offset = parser.currentTokenLocation().getByteOffset();
        return new Insert((int) offset, (hasMembers ? "," : "") + member(at, key));
    }

    private static String member(JsonPointer at, String key) {
        String value = at.tail().matches() ? quote(key) : "{" + member(at.tail(), key) + "}";
        return quote(at.getMatchingProperty()) + ":" + value;
    }

    private static String quote(String text) {
        return "\"" + new String(JsonStringEncoder.getInstance().quoteAsString(text)) + "\"";
    }

    private IllegalArgumentException refused(String why) {
        return new IllegalArgumentException("keyInBody " + pointerText + ": " + why);
    }
}
