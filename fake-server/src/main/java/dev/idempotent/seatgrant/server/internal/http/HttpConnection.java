package dev.idempotent.seatgrant.server.internal.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.EventExecutor;
import java.net.SocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last handler of every connection: turns each whole request (or each {@link Refusal} standing in for one)
 * into an {@link Exchange}, hands it to the {@link Routes}, and writes what they answer.
 *
 * <p>Requests are handled one at a time and answered in the order they arrived, as HTTP/1.1 pipelining needs:
 * the codec may decode several requests from one read, so they wait in a queue, and the next one starts only
 * once the previous exchange has ended (its answer written, or its fault struck). A request that asks to close
 * the connection is answered after everything before it, and then the connection closes.
 *
 * <p>What no route should have to decide is decided here: a path that is not validly encoded is a {@code 400}
 * no route sees, a route that throws gets a {@code 500} and a log line without the request's bytes, and a
 * refusal whose target cannot be read is answered without asking any route.
 *
 * <p>Runs on Netty's event loop and never blocks it; waits are timers on the channel's own event loop, and a
 * held connection is just a channel with reads switched off.
 */
final class HttpConnection extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(LogSafe.REQUEST_LOG);

    /** A whole request (or the refusal standing in for one) and when the server read its first byte. */
    private record Arrival(Object msg, Instant firstByte) { }

    private final Routes routes;
    private final ConnectionGuard guard;
    private final FirstByteClock firstBytes;
    private final RequestGate gate;
    private final InFlightBytes inFlight;
    private final Deque<Arrival> queue = new ArrayDeque<>();
    /** The body bytes of the request being served, counted by the gate until its exchange is over. */
    private long servingBytes;
    private ChannelHandlerContext ctx;
    /** The exchange being served, until the next starts; null before the first. */
    private Exchange current;
    private boolean busy;
    private boolean closing;
    private boolean inputClosed;
    /** A {@code 100 Continue} held back until the requests before its own are answered; null for none. */
    private Object owedContinue;

    HttpConnection(Routes routes, ConnectionGuard guard, FirstByteClock firstBytes, RequestGate gate,
                   InFlightBytes inFlight) {
        this.routes = routes;
        this.guard = guard;
        this.firstBytes = firstBytes;
        this.gate = gate;
        this.inFlight = inFlight;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext context) {
        this.ctx = context;
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object msg) {
        // The aggregator hands on one message at a time, so this is the request a held-back 100 was for: its body
        // came without waiting for it, and a 100 now would only arrive after its answer's turn has begun.
        forgetContinue();
        Instant firstByte = firstBytes.take();
        if (closing) {
            ReferenceCountUtil.release(msg);
            return;
        }
        queue.add(new Arrival(msg, firstByte));
        // Backpressure: no more reads while requests wait; reads resume when the queue is empty again.
        context.channel().config().setAutoRead(false);
        if (!busy) {
            next();
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext context, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent) {
            // The client sent all it will send: answer what is queued, then close.
            inputClosed = true;
            if (!busy) {
                context.close();
            }
        }
        context.fireUserEventTriggered(evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) {
        closing = true;
        drop();
        if (current != null) {
            current.release();
        }
        context.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
        // Mostly clients resetting connections; never log the message (it can carry request bytes).
        LOG.debug("connection error: {}", cause.getClass().getSimpleName());
        closing = true;
        context.close();
    }

    /** Starts the next queued request, or, with none left, goes back to reading. */
    private void next() {
        // The previous exchange is over: its request's body no longer counts as in flight.
        gate.released(servingBytes);
        servingBytes = 0;
        Arrival arrival = queue.poll();
        if (arrival == null || closing) {
            busy = false;
            guard.working(false);
            if (inputClosed && !closing) {
                ctx.close();
                return;
            }
            if (!closing && ctx.channel().isActive()) {
                if (owedContinue != null) {
                    // Everything before the expecting request is answered: now its 100 is next in line.
                    Object interim = owedContinue;
                    owedContinue = null;
                    ctx.writeAndFlush(interim);
                }
                ctx.channel().config().setAutoRead(true);
            }
            return;
        }
        busy = true;
        guard.working(true);
        Object msg = arrival.msg();
        if (msg instanceof Refusal refusal) {
            refuse(refusal, arrival.firstByte());
        } else if (((FullHttpRequest) msg).decoderResult().isFailure()) {
            ReferenceCountUtil.release(msg);
            // A request cut short (its client shut down mid-body): never served, whatever its bytes so far say.
            refuse(new Refusal(400, "malformed-request", "the request ended before its body was complete",
                    null, null), arrival.firstByte());
        } else {
            serve((FullHttpRequest) msg, arrival.firstByte());
        }
    }

    private void serve(FullHttpRequest request, Instant firstByte) {
        servingBytes = request.content().readableBytes();
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        // The gate let through only Netty's two constants, so identity tells the versions apart.
        boolean http10 = request.protocolVersion() == HttpVersion.HTTP_1_0;
        String method = request.method().name();
        String path = null;
        Exchange exchange = null;
        try {
            UriParts uri = null;
            UriParts.Invalid badQuery = null;
            try {
                uri = UriParts.parse(request.uri());
                path = uri.path();
            } catch (UriParts.Invalid e) {
                if (e.inPath()) {
                    // The path cannot be named, so no route can journal or log this request by it.
                    ReferenceCountUtil.release(request);
                    write(Problems.problem(400, "invalid-path", e.getMessage()), keepAlive, http10, firstByte, null);
                    return;
                }
                String origin = UriParts.originForm(request.uri());
                path = UriParts.parse(origin.substring(0, origin.indexOf('?'))).path();
                badQuery = e;
            }
            exchange = new Exchange(this, request, firstByte, method, path, uri, badQuery, keepAlive, http10);
            current = exchange;
            routes.serve(exchange);
        } catch (RuntimeException | UriParts.Invalid e) {
            // Never the exception's message: it may quote the request (a query string, a header value).
            LOG.error("unexpected failure handling {} {}: {}", method,
                    path == null ? "(path unread)" : routes.loggablePath(path), LogSafe.describe(e));
            if (exchange == null) {
                ReferenceCountUtil.release(request);
                write(internalError(), false, false, firstByte, null);
            } else if (!exchange.ended()) {
                exchange.end();
                write(internalError(), false, false, firstByte, null);
            }
        }
    }

    private static Reply internalError() {
        return Problems.problem(500, "internal", "the server failed; see its log");
    }

    /** Answers a request refused before it was whole: through the routes when its target can be read. */
    private void refuse(Refusal refusal, Instant firstByte) {
        Reply reply = refusal.reply();
        if (refusal.uri() != null) {
            UriParts uri;
            try {
                uri = UriParts.parse(refusal.uri());
            } catch (UriParts.Invalid e) {
                uri = null;
            }
            if (uri != null) {
                current = new Exchange(this, null, firstByte, refusal.method(), uri.path(), uri, null, false, false);
                routes.refused(current, reply);
                return;
            }
        }
        // Its target cannot be read, so no route can name it.
        write(reply, false, false, firstByte, null);
    }

    /** True when a {@code 100 Continue} for the request being read now would be the next response on the wire. */
    boolean mayContinueNow() {
        return !busy && queue.isEmpty() && !closing;
    }

    /** Holds a {@code 100 Continue} back until every request before its own is answered. */
    void oweContinue(Object interim) {
        forgetContinue();
        if (closing) {
            ReferenceCountUtil.release(interim);
        } else {
            owedContinue = interim;
        }
    }

    private void forgetContinue() {
        if (owedContinue != null) {
            ReferenceCountUtil.release(owedContinue);
            owedContinue = null;
        }
    }

    private void drop() {
        forgetContinue();
        Arrival arrival;
        while ((arrival = queue.poll()) != null) {
            ReferenceCountUtil.release(arrival.msg());
        }
    }

    // What an Exchange does to the connection; all on the event loop.

    SocketAddress remoteAddress() {
        return ctx.channel().remoteAddress();
    }

    SocketAddress localAddress() {
        return ctx.channel().localAddress();
    }

    EventExecutor executor() {
        return ctx.executor();
    }

    /**
     * Writes the answer to the current request, whose first byte was read at {@code firstByte}, tells
     * {@code written} (nullable) whether and when it reached the socket, then either closes the connection or
     * moves on to the next queued request.
     */
    void write(Reply reply, boolean keepAlive, boolean http10, Instant firstByte, Exchange.Written written) {
        if (!ctx.channel().isActive()) {
            if (written != null) {
                written.written(null);
            }
            return;
        }
        guard.writing(true);
        // An answer being written is held until it is: it counts as in flight, though it cannot be refused now.
        long bytes = reply.body().length;
        inFlight.hold(bytes);
        ctx.writeAndFlush(reply.toResponse(keepAlive, http10)).addListener((ChannelFutureListener) f -> {
            inFlight.release(bytes);
            guard.writing(false);
            // Never negative, though an injected clock may be set back meanwhile.
            Long answeredMs = f.isSuccess() ? Math.max(0, Duration.between(firstByte, firstBytes.now()).toMillis()) : null;
            // The connection's state first, then the journal: whoever reads the answer as written in the journal
            // finds the connection already idle (if nothing else is queued on it).
            answered(f.isSuccess(), keepAlive);
            if (written != null) {
                written.written(answeredMs);
            }
        });
    }

    /**
     * Writes a streamed answer: the head, then each part of {@code body} once the one before it reached the socket,
     * then the end. {@code chunked} false means a body that ends with the connection (an HTTP/1.0 client), which
     * then closes, as it does after a chunked body unless {@code keepAlive}.
     */
    void stream(int status, String contentType, BodyStream body, boolean chunked, boolean keepAlive) {
        if (!ctx.channel().isActive()) {
            body.abandon();
            return;
        }
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(status));
        head.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        if (chunked) {
            head.headers().set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
        }
        boolean keep = chunked && keepAlive;
        if (!keep) {
            head.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        }
        guard.writing(true);
        ctx.write(head);
        pump(body, keep);
    }

    private void pump(BodyStream body, boolean keepAlive) {
        body.next().whenComplete((part, failure) -> ctx.executor().execute(() -> {
            if (failure != null || !ctx.channel().isActive()) {
                // The status is out already: a body cut short (no last chunk) is the only honest ending.
                body.abandon();
                guard.writing(false);
                closing = true;
                ctx.close();
                return;
            }
            if (part == null) {
                ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT).addListener((ChannelFutureListener) f -> {
                    guard.writing(false);
                    answered(f.isSuccess(), keepAlive);
                });
                return;
            }
            ctx.writeAndFlush(new DefaultHttpContent(Unpooled.wrappedBuffer(part)))
                    .addListener((ChannelFutureListener) f -> {
                        if (!f.isSuccess()) {
                            body.abandon();
                            guard.writing(false);
                            closing = true;
                            f.channel().close();
                            return;
                        }
                        // Progress: the idle timeout bounds each part's write, not the whole answer.
                        guard.writing(true);
                        pump(body, keepAlive);
                    });
        }));
    }

    /** After an answer's last byte was written (or failed): close, or go on to the next queued request. */
    private void answered(boolean success, boolean keepAlive) {
        if (!success) {
            closing = true;
            ctx.close();
        } else if (!keepAlive) {
            // The response said "connection: close": nothing after this request is answered.
            closing = true;
            drop();
            guard.lingerClose();
        } else {
            if (queue.isEmpty()) {
                // Idle from now, not from when next() gets to run: a busy event loop may run it much later, and
                // until then this connection would look busy to the connection cap (next() confirms it).
                guard.working(false);
            }
            // Not inline: a write can complete within writeAndFlush, and a long pipeline must not recurse.
            ctx.executor().execute(this::next);
        }
    }

    void reset() {
        closing = true;
        // SO_LINGER 0 makes close() send RST instead of FIN: the client sees "connection reset".
        ctx.channel().config().setOption(ChannelOption.SO_LINGER, 0);
        ctx.close();
    }

    void closeNow() {
        closing = true;
        ctx.close();
    }

    void holdOpen(long ms) {
        // Nothing more is answered on this connection; reading on (and dropping) lets a client's close end the
        // hold at once, so a departed client frees its place under the connection cap.
        closing = true;
        drop();
        guard.discardInput();
        // No thread waits here: the connection stays busy (so reads stay off and the guard sets no deadline) and
        // a timer on the channel's event loop ends the hold.
        io.netty.util.concurrent.ScheduledFuture<?> end = ctx.executor().schedule(() -> {
            closing = true;
            ctx.close();
        }, ms, TimeUnit.MILLISECONDS);
        ctx.channel().closeFuture().addListener(f -> end.cancel(false));
    }
}
