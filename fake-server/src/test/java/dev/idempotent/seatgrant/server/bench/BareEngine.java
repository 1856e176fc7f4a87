package dev.idempotent.seatgrant.server.bench;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * The ceiling of the stack the fake server runs on: the same Netty engine and settings as
 * {@code internal.http.HttpEngine} (two NIO event-loop threads, backlog 2048, TCP_NODELAY, the same codec limits,
 * a full-request aggregator, one request at a time per connection), answering every request with a static
 * {@code 201} and a seat-sized JSON body. No parsing, no store, no journal: what is left is the cost of HTTP.
 *
 * <p>{@code java -cp ... BareEngine PORT} prints {@code listening on http://127.0.0.1:PORT/} and serves until
 * killed. Bench-only; never part of the server.
 */
public final class BareEngine {

    /** The body every static server in the benchmark answers: the shape and size of a real seat. */
    static final String SEAT_JSON = "{\"id\":\"seat_00000000000000000000000000000000\",\"workspaceId\":\"ws_bench\","
            + "\"userId\":\"user_1\",\"role\":\"member\",\"createdAt\":\"2026-11-29T00:00:00Z\"}";

    private BareEngine() {
    }

    public static void main(String[] args) {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(2, new DefaultThreadFactory("bare-io", true),
                NioIoHandler.newFactory());
        ByteBuf body = Unpooled.unreleasableBuffer(
                Unpooled.directBuffer().writeBytes(SEAT_JSON.getBytes(StandardCharsets.UTF_8)));
        Static handler = new Static(body);
        Channel channel = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 2048)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline()
                                .addLast("codec", new HttpServerCodec(8192, 16 * 1024, 8192))
                                .addLast("aggregate", new HttpObjectAggregator(64 * 1024))
                                .addLast("static", handler);
                    }
                })
                .bind(new InetSocketAddress("127.0.0.1", port)).syncUninterruptibly().channel();
        System.out.println("listening on http://127.0.0.1:" + ((InetSocketAddress) channel.localAddress()).getPort() + "/");
        System.out.flush();
        channel.closeFuture().syncUninterruptibly();
    }

    @ChannelHandler.Sharable
    private static final class Static extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final ByteBuf body;

        Static(ByteBuf body) {
            this.body = body;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            // As the fake server does: no reads on this connection until the answer is written.
            ctx.channel().config().setAutoRead(false);
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CREATED,
                    body.duplicate());
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json");
            response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
            boolean keepAlive = HttpUtil.isKeepAlive(request);
            ctx.writeAndFlush(response).addListener((ChannelFutureListener) f -> {
                if (!keepAlive || !f.isSuccess()) {
                    f.channel().close();
                } else {
                    f.channel().config().setAutoRead(true);
                }
            });
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
