package dev.idempotent.seatgrant.server.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import dev.idempotent.seatgrant.server.ApiNames;
import dev.idempotent.seatgrant.server.Seat;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * A validated {@code POST /v1/seats} body.
 *
 * @param workspaceId valid by {@link #idProblem}
 * @param userId      valid by {@link #idProblem}
 * @param role        one of {@link Seat#ROLES}
 */
public record GrantRequest(String workspaceId, String userId, String role) {

    public static final int MAX_FIELD_LENGTH = 255;

    // Duplicate names are refused: {"userId":"a","userId":"b"} has no one meaning, and a seat must not be written
    // for a guess.
    private static final JsonFactory STRICT = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    /** A field that was present with a value that is neither a string nor null. */
    private static final Object NOT_TEXT = new Object();
    /** A field that was present as JSON null. */
    private static final Object JSON_NULL = new Object();

    private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    });

    /** Why a body was refused; {@code detail} names fields, never echoes their values. */
    public static final class Invalid extends Exception {
        private final String slug;

        Invalid(String slug, String detail) {
            super(detail, null, false, false);
            this.slug = slug;
        }

        public String slug() {
            return slug;
        }
    }

    /**
     * Parses and validates a body. It reads the JSON as a stream of tokens, keeping only the three fields: every
     * other value is still read to its end, so a malformed, over-long or over-deep value anywhere refuses the whole
     * body, but no tree of it is built.
     *
     * @throws Invalid with slug {@code malformed-json} or {@code invalid-field}
     */
    public static GrantRequest parse(byte[] body) throws Invalid {
        return parse(body, ApiNames.PACKET);
    }

    /**
     * As {@link #parse(byte[])}, the body's fields and its usual role in {@code names} (a handout's); the request
     * returned is in the packet's names and values, and a problem names the field as the body did.
     *
     * @throws Invalid with slug {@code malformed-json} or {@code invalid-field}
     */
    public static GrantRequest parse(byte[] body, ApiNames names) throws Invalid {
        List<String> fields = List.of(names.workspaceId(), names.userId(), names.role());
        String text;
        try {
            // Decoded here, strictly, rather than by Jackson: its byte parser lets overlong forms through ("\xc0\xaf"
            // reads as "/") and guesses UTF-16 or UTF-32 from the first bytes, so a seat could be written for
            // bytes the client did not send as UTF-8.
            text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body)).toString();
        } catch (CharacterCodingException e) {
            throw new Invalid("malformed-json", "the body is not valid UTF-8");
        }
        Object[] values = new Object[fields.size()];
        boolean object;
        try (JsonParser parser = STRICT.createParser(text)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                throw new Invalid("malformed-json", "the body is empty; expected a JSON object");
            }
            object = first == JsonToken.START_OBJECT;
            if (object) {
                readFields(parser, values, fields);
            } else {
                parser.skipChildren();
            }
            // Trailing tokens are refused too: "{...} junk" or "{...}{...}" is not one JSON document, and accepting
            // it would commit a seat for a body the client may not have meant.
            if (parser.nextToken() != null) {
                throw new Invalid("malformed-json", "the body is not valid JSON");
            }
        } catch (JsonProcessingException e) {
            throw new Invalid("malformed-json", "the body is not valid JSON");
        } catch (java.io.IOException e) {
            throw new Invalid("malformed-json", "the body could not be read as JSON");
        }
        if (!object) {
            throw new Invalid("malformed-json", "the body must be a JSON object");
        }
        String workspaceId = field(values, 0, fields);
        String userId = field(values, 1, fields);
        String role = names.roleFromWire(field(values, 2, fields));
        if (!Seat.ROLES.contains(role)) {
            throw new Invalid("invalid-field", names.role() + " must be one of " + String.join(", ",
                    Seat.ROLES.stream().map(names::roleToWire).sorted().toList()));
        }
        return new GrantRequest(workspaceId, userId, role);
    }

    /** Reads the root object's members, keeping what each of the three fields held. */
    private static void readFields(JsonParser parser, Object[] values, List<String> fields)
            throws java.io.IOException {
        for (JsonToken token = parser.nextToken(); token == JsonToken.FIELD_NAME; token = parser.nextToken()) {
            int slot = fields.indexOf(parser.currentName());
            JsonToken value = parser.nextToken();
            if (slot >= 0) {
                values[slot] = value == JsonToken.VALUE_STRING ? parser.getText()
                        : value == JsonToken.VALUE_NULL ? JSON_NULL : NOT_TEXT;
            }
            // Skipping still reads every token: a malformed string, number or nesting refuses the body.
            parser.skipChildren();
        }
    }

    private static String field(Object[] values, int slot, List<String> fields) throws Invalid {
        String name = fields.get(slot);
        Object value = values[slot];
        if (value == null || value == JSON_NULL) {
            throw new Invalid("invalid-field", name + " is required");
        }
        if (value == NOT_TEXT) {
            throw new Invalid("invalid-field", name + " must be a string");
        }
        String text = (String) value;
        if (slot != 2) {
            String why = idProblem(text);
            if (why != null) {
                throw new Invalid("invalid-field", name + " " + why);
            }
        } else if (text.isBlank()) {
            throw new Invalid("invalid-field", name + " must not be blank");
        }
        return text;
    }

    /**
     * The one rule for a workspaceId or userId, wherever it appears (a POST body, a list filter): non-blank, at
     * most 255 characters, no control characters, no half of a surrogate pair, and no leading or trailing
     * whitespace (an id is kept exactly as sent, so " alice" would be a different user from "alice" that no
     * trimmed lookup could find).
     *
     * @return why {@code id} is refused, as the end of a sentence ("must not be blank"); null when it is valid
     */
    public static String idProblem(String id) {
        if (id.isBlank()) {
            return "must not be blank";
        }
        if (id.length() > MAX_FIELD_LENGTH) {
            return "must be at most " + MAX_FIELD_LENGTH + " characters";
        }
        if (id.chars().anyMatch(Character::isISOControl)) {
            return "must not contain control characters";
        }
        if (hasLoneSurrogate(id)) {
            // A JSON escape can name half of a surrogate pair. As UTF-8 that half becomes '?', so two different
            // ids would hash as one payload (a replay instead of a 422) and the stored id would not be the one sent.
            return "must be valid Unicode text";
        }
        if (!id.equals(id.strip())) {
            return "must not start or end with whitespace";
        }
        return null;
    }

    private static boolean hasLoneSurrogate(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A SHA-256 of the canonical payload: the same grant hashes the same whatever the JSON's field order or
     * whitespace, so a retry that re-serialises its body still matches its key. The canonical form is the JSON
     * array {@code [workspaceId,userId,role]} as Jackson writes it, written here directly: the hash is stored with
     * every key, so it must stay the same across versions of this server.
     */
    public String canonicalHash() {
        StringBuilder canonical = new StringBuilder(8 + workspaceId.length() + userId.length() + role.length());
        canonical.append('[');
        appendQuoted(canonical, workspaceId).append(',');
        appendQuoted(canonical, userId).append(',');
        appendQuoted(canonical, role).append(']');
        MessageDigest sha256 = SHA_256.get();
        return HexFormat.of().formatHex(sha256.digest(canonical.toString().getBytes(StandardCharsets.UTF_8)));
    }

    private static StringBuilder appendQuoted(StringBuilder out, String value) {
        out.append('"');
        JsonStringEncoder.getInstance().quoteAsString(value, out);
        return out.append('"');
    }
}
