package dev.idempotent.seatgrant.server.internal.http.proxy;

import dev.idempotent.seatgrant.server.internal.http.Reply;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * How a request is forwarded and its answer handed back (RFC 9110 section 7.6): the hop-by-hop headers (those
 * {@code Connection} names, and the ones that only ever mean something for one connection) stay on their hop;
 * the upstream gets its own {@code Host}, a {@code Forwarded} element (RFC 7239) and a {@code Via}; the body is
 * whole, so it goes with a {@code Content-Length}. Immutable.
 */
final class Forwarding {

    static final String VIA = "1.1 fake-server";

    /** RFC 9110 section 7.6.1 names these; a proxy that forwarded them would speak for a connection it is not. */
    private static final Set<String> HOP_BY_HOP = Set.of("connection", "keep-alive", "proxy-connection", "te",
            "transfer-encoding", "upgrade", "trailer", "proxy-authenticate", "proxy-authorization");

    private final UpstreamTarget upstream;

    Forwarding(UpstreamTarget upstream) {
        this.upstream = upstream;
    }

    /**
     * The request to send upstream for {@code in}, to {@code target} (its origin form), from {@code client}. Its
     * body is a retained view of {@code in}'s, so {@code in} may be released once this is handed over.
     */
    FullHttpRequest outbound(FullHttpRequest in, String target, SocketAddress client) {
        HttpHeaders headers = new DefaultHttpHeaders();
        Set<String> named = connectionNamed(in.headers());
        String clientHost = in.headers().get(HttpHeaderNames.HOST);
        for (Map.Entry<String, String> header : in.headers()) {
            String name = header.getKey().toLowerCase(Locale.ROOT);
            if (HOP_BY_HOP.contains(name) || named.contains(name) || name.equals("host")
                    || name.equals("content-length") || name.equals("expect")) {
                // Expect: the proxy met a 100-continue itself, and the body is here.
                continue;
            }
            headers.add(header.getKey(), header.getValue());
        }
        headers.set(HttpHeaderNames.HOST, upstream.hostHeader());
        append(headers, "Forwarded", forwardedElement(client, clientHost));
        append(headers, HttpHeaderNames.VIA.toString(), VIA);
        if (upstream.authorization() != null && !headers.contains(HttpHeaderNames.AUTHORIZATION)) {
            headers.set(HttpHeaderNames.AUTHORIZATION, upstream.authorization());
        }
        int length = in.content().readableBytes();
        if (length > 0 || in.headers().contains(HttpHeaderNames.CONTENT_LENGTH)
                || in.headers().contains(HttpHeaderNames.TRANSFER_ENCODING)) {
            headers.setInt(HttpHeaderNames.CONTENT_LENGTH, length);
        }
        return new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, in.method(), upstream.basePath() + target,
                in.content().retainedDuplicate(), headers, new DefaultHttpHeaders());
    }

    /**
     * The upstream's answer as the client gets it: its status, its end-to-end headers and its body, with a length
     * of its own. An answer to {@code HEAD} keeps the upstream's {@code Content-Length}: it is the length of the
     * body a GET would get.
     */
    static Reply reply(UpstreamResult.Answer answer, HttpMethod method) {
        HttpHeaders headers = new DefaultHttpHeaders();
        Set<String> named = connectionNamed(answer.headers());
        boolean head = method.equals(HttpMethod.HEAD);
        for (Map.Entry<String, String> header : answer.headers()) {
            String name = header.getKey().toLowerCase(Locale.ROOT);
            if (HOP_BY_HOP.contains(name) || named.contains(name) || (name.equals("content-length") && !head)) {
                continue;
            }
            headers.add(header.getKey(), header.getValue());
        }
        return new Reply(answer.status(), headers, answer.body(), null, false, null);
    }

    /** The headers a {@code Connection} header names: hop-by-hop too (RFC 9110 section 7.6.1). */
    private static Set<String> connectionNamed(HttpHeaders headers) {
        Set<String> named = new HashSet<>();
        for (String value : headers.getAll(HttpHeaderNames.CONNECTION)) {
            for (String token : value.split(",")) {
                String name = token.strip().toLowerCase(Locale.ROOT);
                if (!name.isEmpty()) {
                    named.add(name);
                }
            }
        }
        return named;
    }

    /** {@code for=...;host=...;proto=http}: who asked, and what they asked for (RFC 7239). */
    static String forwardedElement(SocketAddress client, String clientHost) {
        StringBuilder element = new StringBuilder();
        if (client instanceof InetSocketAddress inet && inet.getAddress() != null) {
            String address = inet.getAddress().getHostAddress();
            element.append("for=").append(inet.getAddress() instanceof Inet6Address
                    ? "\"[" + address.replaceFirst("%.*$", "") + "]\"" : address).append(';');
        }
        if (clientHost != null && !clientHost.isEmpty()) {
            element.append("host=").append(quoted(clientHost)).append(';');
        }
        return element.append("proto=http").toString();
    }

    private static String quoted(String value) {
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\');
            }
            out.append(c);
        }
        return out.append('"').toString();
    }

    private static void append(HttpHeaders headers, String name, String element) {
        String existing = String.join(", ", headers.getAll(name)).strip();
        headers.set(name, existing.isEmpty() ? element : existing + ", " + element);
    }
}
