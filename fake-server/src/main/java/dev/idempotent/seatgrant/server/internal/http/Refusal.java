package dev.idempotent.seatgrant.server.internal.http;

import io.netty.handler.codec.http.HttpHeaderNames;

/**
 * A request refused before it was whole (bad framing, an unmet expectation, a body too large, a malformed head),
 * passed down the pipeline in its place so that it is answered in order, after every request before it. The
 * connection closes once the answer is written: what follows on the wire cannot be trusted to start a request.
 *
 * @param status the status to answer
 * @param slug   the problem type's name
 * @param detail the problem's detail
 * @param method the request's method; null when its head could not be read
 * @param uri    the request target; null when its head could not be read
 * @param retryAfterSeconds the {@code Retry-After} to answer with; 0 for none
 */
record Refusal(int status, String slug, String detail, String method, String uri, int retryAfterSeconds) {

    Refusal(int status, String slug, String detail, String method, String uri) {
        this(status, slug, detail, method, uri, 0);
    }

    /** The problem to answer with. */
    Reply reply() {
        Reply reply = Problems.problem(status, slug, detail);
        return retryAfterSeconds > 0 ? reply.withHeader(HttpHeaderNames.RETRY_AFTER, retryAfterSeconds) : reply;
    }
}
