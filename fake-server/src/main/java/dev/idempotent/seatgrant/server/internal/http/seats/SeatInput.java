package dev.idempotent.seatgrant.server.internal.http.seats;

import dev.idempotent.seatgrant.server.internal.http.JsonMediaType;
import java.util.Optional;

/** The seat API's rules for what a request may carry beyond its body: the key, the media type, a seat id. */
final class SeatInput {

    static final int MAX_KEY_LENGTH = 255;

    private SeatInput() {
    }

    /** 1 to 255 characters, each visible ASCII (0x21 to 0x7E): no space, no control character, nothing else. */
    static boolean validKey(String key) {
        if (key.isEmpty() || key.length() > MAX_KEY_LENGTH) {
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
