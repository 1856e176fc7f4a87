package dev.idempotent.seatgrant.worker;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * The server refused the grant in a way a resend cannot fix (400, 401, 403, 404, 422 or another 4xx), so
 * the worker stopped after that one answer without sleeping. The message goes to a dead-letter queue or a
 * human, not back into the retry loop.
 */
public final class GrantRejectedException extends GrantException {

    /** The classifier's reason for giving up. */
    private final String reason;

    /**
     * Reports an answer that no resend can change.
     *
     * @param requestId the event's requestId
     * @param attempts  POSTs sent, the rejected one included
     * @param status    the rejecting status
     * @param reason    the classifier's one-line reason
     */
    public GrantRejectedException(String requestId, int attempts, int status, String reason) {
        super("seat grant rejected for requestId " + requestId + " after " + attempts + " attempt(s): status "
                + status + " (" + reason + ")", requestId, attempts, OptionalInt.of(status), null);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    /** {@return the classifier's one-line reason for giving up} */
    public String reason() {
        return reason;
    }
}
