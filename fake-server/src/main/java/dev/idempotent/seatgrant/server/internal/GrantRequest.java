package dev.idempotent.seatgrant.server.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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

    // Trailing tokens are refused too: "{...} junk" or "{...}{...}" is not one JSON object, and accepting it
    // would commit a seat for a body the client may not have meant.
    private static final ObjectMapper STRICT = new ObjectMapper()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

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
     * Parses and validates a body.
     *
     * @throws Invalid with slug {@code malformed-json} or {@code invalid-field}
     */
    public static GrantRequest parse(byte[] body) throws Invalid {
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
        JsonNode root;
        try {
            root = STRICT.readTree(text);
        } catch (JsonProcessingException e) {
            throw new Invalid("malformed-json", "the body is not valid JSON");
        } catch (java.io.IOException e) {
            throw new Invalid("malformed-json", "the body could not be read as JSON");
        }
        if (root == null || root.isMissingNode()) {
            throw new Invalid("malformed-json", "the body is empty; expected a JSON object");
        }
        if (!root.isObject()) {
            throw new Invalid("malformed-json", "the body must be a JSON object");
        }
        String workspaceId = field(root, "workspaceId");
        String userId = field(root, "userId");
        String role = field(root, "role");
        if (!Seat.ROLES.contains(role)) {
            throw new Invalid("invalid-field", "role must be one of " + String.join(", ", Seat.ROLES.stream().sorted().toList()));
        }
        return new GrantRequest(workspaceId, userId, role);
    }

    private static String field(JsonNode root, String name) throws Invalid {
        JsonNode value = root.get(name);
        if (value == null || value.isNull()) {
            throw new Invalid("invalid-field", name + " is required");
        }
        if (!value.isTextual()) {
            throw new Invalid("invalid-field", name + " must be a string");
        }
        String text = value.textValue();
        if (!name.equals("role")) {
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
     * whitespace, so a retry that re-serialises its body still matches its key.
     */
    public String canonicalHash() {
        String canonical = STRICT.valueToTree(List.of(workspaceId, userId, role)).toString();
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
