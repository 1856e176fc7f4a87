package dev.idempotent.seatgrant.server.internal.http.proxy;

import io.netty.handler.codec.http.HttpHeaders;

/** What one forwarded request got from the upstream: its whole answer, or the reason there is none. */
sealed interface UpstreamResult {

    /**
     * The upstream's whole answer.
     *
     * @param headers as the upstream sent them (hop-by-hop ones included; the routes filter)
     * @param body    the whole body; empty for none
     */
    record Answer(int status, HttpHeaders headers, byte[] body) implements UpstreamResult { }

    /** No whole answer, and why. */
    record Failure(UpstreamError error) implements UpstreamResult { }
}
