package dev.idempotent.seatgrant.server.internal.http.seats;

import dev.idempotent.seatgrant.server.internal.http.JsonMediaType;
import dev.idempotent.seatgrant.server.internal.http.SfString;
import java.util.Optional;

/** The seat API's rules for what a request may carry beyond its body: the key, the media type, a seat id. */
final class SeatInput {

    static final int MAX_KEY_LENGTH = 255;

    private SeatInput() {
    }

    /**
     * The key an {@code Idempotency-Key} value carries: the value as it is, or, when it starts with {@code "}, the
     * string of the sf-string it is (the IETF draft's form), so {@code "k2"} and {@code k2} are one key.
     *
     * @throws SfString.Invalid when it starts with {@code "} and is not an sf-string
     */
    static String key(String value) throws SfString.Invalid {
        return SfString.isStructured(value) ? SfString.decode(value) : value;
    }

    /**
     * 1 to 255 characters, each visible ASCII (0x21 to 0x7E): no space, no control character, nothing else; and
     * not starting with {@code "}, which would make a key sent as it is read as a structured-field string, so that
     * every key means the same in both forms (the worker's {@code SeatRequested} has the same rule).
     */
    static boolean validKey(String key) {
        if (key.isEmpty() || key.length() > MAX_KEY_LENGTH || key.charAt(0) == '"') {
            return false;
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c < 0x21 || c > 0x7e) {
                return false;
            }
        }
        return true;
    }

    /** Why a body of this Content-Type (nullable: none) cannot be read as a grant, or empty when it can. */
    static Optional<String> contentTypeProblem(String contentType) {
        return JsonMediaType.problem(contentType);
    }

    /** True when no character is a control character. */
    static boolean plainText(String value) {
        return value.chars().noneMatch(Character::isISOControl);
    }
}
