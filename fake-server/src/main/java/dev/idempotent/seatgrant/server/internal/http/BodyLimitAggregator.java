package dev.idempotent.seatgrant.server.internal.http;

import dev.idempotent.seatgrant.server.JournalEntry;
import dev.idempotent.seatgrant.server.internal.ServerCore;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.FullHttpMessage;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.QueryStringDecoder;

/**
 * Aggregates a request body up to {@link #MAX_BODY_BYTES} and answers anything larger with a 413 problem
 * instead of Netty's bare 413. The rest of the body is discarded unread, so nothing of it is ever written. On a
 * keep-alive connection the connection stays open while the client finishes sending: closing with unread bytes
 * in the socket would turn the 413 into a connection reset the client might see instead.
 *
 * <p>The same goes for a request that sends {@code Expect: 100-continue} (curl does for large bodies): Netty
 * would refuse an oversized one, or an expectation it does not know, with a bare 413 or 417 and no body; here
 * the refusal is a problem like every other.
 */
final class BodyLimitAggregator extends HttpObjectAggregator {

    static final int MAX_BODY_BYTES = 64 * 1024;

    private final ServerCore core;
    private final HttpSettings settings;

    BodyLimitAggregator(ServerCore core, HttpSettings settings) {
        super(MAX_BODY_BYTES);
        this.core = core;
        this.settings = settings;
    }

    @Override
    protected Object newContinueResponse(HttpMessage start, int maxContentLength, ChannelPipeline pipeline) {
        Object answer = super.newContinueResponse(start, maxContentLength, pipeline);
        if (!(answer instanceof HttpResponse refusal) || refusal.status().codeClass() != HttpStatusClass.CLIENT_ERROR) {
            return answer;
        }
        io.netty.util.ReferenceCountUtil.release(answer);
        int status = refusal.status().code();
        Reply reply = status == 413
                ? Problems.problem(413, "body-too-large", "the body is over " + MAX_BODY_BYTES + " bytes")
                : Problems.problem(status, "expectation-failed", "the only expectation this server meets is 100-continue");
        journal(start, status);
        // Still a 4xx, so the aggregator goes on to discard the body the client may send anyway.
        return SeatHttpHandler.toResponse(reply, HttpUtil.isKeepAlive(start));
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
        Reply reply = Problems.problem(413, "body-too-large", "the body is over " + MAX_BODY_BYTES + " bytes");
        journal(oversized, 413);
        boolean keepAlive = HttpUtil.isKeepAlive(oversized) && !(oversized instanceof FullHttpMessage);
        ctx.writeAndFlush(SeatHttpHandler.toResponse(reply, keepAlive))
                .addListener(keepAlive ? ChannelFutureListener.CLOSE_ON_FAILURE : ChannelFutureListener.CLOSE);
    }

    /** Journals a refusal of a seat-API request here, before the handler ever sees it; admin calls are never journaled. */
    private void journal(HttpMessage message, int status) {
        if (message instanceof HttpRequest request) {
            String path = new QueryStringDecoder(request.uri()).path();
            if (!SeatHttpHandler.isAdmin(path)) {
                String apiPath = settings.apiPath(path);
                core.journal().record(core.journal().arrive(), new JournalEntry(core.clock().instant(),
                        request.method().name(), apiPath == null ? path : apiPath, null, 0, null, false, null, status));
            }
        }
    }
}
