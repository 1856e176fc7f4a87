package dev.idempotent.seatgrant.server.internal.http.proxy;

import dev.idempotent.seatgrant.server.internal.http.InFlightBytes;
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
import io.netty.channel.CombinedChannelDuplexHandler;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequestEncoder;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.handler.codec.http.HttpStatusClass;
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
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The proxy's client side, on Netty's own HTTP/1.1 codec: for each of the server's event loops, a bounded
 * {@link FixedChannelPool} of keep-alive connections to the one upstream, each connection an
 * {@link HttpResponseDecoder}, an {@link HttpRequestEncoder} and a {@link HttpObjectAggregator}. A request is sent
 * on the event loop of the client connection it came from, so the exchange and its upstream call never change
 * threads.
 *
 * <p>Every request ends in exactly one {@link UpstreamResult}: the whole answer, or why there is none. Connecting
 * is bounded at 5 s, the whole call (waiting for a pooled connection, connecting, the answer) by the upstream
 * timeout, an answer's body by the body limit, and the answer bytes held by the proxy's in-flight limit. A
 * connection whose answer did not come back whole is closed, never reused; so is one that decoded anything beyond
 * the answer it owed (RFC 9112 section 6.3: data after a complete response is never taken as another response),
 * which is why a connection goes back to the pool only once its read is complete. Nothing here resends a request:
 * a resend is exactly what makes the duplicates a proxy is there to count.
 *
 * <p>Thread-safe: each request's state is touched only on its event loop.
 */
public final class Upstream implements AutoCloseable {

    static final int CONNECT_TIMEOUT_MS = 5_000;
    /** Upstream connections open at most by default, across the event loops; requests beyond wait for one. */
    public static final int MAX_CONNECTIONS = 256;
    /**
     * A pooled connection idle this long is closed by the proxy, before most servers close it themselves (Node's
     * default is 5 s, the JDK's 30 s, nginx's 75 s): a request sent on a connection the server is just closing
     * fails, and the proxy never resends.
     */
    private static final int IDLE_CLOSE_SECONDS = 4;
    private static final int MAX_ANSWER_HEADER_BYTES = 64 * 1024;
    private static final AttributeKey<InFlight> IN_FLIGHT = AttributeKey.valueOf("proxy-in-flight");
    private static final AttributeKey<Conversation> CONVERSATION = AttributeKey.valueOf("proxy-conversation");

    /** One per event loop; never changed after construction. */
    private final Map<EventExecutor, FixedChannelPool> pools = new HashMap<>();
    private final EventExecutor firstLoop;
    private final long timeoutMs;
    private final AtomicInteger waiting = new AtomicInteger();
    private final InFlightBytes budget;

    /**
     * With {@link #MAX_CONNECTIONS} and no in-flight limit.
     *
     * @param group the event loops the server runs on ({@code HttpEngine.eventLoops()})
     * @param timeout bounds each call, from asking for a connection to the last byte of the answer
     * @param maxBodyBytes the largest answer body read; a larger one is {@link UpstreamError#TOO_LARGE}
     */
    public Upstream(EventLoopGroup group, UpstreamTarget target, Duration timeout, int maxBodyBytes) {
        this(group, target, timeout, maxBodyBytes, MAX_CONNECTIONS, InFlightBytes.UNBOUNDED);
    }

    /**
     * @param maxConnections upstream connections open at most, shared out over the event loops as evenly as they
     *                       go; a loop left without any sends through the first loop's
     * @param budget         what answer bodies are counted against while they are read; one past it is
     *                       {@link UpstreamError#IN_FLIGHT_LIMIT}
     */
    public Upstream(EventLoopGroup group, UpstreamTarget target, Duration timeout, int maxBodyBytes,
                    int maxConnections, InFlightBytes budget) {
        this.timeoutMs = timeout.toMillis();
        this.budget = budget;
        Bootstrap base = new Bootstrap()
                .channel(NioSocketChannel.class)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MS)
                .option(ChannelOption.TCP_NODELAY, true)
                .remoteAddress(target.address());
        int loops = 0;
        for (EventExecutor ignored : group) {
            loops++;
        }
        AbstractChannelPoolHandler pipeline = new AbstractChannelPoolHandler() {
            @Override
            public void channelCreated(Channel ch) {
                Conversation conversation = new Conversation();
                ch.attr(CONVERSATION).set(conversation);
                ch.pipeline()
                        .addLast("idle", new IdleStateHandler(0, 0, IDLE_CLOSE_SECONDS, TimeUnit.SECONDS))
                        .addLast("codec", new CombinedChannelDuplexHandler<>(conversation.decoder,
                                new HttpRequestEncoder()))
                        .addLast("budget", new AnswerBudget(budget))
                        .addLast("aggregate", new AnswerAggregator(maxBodyBytes))
                        .addLast("answer", new AnswerHandler());
            }
        };
        // A connection goes back to the pool, and out of it, only while it holds nothing it was not asked for.
        ChannelHealthChecker trusted = ch -> ch.eventLoop().newSucceededFuture(ch.isActive()
                && ch.attr(CONVERSATION).get().clean());
        EventExecutor first = null;
        int index = 0;
        for (EventExecutor executor : group) {
            int perLoop = maxConnections / loops + (index++ < maxConnections % loops ? 1 : 0);
            if (perLoop == 0) {
                break;
            }
            // One pool per loop, its connections registered on that loop: a client connection's exchange, its
            // upstream call and the pool's bookkeeping all run on one thread.
            FixedChannelPool pool = new FixedChannelPool(base.clone((EventLoop) executor), pipeline,
                    trusted, FixedChannelPool.AcquireTimeoutAction.FAIL, timeoutMs, perLoop,
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
            // Completed back on the caller's thread: what it does with the result touches its own connection.
            CompletableFuture<UpstreamResult> handedOff = new CompletableFuture<>();
            executor.execute(() -> send(executor, request).whenComplete((r, t) -> loop.execute(
                    () -> handedOff.complete(r))));
            return handedOff;
        }
        FixedChannelPool pool = pools.get(executor);
        InFlight flight = new InFlight(pool, request, budget);
        // Without a connection yet nothing was sent: the upstream was busy, not slow.
        flight.timer = executor.schedule(() -> flight.finish(new UpstreamResult.Failure(flight.channel == null
                        ? UpstreamError.BUSY : UpstreamError.TIMEOUT)), timeoutMs, TimeUnit.MILLISECONDS);
        waiting.incrementAndGet();
        pool.acquire().addListener((Future<Channel> acquired) -> {
            waiting.decrementAndGet();
            if (acquired.isSuccess()) {
                flight.attach(acquired.getNow());
            } else {
                // The pool's own wait for a free connection ends with the call's timeout; anything else is a
                // connection that could not be made. Either way nothing was sent.
                flight.finish(new UpstreamResult.Failure(acquired.cause() instanceof TimeoutException
                        ? UpstreamError.BUSY : UpstreamError.REFUSED));
            }
        });
        return flight.result;
    }

    /** Requests waiting for a pooled connection now (for one to be free, or to be made), across the event loops. */
    public int waiting() {
        return waiting.get();
    }

    /** Closes every pooled connection. Call before the event loops shut down. */
    @Override
    public void close() {
        pools.values().forEach(FixedChannelPool::close);
    }

    /**
     * What one pooled connection has been asked and has said, on its event loop: the decoder needs the method of the
     * request in flight ({@code HEAD} answers have no body), and the pool needs to know whether anything came that
     * no request was owed.
     */
    private static final class Conversation {
        final AnswerDecoder decoder = new AnswerDecoder(this);
        /** The method of the request in flight, or of the last one. */
        HttpMethod method;
        /** A request was written and its final answer has not come whole. */
        boolean owed;
        /** A message began that no request was owed: this connection is never reused. */
        boolean unasked;
        /** Answered and reusable: given back to this pool once the read that brought the answer is complete. */
        FixedChannelPool releaseAfterRead;

        /** Nothing unasked-for decoded, and no byte of it waiting to be. */
        boolean clean() {
            return !unasked && decoder.unread() == 0;
        }

        /** Gives the connection back if its answer left it waiting to be; closed first when it is not clean. */
        void giveBack(Channel ch) {
            FixedChannelPool pool = releaseAfterRead;
            if (pool == null) {
                return;
            }
            releaseAfterRead = null;
            if (!clean()) {
                ch.close();
            }
            pool.release(ch);
        }
    }

    /** Netty's response decoder, told which method each answer is for and which messages nobody asked for. */
    private static final class AnswerDecoder extends HttpResponseDecoder {
        private final Conversation conversation;

        AnswerDecoder(Conversation conversation) {
            super(8192, MAX_ANSWER_HEADER_BYTES, 8192);
            this.conversation = conversation;
        }

        @Override
        protected HttpMessage createMessage(String[] initialLine) {
            if (!conversation.owed) {
                conversation.unasked = true;
            }
            return super.createMessage(initialLine);
        }

        @Override
        protected boolean isContentAlwaysEmpty(HttpMessage msg) {
            if (msg instanceof HttpResponse response
                    && response.status().codeClass() != HttpStatusClass.INFORMATIONAL
                    && HttpMethod.HEAD.equals(conversation.method)) {
                return true;
            }
            return super.isContentAlwaysEmpty(msg);
        }

        /** Bytes read but not yet decoded: the start of a message that is not whole yet. */
        int unread() {
            return actualReadableBytes();
        }
    }

    /** One request on its way: owns the request until it is written, and the connection until it is released. */
    private static final class InFlight {
        final FixedChannelPool pool;
        final InFlightBytes budget;
        final CompletableFuture<UpstreamResult> result = new CompletableFuture<>();
        FullHttpRequest request;
        ScheduledFuture<?> timer;
        Channel channel;
        /** Answer body bytes counted against the budget so far; given back when the call ends. */
        long answerBytes;
        boolean done;

        InFlight(FixedChannelPool pool, FullHttpRequest request, InFlightBytes budget) {
            this.pool = pool;
            this.request = request;
            this.budget = budget;
        }

        void attach(Channel ch) {
            if (done) {
                // Timed out while waiting for this connection, which is still good: give it back.
                pool.release(ch);
                return;
            }
            channel = ch;
            Conversation conversation = ch.attr(CONVERSATION).get();
            conversation.method = request.method();
            conversation.owed = true;
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
            channel.attr(CONVERSATION).get().owed = false;
            byte[] body = new byte[response.content().readableBytes()];
            response.content().getBytes(response.content().readerIndex(), body);
            boolean reusable = HttpUtil.isKeepAlive(response) && response.status().code() != 101;
            finish(new UpstreamResult.Answer(response.status().code(), response.headers().copy(), body), reusable);
        }

        void finish(UpstreamResult outcome) {
            finish(outcome, false);
        }

        /**
         * Ends the call once: completes the result and gives the connection back, closed unless reusable. A reusable
         * one goes back only once the read that brought its answer is complete ({@link AnswerHandler}): handed on at
         * once, it would be written to by a waiting request while the rest of that read, an answer nobody asked for,
         * is still to be decoded, and that request would take it for its own.
         */
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
            budget.release(answerBytes);
            answerBytes = 0;
            if (channel != null) {
                channel.attr(IN_FLIGHT).set(null);
                if (reusable) {
                    channel.attr(CONVERSATION).get().releaseAfterRead = pool;
                } else {
                    // An answer cut short, late or oversized may still be on its way: this connection is done.
                    channel.close();
                    pool.release(channel);
                }
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

    /**
     * Counts each piece of an answer's body against the in-flight budget as it is read, before the aggregator holds
     * it; a piece past the budget fails the call. Anything decoded with no request waiting is dropped, and the
     * connection with it.
     */
    private static final class AnswerBudget extends ChannelInboundHandlerAdapter {
        private final InFlightBytes budget;

        AnswerBudget(InFlightBytes budget) {
            this.budget = budget;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            InFlight flight = ctx.channel().attr(IN_FLIGHT).get();
            if (flight == null) {
                ReferenceCountUtil.release(msg);
                ctx.close(); // an answer nobody asked for, or the rest of one given up on
                return;
            }
            if (msg instanceof HttpContent content) {
                int bytes = content.content().readableBytes();
                if (!budget.tryReserve(bytes)) {
                    ReferenceCountUtil.release(msg);
                    flight.finish(new UpstreamResult.Failure(UpstreamError.IN_FLIGHT_LIMIT));
                    return;
                }
                flight.answerBytes += bytes;
            }
            ctx.fireChannelRead(msg);
        }
    }

    /** Hands each whole answer to the request waiting for it; a connection that breaks fails that request. */
    private static final class AnswerHandler extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                FullHttpResponse response = (FullHttpResponse) msg;
                int code = response.status().code();
                InFlight flight = ctx.channel().attr(IN_FLIGHT).get();
                if (flight == null) {
                    ctx.close(); // an answer nobody asked for: this connection cannot be trusted
                } else if (response.decoderResult().isFailure() || code < 100 || code > 599) {
                    // RFC 9110 section 15: a status is 100 to 599; anything else is not an HTTP answer.
                    flight.finish(new UpstreamResult.Failure(UpstreamError.BROKEN));
                } else if (code < 200 && code != 101) {
                    return; // an interim answer (103 Early Hints): the final one follows
                } else {
                    flight.answered(response);
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        /** The read that may have brought an answer is over: only now may its connection go back to the pool. */
        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.channel().attr(CONVERSATION).get().giveBack(ctx.channel());
            ctx.fireChannelReadComplete();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            InFlight flight = ctx.channel().attr(IN_FLIGHT).get();
            if (flight != null) {
                flight.finish(new UpstreamResult.Failure(UpstreamError.BROKEN));
            }
            ctx.channel().attr(CONVERSATION).get().giveBack(ctx.channel());
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
