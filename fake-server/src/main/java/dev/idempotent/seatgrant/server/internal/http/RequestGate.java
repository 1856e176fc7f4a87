package dev.idempotent.seatgrant.server.internal.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
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
 * header section over the codec's limits), an HTTP version other than 1.0 or 1.1 ({@code 505}), a request
 * with no {@code Host} (HTTP/1.1) or with two ({@code 400}), a
 * {@code Transfer-Encoding} other than exactly {@code chunked} ({@code 501}: Netty would read
 * {@code gzip, chunked} as plain chunked), an expectation other than {@code 100-continue} ({@code 417}) and a
 * declared body over the limit ({@code 413}). A refusal replaces the request in the pipeline, so it is answered
 * in order; everything after it on the connection is dropped, and the connection closes after the answer.
 *
 * <p>It also tells the {@link ConnectionGuard} and the {@link FirstByteClock} when a head and a body are complete.
 * One per connection.
 */
final class RequestGate extends ChannelInboundHandlerAdapter {

    private final ConnectionGuard guard;
    private final FirstByteClock firstBytes;
    private final int maxBodyBytes;
    private boolean discarding;

    RequestGate(ConnectionGuard guard, FirstByteClock firstBytes, int maxBodyBytes) {
        this.guard = guard;
        this.firstBytes = firstBytes;
        this.maxBodyBytes = maxBodyBytes;
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
            if (refusal != null) {
                discarding = true;
                ReferenceCountUtil.release(msg);
                guard.bodyComplete();
                firstBytes.requestEnded();
                ctx.fireChannelRead(refusal);
                return;
            }
        }
        if (msg instanceof LastHttpContent) {
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
            return new Refusal(400, "malformed-request", "the request is not valid HTTP/1.1", null, null);
        }
        String method = head.method().name();
        String uri = head.uri();
        HttpVersion version = head.protocolVersion();
        if (!version.protocolName().equals("HTTP") || version.majorVersion() != 1 || version.minorVersion() > 1) {
            return new Refusal(505, "http-version-not-supported", "this server speaks HTTP/1.1 and HTTP/1.0",
                    method, uri);
        }
        int hosts = head.headers().getAll(HttpHeaderNames.HOST).size();
        if (hosts > 1 || (hosts == 0 && version.minorVersion() == 1)) {
            // RFC 9112 section 3.2 makes this a MUST: which authority the request meant cannot be known.
            return new Refusal(400, "malformed-request", "an HTTP/1.1 request carries exactly one Host header",
                    method, uri);
        }
        List<String> codings = head.headers().getAll(HttpHeaderNames.TRANSFER_ENCODING);
        if (!codings.isEmpty()) {
            String all = String.join(",", codings).strip().toLowerCase(Locale.ROOT);
            if (!all.equals("chunked")) {
                return new Refusal(501, "unsupported-transfer-encoding",
                        "the only transfer coding this server reads is chunked, alone", method, uri);
            }
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
}
