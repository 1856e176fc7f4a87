package dev.idempotent.client;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * The server refused in a way a resend cannot change (a 422 for a key reused with another body, a 400, a 401, a
 * 404, or an answer the client does not know to be transient). Nothing more was sent after that answer.
 */
public final class RequestRejectedException extends IdempotentRequestException {

    /**
     * Reports a refusal.
     *
     * @param key      the call's key
     * @param attempts attempts sent, the refused one included
     * @param status   the refusing status
     * @param reason   the classifier's one-line reason
     */
    public RequestRejectedException(String key, int attempts, int status, String reason) {
        this(key, attempts, status, reason, Optional.empty());
    }

    /**
     * Reports a refusal, with the refusing answer.
     *
     * @param key      the call's key
     * @param attempts attempts sent, the refused one included
     * @param status   the refusing status
     * @param reason   the classifier's one-line reason
     * @param response the refusing answer, as {@link #response()} returns it
     */
    public RequestRejectedException(String key, int attempts, int status, String reason,
            Optional<IdempotentResponse> response) {
        super("request rejected for key " + key + " after " + attempts + " attempt(s): status " + status + " ("
                + reason + ")", key, attempts, OptionalInt.of(status), reason, null, response);
    }
}
