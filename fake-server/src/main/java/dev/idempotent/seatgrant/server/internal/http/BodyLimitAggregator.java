package dev.idempotent.seatgrant.server.internal.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;

/**
 * Aggregates a request body up to {@link #MAX_BODY_BYTES}. A body declared larger never gets here (the
 * {@link RequestGate} refuses it from its head); a chunked body that grows past the limit is replaced by a
 * {@code 413} {@link Refusal}, answered in order like every other, and the rest of it is discarded unread, so
 * nothing of it is ever written.
 */
final class BodyLimitAggregator extends HttpObjectAggregator {

    static final int MAX_BODY_BYTES = 64 * 1024;

    BodyLimitAggregator() {
        super(MAX_BODY_BYTES);
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
        HttpRequest request = oversized instanceof HttpRequest r ? r : null;
        ctx.fireChannelRead(new Refusal(413, "body-too-large", "the body is over " + MAX_BODY_BYTES + " bytes",
                request == null ? null : request.method().name(), request == null ? null : request.uri()));
    }
}
