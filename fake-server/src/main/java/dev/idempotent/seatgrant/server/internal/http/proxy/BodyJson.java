package dev.idempotent.seatgrant.server.internal.http.proxy;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.regex.Pattern;

/**
 * How the proxy reads a field out of a JSON body, one way for every rule that does ({@code --created json:},
 * {@code --operation json:}, {@code --volatile-field}): a JSON pointer (RFC 6901), and a string or a number as the
 * field's value. Stateless.
 *
 * <p>Numbers are read exactly, never through a {@code double} (which made {@code 1e400} and {@code 1e401} both
 * {@code Infinity}): as a {@code BigDecimal}, written in one canonical form, {@link BigDecimal#stripTrailingZeros()}
 * and then its scientific {@code toString()}, so {@code 1}, {@code 1.0} and {@code 10e-1} are all {@code 1} and
 * {@code 100} is {@code 1E+2}. A string is written as it is, unless it could be read as such a number or starts with
 * {@code "}: then as a JSON string literal ({@code "1"}), so the string {@code "1"} and the number {@code 1} never
 * share a name.
 */
final class BodyJson {

    static final ObjectMapper JSON = JsonMapper.builder().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .build();

    /** What a canonical number looks like; a string that looks so is written quoted. */
    private static final Pattern NUMBER_LIKE = Pattern.compile("-?[0-9]+(\\.[0-9]+)?(E[+-][0-9]+)?");

    /**
     * A JSON body the parser will not read whole, though it may be JSON: a number over 1,000 characters, nesting
     * over 1,000 deep (Jackson's limits), or an exponent beyond what a {@code BigDecimal} holds. Its fields cannot
     * be read exactly, and guessing would name an operation wrongly, so such a request is refused.
     */
    static final class BeyondLimits extends Exception {
        BeyondLimits() {
            super(null, null, false, false);
        }
    }

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

    /**
     * The body as JSON, its reader index untouched; null when it is empty or not JSON.
     *
     * @throws BeyondLimits when it is past the parser's limits
     */
    static JsonNode parse(ByteBuf body) throws BeyondLimits {
        if (!body.isReadable()) {
            return null;
        }
        try (ByteBufInputStream in = new ByteBufInputStream(body.duplicate())) {
            return JSON.readTree(in);
        } catch (StreamConstraintsException | NumberFormatException e) {
            throw new BeyondLimits();
        } catch (IOException e) {
            return null;
        }
    }

    /** The body as JSON; null when it is empty, not JSON, or past the parser's limits (an answer is not refused). */
    static JsonNode parse(byte[] body) {
        if (body.length == 0) {
            return null;
        }
        try {
            return JSON.readTree(body);
        } catch (IOException | NumberFormatException e) {
            return null;
        }
    }

    /**
     * The string or number at {@code pointer} as a name shows it (see the class comment); null for nothing, an
     * object, an array, a boolean or null.
     */
    static String scalar(JsonNode json, JsonPointer pointer) {
        if (json == null) {
            return null;
        }
        JsonNode node = json.at(pointer);
        if (node.isNumber()) {
            return number(node);
        }
        if (!node.isTextual()) {
            return null;
        }
        String text = node.textValue();
        return text.startsWith("\"") || NUMBER_LIKE.matcher(text).matches() ? node.toString() : text;
    }

    /** A number node in the canonical form: exact, trailing zeros stripped, scientific when it has an exponent. */
    static String number(JsonNode node) {
        return node.decimalValue().stripTrailingZeros().toString();
    }
}
