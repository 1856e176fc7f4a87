package dev.idempotent.seatgrant.server.internal.http.admin;

import dev.idempotent.seatgrant.server.internal.http.Exchange;
import dev.idempotent.seatgrant.server.internal.http.HostHeader;
import dev.idempotent.seatgrant.server.internal.http.JsonMediaType;
import dev.idempotent.seatgrant.server.internal.http.Problems;
import dev.idempotent.seatgrant.server.internal.http.Reply;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpUtil;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Who may use the admin API, and how, checked in this order:
 *
 * <ol>
 *   <li><b>The name it was reached by</b>: the {@code Host} must be one of the server's own names
 *       ({@code localhost}, {@code 127.0.0.1}, {@code [::1]}, the host it is bound to) with the port it listens on,
 *       or a name the user allowed ({@code --allowed-host}, on any port). A web page on another site that gets its
 *       own name to resolve to this machine (DNS rebinding) sends its own name, and is refused: {@code 403}
 *       {@code admin-host-not-allowed}. This holds for the page's assets too.</li>
 *   <li><b>Who is asking</b>: with a token, whoever presents it as a bearer token ({@code 401} otherwise);
 *       without one, loopback clients only ({@code 403} {@code admin-loopback-only}). The page's assets hold no
 *       data and skip this.</li>
 *   <li><b>From which page</b>: a request that changes something (any method but GET, HEAD, OPTIONS and TRACE)
 *       and carries an {@code Origin} must come from this server's own origin, the one its {@code Host} names:
 *       a page on another site can send a "simple" cross-origin POST without asking first, and its browser says
 *       so in {@code Origin} ({@code 403} {@code admin-origin-not-allowed}). Clients that are not browsers send
 *       no {@code Origin}.</li>
 *   <li><b>What it sends</b>: a body, or a {@code Content-Type}, that is not {@code application/json} is a
 *       {@code 415}: the media types a cross-origin form or {@code fetch} may send without asking first
 *       ({@code text/plain}, forms) are never admin requests.</li>
 * </ol>
 *
 * <p>Immutable and thread-safe. The same rules stand in front of any API the admin routes serve.
 */
public final class AdminAccess {

    private static final List<String> LOOPBACK_NAMES = List.of("localhost", "127.0.0.1", "[::1]");
    private static final Set<HttpMethod> SAFE = Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.OPTIONS,
            HttpMethod.TRACE);

    /** Nullable: no token. */
    private final String token;
    /** The server's own names, valid with the port it listens on. */
    private final Set<String> ownNames;
    /** The names the user allowed, valid on any port. */
    private final Set<String> allowedNames;

    /**
     * @param token        the admin bearer token; nullable: loopback clients only
     * @param boundHost    the host the server is bound to, as configured ({@code 127.0.0.1}, {@code ::1},
     *                     {@code myhost})
     * @param allowedHosts further names a client may reach the admin API by, on any port
     *                     ({@link #hostName(String)} form)
     */
    public AdminAccess(String token, String boundHost, Collection<String> allowedHosts) {
        this.token = token;
        Set<String> own = new java.util.HashSet<>(LOOPBACK_NAMES);
        try {
            own.add(hostName(boundHost));
        } catch (IllegalArgumentException e) {
            // A bound address no Host header can spell (an IPv6 address with a zone): the other names remain.
        }
        this.ownNames = Set.copyOf(own);
        this.allowedNames = allowedHosts.stream().map(AdminAccess::hostName).collect(Collectors.toUnmodifiableSet());
    }

    /**
     * A host as a {@code Host} header names it: lower case, an IPv6 address in brackets.
     *
     * @throws IllegalArgumentException when {@code host} is not a host name or address, or carries a port
     */
    public static String hostName(String host) {
        // Two colons or more make an IPv6 address, written bare as --host takes it; one makes a name and a port.
        boolean ipv6 = !host.startsWith("[") && host.indexOf(':') != host.lastIndexOf(':');
        String bracketed = ipv6 ? "[" + host + "]" : host;
        HostHeader parsed = HostHeader.parse(bracketed).orElseThrow(() -> new IllegalArgumentException(
                "not a host name or address: give a name such as fake-server, or an address"));
        if (parsed.port() >= 0 || bracketed.endsWith(":")) {
            throw new IllegalArgumentException("give the name without a port: it is allowed on any port");
        }
        return parsed.host().toLowerCase(Locale.ROOT);
    }

    /**
     * The refusal for this admin request, or empty when it may go on.
     *
     * @param pageAsset true for the incident page's own files, which hold no data: only the name is checked
     */
    Optional<Reply> refusal(Exchange exchange, boolean pageAsset) {
        HttpHeaders headers = exchange.request().headers();
        Optional<HostHeader> host = HostHeader.parse(authority(exchange.request().uri(), headers));
        if (host.isEmpty() || !allowed(host.get(), exchange)) {
            return Optional.of(Problems.problem(403, "admin-host-not-allowed",
                    "the admin API answers only requests addressed to this server by one of its own names "
                            + "(localhost, 127.0.0.1, [::1] or the host it is bound to, with its port), or by a name "
                            + "the server was started with --allowed-host NAME for"));
        }
        if (pageAsset) {
            return Optional.empty();
        }
        Optional<Reply> who = who(exchange);
        if (who.isPresent()) {
            return who;
        }
        if (!SAFE.contains(exchange.request().method()) && !sameOrigin(headers, host.get())) {
            return Optional.of(Problems.problem(403, "admin-origin-not-allowed",
                    "a page on another origin may not change this server; send this request from the server's own "
                            + "page, or from a client that is not a browser"));
        }
        String contentType = headers.get(HttpHeaderNames.CONTENT_TYPE);
        boolean hasBody = exchange.request().content().isReadable() || HttpUtil.isTransferEncodingChunked(
                exchange.request());
        if ((contentType != null || hasBody) && JsonMediaType.problem(contentType).isPresent()) {
            return Optional.of(Problems.problem(415, "unsupported-media-type",
                    "an admin request's body is application/json"));
        }
        return Optional.empty();
    }

    /**
     * The name the client reached the server by: the target's authority when the target is in absolute form
     * ({@code GET http://host:port/__admin/health}), which RFC 9112 section 3.2.2 says a server uses instead of
     * {@code Host}; otherwise {@code Host}. Null when there is neither.
     */
    private static String authority(String target, HttpHeaders headers) {
        int scheme = target.indexOf("://");
        if (!target.startsWith("/") && scheme > 0) {
            int end = scheme + 3;
            while (end < target.length() && "/?#".indexOf(target.charAt(end)) < 0) {
                end++;
            }
            return target.substring(scheme + 3, end);
        }
        return headers.get(HttpHeaderNames.HOST);
    }

    private boolean allowed(HostHeader host, Exchange exchange) {
        if (allowedNames.contains(host.host())) {
            return true;
        }
        int port = host.port() < 0 ? 80 : host.port();
        return ownNames.contains(host.host()) && exchange.localAddress() instanceof InetSocketAddress local
                && local.getPort() == port;
    }

    /** With a token, whoever presents it; without one, loopback clients only. */
    private Optional<Reply> who(Exchange exchange) {
        if (token != null) {
            if (!bearerMatches(exchange.request().headers().get(HttpHeaderNames.AUTHORIZATION), token)) {
                return Optional.of(Problems.problem(401, "unauthorized", "the admin API needs the bearer token")
                        .withHeader(HttpHeaderNames.WWW_AUTHENTICATE, "Bearer"));
            }
            return Optional.empty();
        }
        if (exchange.remoteAddress() instanceof InetSocketAddress remote
                && remote.getAddress() != null && remote.getAddress().isLoopbackAddress()) {
            return Optional.empty();
        }
        return Optional.of(Problems.problem(403, "admin-loopback-only",
                "the admin API answers loopback clients unless the server has an admin token"));
    }

    /**
     * True when the request carries no {@code Origin} (it is not from a browser's page), or exactly one naming the
     * origin its {@code Host} names: the same host, and the same port once each side's default is filled in.
     * {@code Origin: null} (a sandboxed frame, a file) is no origin of this server's.
     */
    private static boolean sameOrigin(HttpHeaders headers, HostHeader host) {
        List<String> origins = headers.getAll(HttpHeaderNames.ORIGIN);
        if (origins.isEmpty()) {
            return true;
        }
        if (origins.size() > 1) {
            return false;
        }
        URI origin;
        try {
            origin = new URI(origins.get(0));
        } catch (URISyntaxException e) {
            return false;
        }
        String scheme = origin.getScheme() == null ? "" : origin.getScheme().toLowerCase(Locale.ROOT);
        int defaultPort = switch (scheme) {
            case "http" -> 80;
            case "https" -> 443;
            default -> -1;
        };
        if (defaultPort < 0 || origin.getHost() == null || origin.getRawPath() != null && !origin.getRawPath().isEmpty()
                || origin.getRawQuery() != null || origin.getRawUserInfo() != null) {
            return false;
        }
        int originPort = origin.getPort() < 0 ? defaultPort : origin.getPort();
        int hostPort = host.port() < 0 ? defaultPort : host.port();
        return origin.getHost().toLowerCase(Locale.ROOT).equals(host.host()) && originPort == hostPort;
    }

    /**
     * True when {@code header} is {@code Bearer <token>}: the scheme in any case (RFC 9110 makes it
     * case-insensitive), one or more spaces, then exactly the token, compared in constant time so the token does
     * not leak through response timing.
     */
    static boolean bearerMatches(String header, String token) {
        if (header == null) {
            return false;
        }
        int space = header.indexOf(' ');
        if (space < 0 || !header.substring(0, space).equalsIgnoreCase("Bearer")) {
            return false;
        }
        String given = header.substring(space).stripLeading();
        return MessageDigest.isEqual(token.getBytes(StandardCharsets.UTF_8), given.getBytes(StandardCharsets.UTF_8));
    }
}
