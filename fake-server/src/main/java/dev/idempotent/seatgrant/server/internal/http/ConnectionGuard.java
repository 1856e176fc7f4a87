package dev.idempotent.seatgrant.server.internal.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The first handler of every connection: it keeps the connection's one deadline and ends connections
 * politely.
 *
 * <p>Which deadline applies depends on what the connection is doing. While the request handler works on a
 * request (a slow grant, a {@code delay}, a {@code hang-after-commit} held on purpose) there is none: the
 * server, not the client, is taking the time. While a response is being written, the idle timeout bounds the
 * write (a client that never reads cannot hold a connection forever). Otherwise the reading side decides:
 * between requests the idle timeout closes the connection; in the middle of a request's head the header
 * timeout, and in its body the body timeout, answer {@code 408} and close.
 *
 * <p>A closing response is followed by a lingering close: the server sends FIN at once, then reads and discards
 * what the client still sends for up to {@link #LINGER_MS}, so that unread request bytes do not turn the
 * answer into a reset on the client's side.
 *
 * <p>It also says whether the connection is idle (between requests, nothing being worked on or written), so that at
 * the connection cap the longest-idle connection can make room for a new one ({@link ConnectionCap}). Runs on the
 * channel's event loop, but for {@link #idleSince()} and {@link #closeIfIdle()}, which any thread may call.
 */
final class ConnectionGuard extends ChannelInboundHandlerAdapter {

    /** How long a closing connection keeps draining the client's bytes before it closes for good. */
    static final long LINGER_MS = 2_000;

    /** Where the reading side is. */
    private enum Read { BETWEEN, HEAD, BODY }

    private final HttpSettings settings;
    private ChannelHandlerContext ctx;
    private Read read = Read.BETWEEN;
    private boolean working;
    private boolean writing;
    private boolean lingering;
    private boolean discarding;
    private long since = System.nanoTime();
    private ScheduledFuture<?> timer;
    private long timerAt;
    /**
     * When bytes last moved on the connection, in nanoTime: a request's first bytes read, or a response's write
     * begun or ended. Not the request handler's bookkeeping after an answer, which a busy event loop may run later.
     */
    private volatile long lastActivityNanos = System.nanoTime();
    /**
     * When the connection last became idle, in nanoTime: the last activity before it did. Meaningful only while
     * {@link #idle} is true.
     */
    private volatile long idleSinceNanos = lastActivityNanos;
    private volatile boolean idle = true;

    ConnectionGuard(HttpSettings settings) {
        this.settings = settings;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext context) {
        this.ctx = context;
    }

    @Override
    public void channelActive(ChannelHandlerContext context) {
        changed();
        context.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
        context.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object msg) {
        if (lingering || discarding) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (read == Read.BETWEEN && msg instanceof ByteBuf bytes && bytes.isReadable()) {
            lastActivityNanos = System.nanoTime();
            read = Read.HEAD;
            changed();
        }
        context.fireChannelRead(msg);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext context, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent && (lingering || discarding)) {
            // The client is done: a lingering close has nothing left to drain, and a held connection's client left.
            context.close();
        }
        context.fireUserEventTriggered(evt);
    }

    /** The codec has read a whole request head; its body (perhaps empty) follows. */
    void headComplete() {
        read = Read.BODY;
        changed();
    }

    /** The codec has read a whole request. */
    void bodyComplete() {
        read = Read.BETWEEN;
        changed();
    }

    /** The request handler started (true) or stopped (false) working on requests; no deadline while it works. */
    void working(boolean isWorking) {
        working = isWorking;
        changed();
    }

    /** A response is being written (true) or is written (false). */
    void writing(boolean isWriting) {
        lastActivityNanos = System.nanoTime();
        writing = isWriting;
        changed();
    }

    /**
     * Reads and discards whatever the client sends from now on, so that a client that goes away is noticed (its
     * close is read) although nothing more will be answered: for a connection held by {@code hang-after-commit},
     * which must not keep a slot under the connection cap after its client has left.
     */
    void discardInput() {
        discarding = true;
        changed();
        ctx.channel().config().setAutoRead(true);
    }

    /**
     * When this connection became idle, in {@link System#nanoTime()}: waiting for a next request with nothing in
     * hand. Empty while it is not idle. Any thread.
     */
    java.util.OptionalLong idleSince() {
        long since = idleSinceNanos;
        return idle ? java.util.OptionalLong.of(since) : java.util.OptionalLong.empty();
    }

    /**
     * Closes the connection if it is still idle once its event loop gets to it (FIN, no answer: RFC 9112 section
     * 9.5 lets a server close an idle connection, and a client resends on a fresh one). Any thread.
     */
    void closeIfIdle() {
        ctx.executor().execute(() -> {
            if (idle && ctx.channel().isActive()) {
                ctx.close();
            }
        });
    }

    /**
     * Ends the connection after its last response: FIN now, then discard whatever the client still sends until it
     * closes or {@link #LINGER_MS} pass.
     */
    void lingerClose() {
        if (lingering || !ctx.channel().isActive()) {
            return;
        }
        lingering = true;
        changed();
        ctx.channel().config().setAutoRead(true);
        if (ctx.channel() instanceof DuplexChannel duplex) {
            duplex.shutdownOutput();
        } else {
            ctx.close();
        }
    }

    private void changed() {
        since = System.nanoTime();
        boolean nowIdle = read == Read.BETWEEN && !working && !writing && !lingering && !discarding;
        if (nowIdle && !idle) {
            // Idle since its bytes stopped moving, not since now: a connection whose answer was written while its
            // event loop was slow to run the bookkeeping after it has been idle for as long as it looks to its client.
            idleSinceNanos = lastActivityNanos;
        }
        idle = nowIdle;
        long deadline = deadline();
        if (deadline == 0) {
            return;
        }
        if (timer == null || timerAt - deadline > 0) {
            if (timer != null) {
                timer.cancel(false);
            }
            schedule(deadline);
        }
    }

    /** The current deadline in nanoTime, 0 for none. */
    private long deadline() {
        if (lingering) {
            return since + TimeUnit.MILLISECONDS.toNanos(LINGER_MS);
        }
        if (writing) {
            return since + settings.idleTimeout().toNanos();
        }
        if (working) {
            return 0;
        }
        return switch (read) {
            case BETWEEN -> since + settings.idleTimeout().toNanos();
            case HEAD -> since + settings.headerTimeout().toNanos();
            case BODY -> since + settings.bodyTimeout().toNanos();
        };
    }

    private void schedule(long deadline) {
        timerAt = deadline;
        timer = ctx.executor().schedule(this::fire, Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    private void fire() {
        timer = null;
        if (!ctx.channel().isActive()) {
            return;
        }
        long deadline = deadline();
        if (deadline == 0) {
            return;
        }
        if (deadline - System.nanoTime() > 0) {
            // The connection moved on since this timer was set; wait for the deadline that applies now.
            schedule(deadline);
            return;
        }
        if (lingering || writing || read == Read.BETWEEN) {
            ctx.close();
            return;
        }
        String which = read == Read.HEAD ? "headers" : "body";
        Reply reply = Problems.problem(408, "request-timeout", "the request's " + which + " did not arrive in time");
        lingering = true;
        idle = false;
        ctx.channel().writeAndFlush(reply.toResponse(false, false)).addListener((ChannelFutureListener) f -> {
            lingering = false;
            if (f.isSuccess()) {
                lingerClose();
            } else {
                f.channel().close();
            }
        });
    }
}
