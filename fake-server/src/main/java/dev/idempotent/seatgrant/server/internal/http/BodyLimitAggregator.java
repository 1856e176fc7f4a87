package dev.idempotent.seatgrant.server.internal.http;

import dev.idempotent.seatgrant.server.JournalEntry;
import dev.idempotent.seatgrant.server.internal.ServerCore;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpMessage;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.QueryStringDecoder;

/**
 * Aggregates a request body up to {@link #MAX_BODY_BYTES} and answers anything larger with a 413 problem
 * instead of Netty's bare 413. The rest of the body is discarded unread, so nothing of it is ever written. On a
 * keep-alive connection the connection stays open while the client finishes sending: closing with unread bytes
 * in the socket would turn the 413 into a connection reset the client might see instead.
 */
final class BodyLimitAggregator extends HttpObjectAggregator {

    static final int MAX_BODY_BYTES = 64 * 1024;

    private final ServerCore core;

    BodyLimitAggregator(ServerCore core) {
        super(MAX_BODY_BYTES);
        this.core = core;
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
        Reply reply = Problems.problem(413, "body-too-large", "the body is over " + MAX_BODY_BYTES + " bytes");
        if (oversized instanceof HttpRequest request) {
            String path = new QueryStringDecoder(request.uri()).path();
            if (!path.startsWith(SeatHttpHandler.ADMIN_PREFIX)) {
                core.journal().record(core.journal().arrive(), new JournalEntry(core.clock().instant(),
                        request.method().name(), path, null, 0, null, false, null, 413));
            }
        }
        boolean keepAlive = HttpUtil.isKeepAlive(oversized) && !(oversized instanceof FullHttpMessage);
        ctx.writeAndFlush(SeatHttpHandler.toResponse(reply, keepAlive))
                .addListener(keepAlive ? ChannelFutureListener.CLOSE_ON_FAILURE : ChannelFutureListener.CLOSE);
    }
}
