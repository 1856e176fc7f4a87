package dev.idempotent.seatgrant.server.internal.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.ReferenceCountUtil;
import java.util.List;
import java.util.Locale;

/**
 * Sits between the HTTP codec and the body aggregator and refuses, from the head alone, what the server will
 * not read: a head Netty could not parse ({@code 400}, or {@code 414} for a request line and {@code 431} for a
 * header section over the codec's limits), an HTTP version other than 1.0 or 1.1 ({@code 505}) or one not
 * spelled in capitals ({@code 400}), a request target holding a control character ({@code 400}), a request
 * with no {@code Host} (HTTP/1.1), with two, or with one that is not a host and port ({@code 400}), two
 * {@code Authorization} headers ({@code 400}), a transfer coding other than {@code chunked} ({@code 501}) or
 * {@code chunked} twice ({@code 400}), an expectation other than {@code 100-continue} ({@code 417}) and a
 * declared body over the limit ({@code 413}). A refusal replaces the request in the pipeline, so it is answered
 * in order; everything after it on the connection is dropped, and the connection closes after the answer.
 *
 * <p>It counts request bodies against the server's {@link InFlightBytes} as they come (from the head when it
 * says its length, else piece by piece) and refuses one that would pass the limit with {@code 503 in-flight-limit}
 * and {@code Retry-After: 1}; the {@link HttpConnection} says when a request's exchange is over and its bytes no longer
 * count, and a closed connection gives back all it still counted.
 *
 * <p>It also tells the {@link ConnectionGuard} and the {@link FirstByteClock} when a head and a body are complete.
 * One per connection.
 */
final class RequestGate extends ChannelInboundHandlerAdapter {

    private final ConnectionGuard guard;
    private final FirstByteClock firstBytes;
    private final int maxBodyBytes;
    private final InFlightBytes inFlight;
    private boolean discarding;
    /** Body bytes this connection has counted and not given back. */
    private long counted;
    /** The request being read has no length in its head: its body is counted piece by piece. */
    private boolean countingPieces;
    private String method;
    private String uri;

    RequestGate(ConnectionGuard guard, FirstByteClock firstBytes, int maxBodyBytes, InFlightBytes inFlight) {
        this.guard = guard;
        this.firstBytes = firstBytes;
        this.maxBodyBytes = maxBodyBytes;
        this.inFlight = inFlight;
    }

    /** A request whose body was {@code bytes} long has been answered: they no longer count. */
    void released(long bytes) {
        long n = Math.min(bytes, counted);
        counted -= n;
        inFlight.release(n);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        inFlight.release(counted);
        counted = 0;
        ctx.fireChannelInactive();
    }

    private boolean count(long bytes) {
        if (!inFlight.tryReserve(bytes)) {
            return false;
        }
        counted += bytes;
        return true;
    }

    private static Refusal overLimit(String method, String uri) {
        return new Refusal(503, "in-flight-limit", "the server holds too many request and answer bytes now;"
                + " this request was neither read nor forwarded", method, uri, 1);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (discarding) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof HttpRequest head) {
            guard.headComplete();
            firstBytes.headDecoded();
            Refusal refusal = refusal(head, maxBodyBytes);
            if (refusal == null) {
                method = head.method().name();
                uri = head.uri();
                long length = HttpUtil.getContentLength(head, -1L);
                countingPieces = length < 0;
                if (length > 0 && !count(length)) {
                    refusal = overLimit(method, uri);
                }
            }
            if (refusal != null) {
                discarding = true;
                ReferenceCountUtil.release(msg);
                guard.bodyComplete();
                firstBytes.requestEnded();
                ctx.fireChannelRead(refusal);
                return;
            }
        }
        if (countingPieces && msg instanceof HttpContent piece && !count(piece.content().readableBytes())) {
            discarding = true;
            ReferenceCountUtil.release(msg);
            guard.bodyComplete();
            firstBytes.requestEnded();
            ctx.fireChannelRead(overLimit(method, uri));
            return;
        }
        if (msg instanceof LastHttpContent) {
            countingPieces = false;
            guard.bodyComplete();
            firstBytes.requestEnded();
        }
        ctx.fireChannelRead(msg);
    }

    private static Refusal refusal(HttpRequest head, int maxBodyBytes) {
        if (head.decoderResult().isFailure()) {
            Throwable cause = head.decoderResult().cause();
            if (cause instanceof TooLongHttpLineException) {
                return new Refusal(414, "uri-too-long", "the request line is over 8192 bytes", null, null);
            }
            if (cause instanceof TooLongHttpHeaderException) {
                return new Refusal(431, "headers-too-large", "the header section is over 16384 bytes", null, null);
            }
            // Netty refuses a coding list whose last coding is not chunked, or that repeats chunked, as a bad head;
            // RFC 9112 section 6.1 answers a coding the server does not implement with 501, not 400.
            Refusal coding = codingRefusal(head, null, null);
            if (coding != null) {
                return coding;
            }
            return new Refusal(400, "malformed-request", "the request is not valid HTTP/1.1", null, null);
        }
        String method = head.method().name();
        String uri = head.uri();
        HttpVersion version = head.protocolVersion();
        if (version != HttpVersion.HTTP_1_1 && version != HttpVersion.HTTP_1_0) {
            // Netty hands back its own constants for exactly "HTTP/1.1" and "HTTP/1.0", and a new, upper-cased
            // version for any other spelling: "http/1.1" reads as 1.1 here, though the name is case-sensitive
            // (RFC 9112 section 2.3) and such a line is no HTTP request line at all.
            if (version.protocolName().equals("HTTP") && version.majorVersion() == 1 && version.minorVersion() <= 1) {
                return new Refusal(400, "malformed-request", "the protocol name is HTTP, in capitals", null, null);
            }
            return new Refusal(505, "http-version-not-supported", "this server speaks HTTP/1.1 and HTTP/1.0",
                    method, uri);
        }
        if (!visibleAscii(uri)) {
            // A control character or DEL in the target (RFC 9112 section 3.2 allows none); nginx answers 400 too.
            return new Refusal(400, "malformed-request", "the request target holds a control character", null, null);
        }
        List<String> hosts = head.headers().getAll(HttpHeaderNames.HOST);
        if (hosts.size() > 1 || (hosts.isEmpty() && version.minorVersion() == 1)) {
            // RFC 9112 section 3.2 makes this a MUST: which authority the request meant cannot be known.
            return new Refusal(400, "malformed-request", "an HTTP/1.1 request carries exactly one Host header",
                    method, uri);
        }
        if (hosts.size() == 1 && !HostHeader.wellFormed(hosts.get(0))) {
            return new Refusal(400, "malformed-request", "the Host header is not a host and an optional port",
                    method, uri);
        }
        if (head.headers().getAll(HttpHeaderNames.AUTHORIZATION).size() > 1) {
            // One credential per request (RFC 9110 section 11.6.2); with two, which one counts is a guess.
            return new Refusal(400, "malformed-request", "a request carries at most one Authorization header",
                    method, uri);
        }
        Refusal coding = codingRefusal(head, method, uri);
        if (coding != null) {
            return coding;
        }
        String expect = head.headers().get(HttpHeaderNames.EXPECT);
        if (version.minorVersion() == 1 && expect != null && !expect.equalsIgnoreCase("100-continue")) {
            return new Refusal(417, "expectation-failed", "the only expectation this server meets is 100-continue",
                    method, uri);
        }
        if (HttpUtil.getContentLength(head, -1L) > maxBodyBytes) {
            return new Refusal(413, "body-too-large", "the body is over " + maxBodyBytes + " bytes", method, uri);
        }
        return null;
    }

    /**
     * The refusal for the request's transfer codings, or null when it has none or only {@code chunked}, once: a
     * coding the server does not implement ({@code gzip}, {@code identity}, {@code x-chunked}, a quoted
     * {@code "chunked"}) is a {@code 501}, and {@code chunked} applied twice a {@code 400} (RFC 9112 section 7:
     * a sender must not, and the body's end could not be found).
     */
    private static Refusal codingRefusal(HttpRequest head, String method, String uri) {
        List<String> fields = head.headers().getAll(HttpHeaderNames.TRANSFER_ENCODING);
        if (fields.isEmpty()) {
            return null;
        }
        int chunked = 0;
        boolean other = false;
        for (String field : fields) {
            for (String coding : field.split(",", -1)) {
                String name = coding.strip().toLowerCase(Locale.ROOT);
                if (name.isEmpty()) {
                    continue; // an empty list element, which RFC 9110 section 5.6.1 says to ignore
                }
                if (name.equals("chunked")) {
                    chunked++;
                } else {
                    other = true;
                }
            }
        }
        if (other) {
            return new Refusal(501, "unsupported-transfer-encoding",
                    "the only transfer coding this server reads is chunked, alone", method, uri);
        }
        if (chunked != 1) {
            return new Refusal(400, "malformed-request", "chunked is applied once, last", method, uri);
        }
        return null;
    }

    /** True when every character is visible ASCII or above it: no control character, space or DEL. */
    private static boolean visibleAscii(String target) {
        for (int i = 0; i < target.length(); i++) {
            char c = target.charAt(i);
            if (c <= 0x20 || c == 0x7F) {
                return false;
            }
        }
        return true;
    }
}
