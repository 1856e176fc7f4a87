package dev.idempotent.seatgrant.server.internal.http.proxy;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.pool.AbstractChannelPoolHandler;
import io.netty.channel.pool.ChannelHealthChecker;
import io.netty.channel.pool.FixedChannelPool;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The proxy's client side, on Netty's own client codec: for each of the server's event loops, a bounded
 * {@link FixedChannelPool} of keep-alive connections to the one upstream, each connection a
 * {@link HttpClientCodec} and a {@link HttpObjectAggregator}. A request is sent on the event loop of the client
 * connection it came from, so the exchange and its upstream call never change threads.
 *
 * <p>Every request ends in exactly one {@link UpstreamResult}: the whole answer, or why there is none. Connecting
 * is bounded at 5 s, the whole call (waiting for a pooled connection, connecting, the answer) by the upstream
 * timeout, and an answer's body by the body limit. A connection whose answer did not come back whole is closed,
 * never reused. Nothing here resends a request: a resend is exactly what makes the duplicates a proxy is there to
 * count.
 *
 * <p>Thread-safe: each request's state is touched only on its event loop.
 */
public final class Upstream implements AutoCloseable {

    static final int CONNECT_TIMEOUT_MS = 5_000;
    /** Upstream connections open at most, across the event loops; requests beyond it wait for one to be free. */
    public static final int MAX_CONNECTIONS = 256;
    /**
     * A pooled connection idle this long is closed by the proxy, before most servers close it themselves (Node's
     * default is 5 s, the JDK's 30 s, nginx's 75 s): a request sent on a connection the server is just closing
     * fails, and the proxy never resends.
     */
    private static final int IDLE_CLOSE_SECONDS = 4;
    private static final int MAX_ANSWER_HEADER_BYTES = 64 * 1024;
    private static final AttributeKey<InFlight> IN_FLIGHT = AttributeKey.valueOf("proxy-in-flight");

    /** One per event loop; never changed after construction. */
    private final Map<EventExecutor, FixedChannelPool> pools = new HashMap<>();
    private final EventExecutor firstLoop;
    private final long timeoutMs;

    /**
     * @param group the event loops the server runs on ({@code HttpEngine.eventLoops()})
     * @param timeout bounds each call, from asking for a connection to the last byte of the answer
     * @param maxBodyBytes the largest answer body read; a larger one is {@link UpstreamError#TOO_LARGE}
     */
    public Upstream(EventLoopGroup group, UpstreamTarget target, Duration timeout, int maxBodyBytes) {
        this.timeoutMs = timeout.toMillis();
        Bootstrap base = new Bootstrap()
                .channel(NioSocketChannel.class)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MS)
                .option(ChannelOption.TCP_NODELAY, true)
                .remoteAddress(target.address());
        int loops = 0;
        for (EventExecutor ignored : group) {
            loops++;
        }
        int perLoop = Math.max(1, MAX_CONNECTIONS / loops);
        AbstractChannelPoolHandler pipeline = new AbstractChannelPoolHandler() {
            @Override
            public void channelCreated(Channel ch) {
                ch.pipeline()
                        .addLast("idle", new IdleStateHandler(0, 0, IDLE_CLOSE_SECONDS, TimeUnit.SECONDS))
                        .addLast("codec", new HttpClientCodec(8192, MAX_ANSWER_HEADER_BYTES, 8192))
                        .addLast("aggregate", new AnswerAggregator(maxBodyBytes))
                        .addLast("answer", new AnswerHandler());
            }
        };
        EventExecutor first = null;
        for (EventExecutor executor : group) {
            // One pool per loop, its connections registered on that loop: a client connection's exchange, its
            // upstream call and the pool's bookkeeping all run on one thread.
            FixedChannelPool pool = new FixedChannelPool(base.clone((EventLoop) executor), pipeline,
                    ChannelHealthChecker.ACTIVE, FixedChannelPool.AcquireTimeoutAction.FAIL, timeoutMs, perLoop,
                    Integer.MAX_VALUE, true, true);
            pools.put(executor, pool);
            if (first == null) {
                first = executor;
            }
        }
        this.firstLoop = first;
    }

    /**
     * Sends {@code request} (which this takes ownership of) and completes, on its event loop, with the upstream's
     * whole answer or the reason there is none; never exceptionally.
     *
     * @param loop the event loop of the client connection the request came from, and the one to call this on
     *             (another executor works too, at the cost of a hand-off to the first event loop)
     */
    public CompletableFuture<UpstreamResult> send(Executor loop, FullHttpRequest request) {
        EventExecutor executor = loop instanceof EventExecutor e && pools.containsKey(e) ? e : firstLoop;
        if (!executor.inEventLoop()) {
            CompletableFuture<UpstreamResult> handedOff = new CompletableFuture<>();
            executor.execute(() -> send(executor, request).whenComplete((r, t) -> handedOff.complete(r)));
            return handedOff;
        }
        FixedChannelPool pool = pools.get(executor);
        InFlight flight = new InFlight(pool, request);
        flight.timer = executor.schedule(() -> flight.finish(new UpstreamResult.Failure(UpstreamError.TIMEOUT)),
                timeoutMs, TimeUnit.MILLISECONDS);
        pool.acquire().addListener((Future<Channel> acquired) -> {
            if (acquired.isSuccess()) {
                flight.attach(acquired.getNow());
            } else {
                // The pool's own wait for a free connection ends with the call's timeout; anything else is a
                // connection that could not be made.
                flight.finish(new UpstreamResult.Failure(acquired.cause() instanceof TimeoutException
                        ? UpstreamError.TIMEOUT : UpstreamError.REFUSED));
            }
        });
        return flight.result;
    }

    /** Closes every pooled connection. Call before the event loops shut down. */
    @Override
    public void close() {
        pools.values().forEach(FixedChannelPool::close);
    }

    /** One request on its way: owns the request until it is written, and the connection until it is released. */
    private static final class InFlight {
        final FixedChannelPool pool;
        final CompletableFuture<UpstreamResult> result = new CompletableFuture<>();
        FullHttpRequest request;
        ScheduledFuture<?> timer;
        Channel channel;
        boolean done;

        InFlight(FixedChannelPool pool, FullHttpRequest request) {
            this.pool = pool;
            this.request = request;
        }

        void attach(Channel ch) {
            if (done) {
                // Timed out while waiting for this connection, which is still good: give it back.
                pool.release(ch);
                return;
            }
            channel = ch;
            ch.attr(IN_FLIGHT).set(this);
            FullHttpRequest sending = request;
            request = null;
            ch.writeAndFlush(sending).addListener(written -> {
                if (!written.isSuccess()) {
                    finish(new UpstreamResult.Failure(UpstreamError.BROKEN));
                }
            });
        }

        void answered(FullHttpResponse response) {
            byte[] body = new byte[response.content().readableBytes()];
            response.content().getBytes(response.content().readerIndex(), body);
            boolean reusable = HttpUtil.isKeepAlive(response) && response.status().code() != 101;
            finish(new UpstreamResult.Answer(response.status().code(), response.headers().copy(), body), reusable);
        }

        void finish(UpstreamResult outcome) {
            finish(outcome, false);
        }

        /** Ends the call once: completes the result and gives the connection back, closed unless reusable. */
        void finish(UpstreamResult outcome, boolean reusable) {
            if (done) {
                return;
            }
            done = true;
            timer.cancel(false);
            if (request != null) {
                ReferenceCountUtil.release(request);
                request = null;
            }
            if (channel != null) {
                channel.attr(IN_FLIGHT).set(null);
                if (!reusable) {
                    // An answer cut short, late or oversized may still be on its way: this connection is done.
                    channel.close();
                }
                pool.release(channel);
            }
            result.complete(outcome);
        }
    }

    /** Reads the whole answer up to the body limit; a larger one fails the call instead of an exception's text. */
    private static final class AnswerAggregator extends HttpObjectAggregator {
        AnswerAggregator(int maxBodyBytes) {
            super(maxBodyBytes);
        }

        @Override
        protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
            InFlight flight = ctx.channel().attr(IN_FLIGHT).get();
            if (flight != null) {
                flight.finish(new UpstreamResult.Failure(UpstreamError.TOO_LARGE));
            } else {
                ctx.close();
            }
        }
    }

    /** Hands each whole answer to the request waiting for it; a connection that breaks fails that request. */
    private static final class AnswerHandler extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                FullHttpResponse response = (FullHttpResponse) msg;
                int code = response.status().code();
                if (code >= 100 && code < 200 && code != 101) {
                    return; // an interim answer (103 Early Hints): the final one follows
                }
                InFlight flight = ctx.channel().attr(IN_FLIGHT).get();
                if (flight == null) {
                    ctx.close(); // an answer nobody asked for: this connection cannot be trusted
                } else if (response.decoderResult().isFailure()) {
                    flight.finish(new UpstreamResult.Failure(UpstreamError.BROKEN));
                } else {
                    flight.answered(response);
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            InFlight flight = ctx.channel().attr(IN_FLIGHT).get();
            if (flight != null) {
                flight.finish(new UpstreamResult.Failure(UpstreamError.BROKEN));
            }
            ctx.fireChannelInactive();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // Never the cause's message: it can quote the answer's head.
            InFlight flight = ctx.channel().attr(IN_FLIGHT).get();
            if (flight != null) {
                flight.finish(new UpstreamResult.Failure(UpstreamError.BROKEN));
            } else {
                ctx.close();
            }
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof IdleStateEvent && ctx.channel().attr(IN_FLIGHT).get() == null) {
                ctx.close();
            }
            ctx.fireUserEventTriggered(evt);
        }
    }
}
