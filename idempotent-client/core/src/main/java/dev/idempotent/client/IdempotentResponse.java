package dev.idempotent.client;

import com.fasterxml.jackson.core.JsonPointer;
import dev.idempotent.client.internal.JsonField;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;

/**
 * The answer that ended a call: the operation happened, now or earlier. Also what a {@link ResponseRule} is shown
 * for each answer, where {@link #attempts()} is the attempt that got it, and what an
 * {@link IdempotentRequestException} carries of the last answer. Immutable; {@link #toString()} names no header value
 * and no body.
 */
public final class IdempotentResponse {

    private final boolean replayed;
    private final int status;
    private final HttpHeaders headers;
    private final byte[] body;
    private final Optional<String> resourceId;
    private final int attempts;
    private final boolean bodyTruncated;

    /**
     * A whole answer (its body not truncated).
     *
     * @param replayed   whether it repeats an earlier attempt's result rather than reporting a new one
     * @param status     the HTTP status
     * @param headers    the response headers
     * @param body       the body (copied)
     * @param resourceId the created resource's id, read with the client's resource id pointer, when there is one
     * @param attempts   attempts this call made, the answering one included
     */
    public IdempotentResponse(boolean replayed, int status, HttpHeaders headers, byte[] body,
            Optional<String> resourceId, int attempts) {
        this(replayed, status, headers, body, resourceId, attempts, false);
    }

    /**
     * An answer whose body may have been cut at the client's {@code maxBodyBytes}.
     *
     * @param replayed      whether it repeats an earlier attempt's result rather than reporting a new one
     * @param status        the HTTP status
     * @param headers       the response headers
     * @param body          the body, or its first bytes when truncated (copied)
     * @param resourceId    the created resource's id; the client reads none from a truncated body
     * @param attempts      attempts this call made, the answering one included
     * @param bodyTruncated whether the server sent more than the limit, which was not read
     */
    public IdempotentResponse(boolean replayed, int status, HttpHeaders headers, byte[] body,
            Optional<String> resourceId, int attempts, boolean bodyTruncated) {
        this.bodyTruncated = bodyTruncated;
        this.replayed = replayed;
        this.status = status;
        this.headers = Objects.requireNonNull(headers, "headers");
        this.body = Objects.requireNonNull(body, "body").clone();
        this.resourceId = Objects.requireNonNull(resourceId, "resourceId");
        this.attempts = attempts;
    }

    /**
     * Whether the server answered for an earlier attempt or call rather than acting now: a 2xx marked
     * {@code Idempotent-Replayed: true}, a 409 naming the resource, or what a caller's rule called a replay. Before
     * the client has classified an answer (in a {@link ResponseRule}), whether the replay header said so.
     *
     * @return true for a replay
     */
    public boolean replayed() {
        return replayed;
    }

    /** {@return the HTTP status} */
    public int status() {
        return status;
    }

    /** {@return the response headers} */
    public HttpHeaders headers() {
        return headers;
    }

    /** {@return a copy of the body: all of it, or its first {@code maxBodyBytes} when {@link #bodyTruncated()}} */
    public byte[] body() {
        return body.clone();
    }

    /** {@return the body decoded as UTF-8} */
    public String bodyAsString() {
        return new String(body, StandardCharsets.UTF_8);
    }

    /**
     * Whether the server sent more body than the client's {@code maxBodyBytes}: {@link #body()} holds the first
     * {@code maxBodyBytes} bytes, the rest was never read (the connection was closed), and no resource id was read.
     *
     * @return true when the body was cut
     */
    public boolean bodyTruncated() {
        return bodyTruncated;
    }

    /**
     * {@return the resource id the client's pointer found in the body; empty without a pointer or a match, and for a
     * truncated body}
     */
    public Optional<String> resourceId() {
        return resourceId;
    }

    /**
     * Reads one value from the kept body, for a {@link ResponseRule} that decides by a field (a provider's error code)
     * or names the resource ({@link Verdict#replay(String, String)}). Streamed, never built into a tree: a string
     * is returned as its value, a number as its JSON text as written ({@code 1.50} stays {@code 1.50}), a boolean as
     * {@code true} or {@code false}. Empty for null, an object or an array there, for no match, for a body that does
     * not parse, and for a {@link #bodyTruncated() truncated} body (what was cut may have held another value). A
     * name given twice is read as its last value.
     *
     * @param jsonPointer an RFC 6901 JSON pointer, such as {@code /error/code}
     * @return the value's text, or empty
     * @throws IllegalArgumentException when {@code jsonPointer} is not a JSON pointer
     */
    public Optional<String> field(String jsonPointer) {
        Objects.requireNonNull(jsonPointer, "jsonPointer");
        JsonPointer pointer;
        try {
            pointer = JsonPointer.compile(jsonPointer);
        } catch (IllegalArgumentException notAPointer) {
            throw new IllegalArgumentException("not a JSON pointer (RFC 6901): " + jsonPointer);
        }
        return bodyTruncated ? Optional.empty() : JsonField.find(body, pointer);
    }

    /** {@return attempts this call made, the one that got this answer included} */
    public int attempts() {
        return attempts;
    }

    @Override
    public String toString() {
        return "IdempotentResponse[status=" + status + ", replayed=" + replayed + ", attempts=" + attempts
                + ", bodyBytes=" + body.length + (bodyTruncated ? ", truncated" : "") + "]";
    }
}
