package dev.idempotent.client;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One operation to send until it is known to have happened once: the method, the URI, the caller's key, the body and
 * the request's own headers, fixed when it is built and resent unchanged on every attempt. Immutable and
 * thread-safe; one request may be sent again later (a redelivered message), and the key makes that safe.
 *
 * <p>The key is the caller's business id (an event id, an order intent id): the client never makes one up.
 * {@link #toString()} names neither the URI nor the body.
 */
public final class IdempotentRequest {

    private static final Set<String> METHODS = Set.of("POST", "PUT", "PATCH", "DELETE");

    private final String method;
    private final URI uri;
    private final String key;
    private final Optional<String> contentType;
    private final byte[] body;
    private final List<Map.Entry<String, String>> headers;

    private IdempotentRequest(Builder b) {
        this.method = b.method;
        this.uri = b.uri;
        this.key = b.key;
        this.contentType = Optional.ofNullable(b.contentType);
        this.body = b.body.clone();
        this.headers = List.copyOf(b.headers);
    }

    /**
     * A POST of the operation {@code key} names.
     *
     * @param uri the absolute http or https URI to send to
     * @param key the caller's idempotency key for this operation
     * @return a builder; add a body with {@link Builder#json(String)} or {@link Builder#body(String, byte[])}
     * @throws IllegalArgumentException when the URI is not absolute http or https
     */
    public static Builder post(URI uri, String key) {
        return new Builder("POST", uri, key);
    }

    /**
     * A request with another unsafe method.
     *
     * @param method {@code POST}, {@code PUT}, {@code PATCH} or {@code DELETE} (any case)
     * @param uri    the absolute http or https URI to send to
     * @param key    the caller's idempotency key for this operation
     * @return a builder
     * @throws IllegalArgumentException when the method is not one of those four, or the URI is not absolute http(s)
     */
    public static Builder of(String method, URI uri, String key) {
        return new Builder(method, uri, key);
    }

    /** {@return the HTTP method, upper case} */
    public String method() {
        return method;
    }

    /** {@return where the request goes} */
    public URI uri() {
        return uri;
    }

    /** {@return the caller's key, as given (before any {@link KeyForm} encoding)} */
    public String key() {
        return key;
    }

    /** {@return the body's Content-Type, or empty when the request has no body} */
    public Optional<String> contentType() {
        return contentType;
    }

    /** {@return a copy of the body (empty when there is none)} */
    public byte[] body() {
        return body.clone();
    }

    /** {@return the request's own headers, in the order they were added} */
    public List<Map.Entry<String, String>> headers() {
        return headers;
    }

    @Override
    public String toString() {
        // No URI (it may carry a token in its query) and no body (it may carry user data).
        return "IdempotentRequest[method=" + method + ", bodyBytes=" + body.length + "]";
    }

    /** Builds an {@link IdempotentRequest}; not thread-safe, and {@link #build()} copies, so it may be reused. */
    public static final class Builder {
        private final String method;
        private final URI uri;
        private final String key;
        private String contentType;
        private byte[] body = new byte[0];
        private final List<Map.Entry<String, String>> headers = new ArrayList<>();

        private Builder(String method, URI uri, String key) {
            this.method = Objects.requireNonNull(method, "method").toUpperCase(Locale.ROOT);
            this.uri = Objects.requireNonNull(uri, "uri");
            this.key = Objects.requireNonNull(key, "key");
            if (!METHODS.contains(this.method)) {
                throw new IllegalArgumentException("method must be POST, PUT, PATCH or DELETE: a key is for an unsafe"
                        + " method");
            }
            String scheme = uri.getScheme();
            if (!uri.isAbsolute() || uri.getHost() == null
                    || !("http".equalsIgnoreCase(scheme) || "https".equalsIgnoreCase(scheme))) {
                throw new IllegalArgumentException("uri must be an absolute http or https URI");
            }
        }

        /**
         * A JSON body, sent as UTF-8 with {@code Content-Type: application/json}.
         *
         * @param json the document, as text
         * @return this builder
         */
        public Builder json(String json) {
            return body("application/json", Objects.requireNonNull(json, "json").getBytes(StandardCharsets.UTF_8));
        }

        /**
         * A body of any type.
         *
         * @param contentType its Content-Type
         * @param body        its bytes (copied)
         * @return this builder
         */
        public Builder body(String contentType, byte[] body) {
            this.contentType = Objects.requireNonNull(contentType, "contentType");
            this.body = Objects.requireNonNull(body, "body").clone();
            return this;
        }

        /**
         * A header of this request, sent on every attempt. It replaces what a customizer set under the same name;
         * the key header and {@code Content-Type} stay the client's.
         *
         * @param name  the header's name
         * @param value its value: visible ASCII, spaces, tabs and bytes above 0x7F; no line break or other control
         *              character
         * @return this builder
         * @throws IllegalArgumentException naming the header, never its value (which may be a credential), when the
         *     name is not an HTTP token or the value cannot be sent
         */
        public Builder header(String name, String value) {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(value, "value");
            if (name.isEmpty()
                    || !name.chars().allMatch(c -> c > 0x20 && c < 0x7F && "\"(),/:;<=>?@[\\]{}".indexOf(c) < 0)) {
                throw new IllegalArgumentException("a header name must be an HTTP token");
            }
            // The JDK refuses these too, but quotes the value in its message.
            if (!value.chars().allMatch(c -> c == '\t' || (c >= 0x20 && c != 0x7F && c <= 0xFF))) {
                throw new IllegalArgumentException("the value of header " + name
                        + " holds a line break or another character a header cannot carry");
            }
            headers.add(Map.entry(name, value));
            return this;
        }

        /** {@return the request, holding a copy of this builder's values} */
        public IdempotentRequest build() {
            return new IdempotentRequest(this);
        }
    }
}
