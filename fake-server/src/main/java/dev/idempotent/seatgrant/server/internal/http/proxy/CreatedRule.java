package dev.idempotent.seatgrant.server.internal.http.proxy;

import com.fasterxml.jackson.core.JsonPointer;

/**
 * Where an upstream's answer names the resource it created: {@code header:NAME} (the default,
 * {@code header:Location}) or {@code json:/pointer} into a JSON body ({@code json:/id}). Immutable.
 *
 * @param header  the header read, as given (header names are case-insensitive); null for a JSON pointer
 * @param pointer the pointer; null for a header
 */
public record CreatedRule(String header, JsonPointer pointer) {

    public static final String DEFAULT = "header:Location";

    /** Resource names are cut to this many characters: an id is short, a body is not. */
    static final int MAX_ID_LENGTH = 1024;

    /**
     * Reads {@code header:NAME} or {@code json:/pointer}.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public static CreatedRule parse(String spec) {
        if (spec.startsWith("header:")) {
            String name = spec.substring("header:".length());
            if (!HeaderNames.isToken(name)) {
                throw new IllegalArgumentException("header:NAME needs a header name");
            }
            return new CreatedRule(name, null);
        }
        if (spec.startsWith("json:")) {
            return new CreatedRule(null, BodyJson.pointer(spec.substring("json:".length()), "json:POINTER"));
        }
        throw new IllegalArgumentException("a created resource is named by header:NAME or json:/pointer");
    }

    /** {@code header:NAME} or {@code json:/pointer}, as the flag takes it. */
    public String spec() {
        return header != null ? "header:" + header : "json:" + pointer;
    }

    /**
     * The resource {@code answer} names; null when it names none (no such header, a body that is not JSON, a pointer
     * to nothing, to an object, an array, a boolean or null, or an empty string).
     */
    String idIn(UpstreamResult.Answer answer) {
        String id;
        if (header != null) {
            id = answer.headers().get(header);
        } else {
            id = jsonId(answer.body());
        }
        if (id == null || id.isEmpty()) {
            return null;
        }
        return id.length() > MAX_ID_LENGTH ? id.substring(0, MAX_ID_LENGTH) : id;
    }

    private String jsonId(byte[] body) {
        return BodyJson.scalar(BodyJson.parse(body), pointer);
    }
}
