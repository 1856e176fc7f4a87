package dev.idempotent.seatgrant.server.internal.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * Aggregates a request body up to {@link HttpSettings#maxBodyBytes()}. A body declared larger never gets here (the
 * {@link RequestGate} refuses it from its head); a chunked body that grows past the limit is replaced by a
 * {@code 413} {@link Refusal}, answered in order like every other, and the rest of it is discarded unread, so
 * nothing of it is ever written.
 *
 * <p>A {@code 100 Continue} is a response like any other and keeps its place in line: for a request pipelined
 * behind others that are not answered yet, the {@link HttpConnection} sends it once their answers are written
 * (or never, if one of them closes the connection), not the moment its head is read.
 */
final class BodyLimitAggregator extends HttpObjectAggregator {

    private final HttpConnection handler;

    BodyLimitAggregator(HttpConnection handler, int maxBodyBytes) {
        super(maxBodyBytes);
        this.handler = handler;
    }

    @Override
    protected Object newContinueResponse(HttpMessage start, int maxContentLength, ChannelPipeline pipeline) {
        Object response = super.newContinueResponse(start, maxContentLength, pipeline);
        if (response instanceof HttpResponse interim && interim.status().equals(HttpResponseStatus.CONTINUE)
                && !handler.mayContinueNow()) {
            handler.oweContinue(interim);
            return null;
        }
        return response;
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
        HttpRequest request = oversized instanceof HttpRequest r ? r : null;
        ctx.fireChannelRead(new Refusal(413, "body-too-large", "the body is over " + maxContentLength() + " bytes",
                request == null ? null : request.method().name(), request == null ? null : request.uri()));
    }
}
