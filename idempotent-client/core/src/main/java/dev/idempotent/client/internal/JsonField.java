package dev.idempotent.client.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.Optional;

/**
 * Reads one scalar from a JSON body as a stream, never as a tree: the body may be a large resource and only one value
 * of it is wanted. Pure and thread-safe.
 */
public final class JsonField {

    private static final JsonFactory JSON = new JsonFactory();

    private JsonField() {
    }

    /**
     * The string, number or boolean {@code pointer} finds in {@code body}: a string as its value, a number as its
     * JSON text as written, a boolean as {@code true} or {@code false}. Empty for anything else there (null, an
     * object, an array), for no match, and for a body that does not parse as one JSON value. A name given twice is
     * read as its last value, as Jackson's tree keeps it.
     *
     * @param body    the body
     * @param pointer an RFC 6901 pointer
     * @return the value's text, or empty
     */
    public static Optional<String> find(byte[] body, JsonPointer pointer) {
        if (body.length == 0) {
            return Optional.empty();
        }
        try (JsonParser parser = JSON.createParser(body)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                return Optional.empty();
            }
            Optional<String> found = find(parser, first, pointer, JsonField::scalar);
            // A second value, or anything but whitespace after the first, is not one JSON document.
            return parser.nextToken() == null ? found : Optional.empty();
        } catch (IOException unreadable) {
            return Optional.empty();
        }
    }

    /** A string, a number as written or a boolean as its text; empty (its children skipped) for anything else. */
    private static Optional<String> scalar(JsonParser parser, JsonToken token) throws IOException {
        switch (token) {
            case VALUE_STRING:
            case VALUE_NUMBER_INT:
            case VALUE_NUMBER_FLOAT:
            case VALUE_TRUE:
            case VALUE_FALSE:
                return Optional.of(parser.getText());
            default:
                parser.skipChildren();
                return Optional.empty();
        }
    }

    /** What {@link #find(JsonParser, JsonToken, JsonPointer, Leaf)} takes from the value at its pointer. */
    @FunctionalInterface
    interface Leaf {
        /**
         * Reads the value, skipping whatever of it is not read.
         *
         * @param parser the parser, on the value's first token
         * @param token  that token
         * @return what was read, or empty
         * @throws IOException when the value does not parse
         */
        Optional<String> read(JsonParser parser, JsonToken token) throws IOException;
    }

    /**
     * Reads the whole value that starts at {@code token} (so a value broken anywhere is unreadable, as it would be as
     * a tree) and returns what {@code leaf} reads where {@code pointer} matches. A name given twice is read as its
     * last value, as Jackson's tree keeps it.
     */
    static Optional<String> find(JsonParser parser, JsonToken token, JsonPointer pointer, Leaf leaf)
            throws IOException {
        if (pointer.matches()) {
            return leaf.read(parser, token);
        }
        Optional<String> found = Optional.empty();
        if (token == JsonToken.START_OBJECT) {
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                JsonPointer tail = pointer.matchProperty(parser.currentName());
                JsonToken value = parser.nextToken();
                if (tail == null) {
                    parser.skipChildren();
                } else {
                    found = find(parser, value, tail, leaf);
                }
            }
        } else if (token == JsonToken.START_ARRAY) {
            for (int index = 0; parser.nextToken() != JsonToken.END_ARRAY; index++) {
                JsonPointer tail = pointer.matchElement(index);
                if (tail == null) {
                    parser.skipChildren();
                } else {
                    found = find(parser, parser.currentToken(), tail, leaf);
                }
            }
        }
        return found;
    }
}
