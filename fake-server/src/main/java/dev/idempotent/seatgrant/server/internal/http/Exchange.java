package dev.idempotent.seatgrant.server.internal.http;

import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.util.ReferenceCountUtil;
import java.net.SocketAddress;
import java.time.Instant;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * One request on a connection and the one way it ends: an answer, or a fault's effect on the socket. The
 * connection layer makes one per request and hands it to the {@link Routes}; the next request on the connection
 * starts only once this one has ended, so answers keep their order whatever thread ends it.
 *
 * <p>Ending methods ({@link #answer}, {@link #reset}, {@link #close}, {@link #holdOpen}) may be called from any
 * thread and run on the connection's event loop; exactly one of them may be called, once. The request stays
 * readable until then and is released after.
 */
public final class Exchange {

    /** Told, on the event loop, whether and when an answer reached the socket: the hook a journal settles by. */
    @FunctionalInterface
    public interface Written {
        /**
         * @param answeredMs milliseconds from the request's first byte ({@link #firstByteAt()}) until the whole
         *                   answer reached the socket, by the server's clock, never negative; null when it did not
         *                   reach it (the connection broke or was gone)
         */
        void written(Long answeredMs);
    }

    private static final Written NOBODY = answeredMs -> { };

    private final HttpConnection connection;
    private final FullHttpRequest request;
    private final Instant firstByte;
    private final String method;
    private final String path;
    private final UriParts uri;
    private final UriParts.Invalid badQuery;
    private final boolean keepAlive;
    private final boolean http10;
    private boolean ended;
    private boolean released;

    /**
     * @param request   the whole request, owned by this exchange from now on; null for a request refused before
     *                  it was whole
     * @param firstByte when the server read the request's first byte
     * @param uri       the parsed target; null when its query is not validly encoded ({@code badQuery} says why)
     * @param http10    true for an HTTP/1.0 request: a kept-alive answer says so, and a streamed one cannot be chunked
     */
    Exchange(HttpConnection connection, FullHttpRequest request, Instant firstByte, String method, String path,
             UriParts uri, UriParts.Invalid badQuery, boolean keepAlive, boolean http10) {
        this.connection = connection;
        this.request = request;
        this.firstByte = firstByte;
        this.method = method;
        this.path = path;
        this.uri = uri;
        this.badQuery = badQuery;
        this.keepAlive = keepAlive;
        this.http10 = http10;
    }

    /**
     * When the server read the request's first byte, by the server's clock: before its head and body were whole,
     * and, for a pipelined request that came in the same read as the one before it, before that one was answered.
     */
    public Instant firstByteAt() {
        return firstByte;
    }

    /** The request method, as sent ({@code POST}). */
    public String method() {
        return method;
    }

    /** The decoded path of the request target, without its query. */
    public String path() {
        return path;
    }

    /**
     * The decoded path and query parameters.
     *
     * @throws UriParts.Invalid when the query is not validly percent-encoded UTF-8 (the path always is)
     */
    public UriParts uri() throws UriParts.Invalid {
        if (badQuery != null) {
            throw badQuery;
        }
        return uri;
    }

    /**
     * The whole request, readable until this exchange ends.
     *
     * @throws IllegalStateException for a request refused before it was whole ({@link Routes#refused})
     */
    public FullHttpRequest request() {
        if (request == null) {
            throw new IllegalStateException("a refused request has no body to read");
        }
        return request;
    }

    /** Whether the connection stays open after the answer; false for a refused request. */
    public boolean keepAlive() {
        return keepAlive;
    }

    /** The client's address. */
    public SocketAddress remoteAddress() {
        return connection.remoteAddress();
    }

    /** The address the client reached: this server's address and the port it listens on. */
    public SocketAddress localAddress() {
        return connection.localAddress();
    }

    /** This connection's event loop, to continue work on it ({@code thenApplyAsync(f, exchange.loop())}). */
    public Executor loop() {
        return connection.executor();
    }

    /** Runs {@code action} on this connection's event loop: at once when already on it. */
    public void onLoop(Runnable action) {
        if (connection.executor().inEventLoop()) {
            action.run();
        } else {
            connection.executor().execute(action);
        }
    }

    /** Runs {@code action} on the event loop after {@code delayMs}, on a timer, not a thread; at once for 0. */
    public void schedule(long delayMs, Runnable action) {
        if (delayMs <= 0) {
            onLoop(action);
        } else {
            connection.executor().schedule(action, delayMs, TimeUnit.MILLISECONDS);
        }
    }

    /** Writes {@code reply}, then goes on to the next request (or closes, when the connection is not kept alive). */
    public void answer(Reply reply) {
        answer(reply, NOBODY);
    }

    /** As {@link #answer(Reply)}, then tells {@code written} whether the reply reached the socket. */
    public void answer(Reply reply, Written written) {
        onLoop(() -> {
            end();
            connection.write(reply, keepAlive, http10, firstByte, written);
        });
    }

    /**
     * Answers with a body written a part at a time: {@code Transfer-Encoding: chunked}, or, to an HTTP/1.0 client,
     * a body that ends when the connection closes. Each part is asked for once the one before it reached the
     * socket, and while parts keep going out the idle timeout does not cut the answer; a client that stops
     * reading is cut after the idle timeout, as for any answer. Then goes on to the next request, or closes.
     *
     * @param status      the status
     * @param contentType the body's media type
     */
    public void stream(int status, String contentType, BodyStream body) {
        onLoop(() -> {
            end();
            connection.stream(status, contentType, body, !http10, keepAlive);
        });
    }

    /**
     * Resets the connection: {@code SO_LINGER 0}, then close, so the client reads "connection reset". Nothing more
     * is answered on it.
     */
    public void reset() {
        onLoop(() -> {
            end();
            connection.reset();
        });
    }

    /** Closes the connection (FIN) without an answer. Nothing more is answered on it. */
    public void close() {
        onLoop(() -> {
            end();
            connection.closeNow();
        });
    }

    /**
     * Closes the connection (FIN) without an answer unless the exchange has ended already: for a request a reset
     * outlived, whose answer belongs to a test that is over. Any thread; at most once in effect.
     */
    public void abandon() {
        onLoop(() -> {
            if (!ended) {
                end();
                connection.closeNow();
            }
        });
    }

    /**
     * Holds the connection open without an answer for {@code ms}, then closes it; a client that closes first ends
     * the hold at once. No thread waits, and nothing more is answered on the connection.
     */
    public void holdOpen(long ms) {
        onLoop(() -> {
            end();
            connection.holdOpen(ms);
        });
    }

    /** True once an ending method has run. Event loop only. */
    boolean ended() {
        return ended;
    }

    /** Marks the exchange ended and releases the request. Event loop only. */
    void end() {
        if (ended) {
            throw new IllegalStateException("this exchange has already ended");
        }
        ended = true;
        release();
    }

    /** Releases the request (once) without ending: the connection went away first. Event loop only. */
    void release() {
        if (request != null && !released) {
            released = true;
            ReferenceCountUtil.release(request);
        }
    }
}
