package dev.idempotent.seatgrant.server.internal.http;

import java.util.Locale;
import java.util.Optional;

/** The one rule for a JSON body's {@code Content-Type}, shared by every route that reads JSON. */
public final class JsonMediaType {

    private JsonMediaType() {
    }

    /**
     * Why a body of this {@code Content-Type} (nullable: none) cannot be read as JSON, or empty when it can:
     * {@code application/json} or an {@code application/...+json} type, in UTF-8 if a charset is given.
     */
    public static Optional<String> problem(String contentType) {
        if (contentType == null) {
            return Optional.of("send the body as application/json");
        }
        String[] parts = contentType.split(";");
        String type = parts[0].strip().toLowerCase(Locale.ROOT);
        if (!type.equals("application/json") && !(type.startsWith("application/") && type.endsWith("+json"))) {
            return Optional.of("the body must be application/json");
        }
        for (int i = 1; i < parts.length; i++) {
            String param = parts[i].strip().toLowerCase(Locale.ROOT);
            if (param.startsWith("charset=") && !param.equals("charset=utf-8") && !param.equals("charset=\"utf-8\"")) {
                return Optional.of("the body must be UTF-8");
            }
        }
        return Optional.empty();
    }
}
