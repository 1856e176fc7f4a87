package dev.idempotent.seatgrant.server.internal.http;

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
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.TimeUnit;

/**
 * The Netty server: a small fixed set of event-loop threads serves every connection, so a thousand hung
 * connections cost a thousand idle channels, not a thousand threads.
 *
 * <p>This is the connection layer: whatever {@link Routes} sit behind it (the seat API, a proxy, the admin API
 * in front of either), each connection's pipeline is {@link ConnectionGuard} (deadlines, lingering close),
 * {@link FirstByteClock} (when each request began), Netty's codec, {@link RequestGate} (refusals from the head),
 * {@link BodyLimitAggregator}, then {@link HttpConnection} (one request at a time, answered in order, through the
 * routes). Beyond {@link HttpSettings#maxConnections()} open connections a new one takes the place of the one idle
 * longest, or, with none idle, is accepted and closed at once ({@link ConnectionCap}).
 *
 * <p>Not thread-safe to start and close concurrently; {@link #close()} is idempotent.
 */
public final class HttpEngine implements AutoCloseable {

    private static final int IO_THREADS = 2;

    private final EventLoopGroup group;
    private final Channel serverChannel;
    private final ConnectionCap cap;

    private HttpEngine(EventLoopGroup group, Channel serverChannel, ConnectionCap cap) {
        this.group = group;
        this.serverChannel = serverChannel;
        this.cap = cap;
    }

    /**
     * Binds {@code host:port} (port 0 picks a free one) and starts serving {@code routes}.
     *
     * @throws java.io.UncheckedIOException wrapping the bind failure (address in use, bad host)
     */
    public static HttpEngine start(String host, int port, HttpSettings settings, Routes routes) {
        return start(eventLoops(), host, port, settings, routes);
    }

    /**
     * The engine's I/O threads, made before it starts, for routes that do I/O of their own on the same threads
     * (a proxy's upstream connections): what a connection's exchange and its upstream call share needs no hand-off.
     */
    public static EventLoopGroup eventLoops() {
        return new MultiThreadIoEventLoopGroup(IO_THREADS, new DefaultThreadFactory("seat-io", true),
                NioIoHandler.newFactory());
    }

    /**
     * As {@link #start(String, int, HttpSettings, Routes)}, on {@code group} (from {@link #eventLoops()}), which
     * the engine owns from now on and shuts down when it closes or fails to bind.
     */
    public static HttpEngine start(EventLoopGroup group, String host, int port, HttpSettings settings,
                                   Routes routes) {
        return start(group, host, port, settings, routes, InFlightBytes.UNBOUNDED);
    }

    /**
     * As {@link #start(EventLoopGroup, String, int, HttpSettings, Routes)}, with request and answer bodies counted
     * against {@code inFlight} across all connections: a request that would pass it gets {@code 503 in-flight-limit}.
     */
    public static HttpEngine start(EventLoopGroup group, String host, int port, HttpSettings settings,
                                   Routes routes, InFlightBytes inFlight) {
        ConnectionCap cap = new ConnectionCap(settings.maxConnections());
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(group)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 2048)
                .childOption(ChannelOption.TCP_NODELAY, true)
                // A client may send its requests and then shut its side down; it still gets every answer.
                .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (!cap.admit(ch)) {
                            ch.close();
                            return;
                        }
                        ConnectionGuard guard = new ConnectionGuard(settings);
                        FirstByteClock firstBytes = new FirstByteClock(settings.clock());
                        RequestGate gate = new RequestGate(guard, firstBytes, settings.maxBodyBytes(), inFlight);
                        HttpConnection connection = new HttpConnection(routes, guard, firstBytes, gate, inFlight);
                        ch.pipeline()
                                .addLast("guard", guard)
                                .addLast("first-bytes", firstBytes)
                                .addLast("codec", new HttpServerCodec(8192, 16 * 1024, 8192))
                                .addLast("gate", gate)
                                .addLast("aggregate", new BodyLimitAggregator(connection, settings.maxBodyBytes()))
                                .addLast("connection", connection);
                        cap.track(ch, guard);
                    }
                });
        try {
            Channel channel = bootstrap.bind(new InetSocketAddress(host, port)).syncUninterruptibly().channel();
            return new HttpEngine(group, channel, cap);
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

    /**
     * {@code http://host:port/} as a client reaches it: a wildcard bind is reached on {@code 127.0.0.1}, an IPv6
     * address goes in brackets.
     */
    public URI baseUri() {
        InetAddress address = localAddress().getAddress();
        String host = address.isAnyLocalAddress() ? "127.0.0.1" : address.getHostAddress();
        if (host.contains(":")) {
            host = "[" + host + "]";
        }
        return URI.create("http://" + host + ":" + localAddress().getPort() + "/");
    }

    /** Connections open now, those closed at the cap included until their close completes. */
    public int openConnections() {
        return cap.open();
    }

    @Override
    public void close() {
        serverChannel.close().syncUninterruptibly();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
