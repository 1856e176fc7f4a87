package dev.idempotent.seatgrant.server.internal.http;

/**
 * What answers the requests the connection layer reads: the seat API, the admin API in front of it, a proxy's
 * upstream. The connection layer owns everything about the wire (framing, pipelining, timeouts, the connection
 * cap, strict request checks, writing answers); routes own what a request means.
 *
 * <p>The connection layer hands over one request at a time per connection, in arrival order, and starts the
 * next one only when this one's {@link Exchange} has ended, so a route may answer asynchronously (from a store
 * thread, an upstream client's event loop, a timer) and pipelined answers still come back in order.
 *
 * <p>Methods are called on the connection's event loop and must not block it: slow work goes elsewhere and
 * ends the exchange from there.
 */
public interface Routes {

    /**
     * Serves one whole, well-framed request whose path is validly percent-encoded UTF-8 (its query may not be:
     * see {@link Exchange#uri()}). The route must end the exchange exactly once, now or later: an answer
     * ({@link Exchange#answer}) or a socket effect ({@link Exchange#reset}, {@link Exchange#close},
     * {@link Exchange#holdOpen}). A {@code RuntimeException} thrown here is answered {@code 500}, the connection
     * closes, and the failure is logged by its classes only, with the path as {@link #loggablePath} shows it.
     */
    void serve(Exchange exchange);

    /**
     * A request refused before it was whole (its body too large, its framing or expectation not supported, ...)
     * whose head named a readable target. The route answers {@code problem} (the connection closes after it);
     * one that journals its requests journals this one too. By default it is answered and nothing more.
     */
    default void refused(Exchange exchange, Reply problem) {
        exchange.answer(problem);
    }

    /**
     * How a log line may name {@code path}, a path this route serves: never a part that may hold a secret (a
     * base path may), never a control character (see {@link LogSafe#path}).
     */
    String loggablePath(String path);
}
