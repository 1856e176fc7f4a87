package dev.idempotent.seatgrant.server.internal.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Notes when the server read the first byte of each request, for {@link Exchange#firstByteAt()}. It sits before
 * the codec, which may decode several pipelined requests from one read, or one request from many reads, so it
 * learns from the {@link RequestGate} where requests begin and end.
 *
 * <p>A request's first byte is in the first read after the request before it ended: the read that starts it when
 * nothing was left over, or the read that ended the request before it when the bytes after that end stayed
 * unread in the codec's buffer (pipelining). The second case is recognised when the codec leaves the unread bytes
 * in the buffer it was handed, as Netty's codec does when it held nothing before; when it copied them into a
 * buffer of its own, the next read stamps the request instead, later by the time between two reads.
 *
 * <p>Reads pause while requests wait on a connection, so a pipelined request that did not come in the same read
 * as the one before it is read, and stamped, only once that one is answered. One per connection; event loop only.
 */
final class FirstByteClock extends ChannelInboundHandlerAdapter {

    private final Clock clock;
    /** First bytes of the heads decoded and not yet taken by the connection, oldest first. */
    private final Deque<Instant> decoded = new ArrayDeque<>();
    /** When the read being decoded now arrived. */
    private Instant readAt;
    /** The first byte of the request whose head is still being read; null when none has begun. */
    private Instant pending;
    /** True from a request's head to the end of its body. */
    private boolean inRequest;

    FirstByteClock(Clock clock) {
        this.clock = clock;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf bytes) || !bytes.isReadable()) {
            ctx.fireChannelRead(msg);
            return;
        }
        readAt = clock.instant();
        if (!inRequest && pending == null) {
            pending = readAt;
        }
        // Kept readable past the codec's release, to see whether it left bytes unread in it.
        bytes.retain();
        try {
            ctx.fireChannelRead(bytes);
            if (!inRequest && pending == null && bytes.isReadable()) {
                // A request ended in this read and the bytes after it wait for more: the next request began here.
                pending = readAt;
            }
        } finally {
            bytes.release();
        }
    }

    /** The codec decoded a request's head (or a refusal stands in for it). */
    void headDecoded() {
        // No pending start means the request before this one ended in this same read: this one began in it too.
        decoded.add(pending != null ? pending : readAt);
        pending = null;
        inRequest = true;
    }

    /** The codec read the end of a request's body, or the gate refused the request. */
    void requestEnded() {
        inRequest = false;
    }

    /** When the first byte of the oldest decoded request not yet taken was read; one call per request. */
    Instant take() {
        Instant first = decoded.poll();
        // Every request the connection receives had its head decoded first; now is a safe answer if not.
        return first != null ? first : clock.instant();
    }

    /** Now, by the same clock. */
    Instant now() {
        return clock.instant();
    }
}
