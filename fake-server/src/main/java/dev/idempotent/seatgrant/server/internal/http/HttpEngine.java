package dev.idempotent.seatgrant.server.internal.http;

import dev.idempotent.seatgrant.server.internal.ServerCore;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * The Netty server: a small fixed set of event-loop threads serves every connection, so a thousand hung
 * connections cost a thousand idle channels, not a thousand threads.
 *
 * <p>Not thread-safe to start and close concurrently; {@link #close()} is idempotent.
 */
public final class HttpEngine implements AutoCloseable {

    private static final int IO_THREADS = 2;

    private final EventLoopGroup group;
    private final Channel serverChannel;

    private HttpEngine(EventLoopGroup group, Channel serverChannel) {
        this.group = group;
        this.serverChannel = serverChannel;
    }

    /**
     * Binds {@code host:port} (port 0 picks a free one) and starts serving.
     *
     * @throws java.io.UncheckedIOException wrapping the bind failure (address in use, bad host)
     */
    public static HttpEngine start(String host, int port, ServerCore core, HttpSettings settings) {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(IO_THREADS,
                new DefaultThreadFactory("seat-io", true), NioIoHandler.newFactory());
        SeatHttpHandler handler = new SeatHttpHandler(core, settings);
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 2048)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline()
                                .addLast("codec", new HttpServerCodec(8192, 16 * 1024, 8192))
                                .addLast("aggregate", new BodyLimitAggregator(core, settings))
                                .addLast("seats", handler);
                    }
                });
        try {
            Channel channel = bootstrap.bind(new InetSocketAddress(host, port)).syncUninterruptibly().channel();
            return new HttpEngine(group, channel);
        } catch (Exception e) {
            // syncUninterruptibly rethrows the bind's checked exception (BindException) undeclared.
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            java.io.IOException cause = e instanceof java.io.IOException io ? io : new java.io.IOException(e);
            throw new java.io.UncheckedIOException("cannot listen on " + host + ":" + port, cause);
        }
    }

    public InetSocketAddress localAddress() {
        return (InetSocketAddress) serverChannel.localAddress();
    }

    @Override
    public void close() {
        serverChannel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
