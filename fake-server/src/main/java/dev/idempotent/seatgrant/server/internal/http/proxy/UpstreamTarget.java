package dev.idempotent.seatgrant.server.internal.http.proxy;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The one service a proxy forwards to, fixed at start and resolved once.
 *
 * @param address       where to connect, resolved
 * @param hostHeader    the {@code Host} every forwarded request carries: the upstream's authority, without userinfo
 * @param basePath      the upstream URL's path, prefixed to every forwarded target; empty for none
 * @param authorization nullable: {@code Basic ...} from the URL's userinfo, for requests that carry no
 *                      {@code Authorization} of their own; never logged
 * @param display       {@code http://host:port[/base]}: the upstream as a log line or the startup line may show it,
 *                      without userinfo or query
 */
public record UpstreamTarget(InetSocketAddress address, String hostHeader, String basePath, String authorization,
                             String display) {

    @Override
    public String toString() {
        return "UpstreamTarget[" + display + "]";
    }

    /**
     * Resolves {@code upstream}, an {@code http://} URL with a host, an optional port, path and userinfo, and no
     * query or fragment (a checked {@code ProxyConfig} holds one).
     *
     * @throws IllegalArgumentException when its host cannot be resolved; the message names the host only
     */
    public static UpstreamTarget resolve(URI upstream) {
        String host = upstream.getHost();
        int port = upstream.getPort() < 0 ? 80 : upstream.getPort();
        InetSocketAddress address = new InetSocketAddress(host, port);
        if (address.isUnresolved()) {
            throw new IllegalArgumentException("cannot resolve the upstream's host " + host);
        }
        String path = upstream.getRawPath() == null ? "" : upstream.getRawPath();
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        String authority = host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
        String hostHeader = port == 80 ? authority : authority + ":" + port;
        String authorization = null;
        if (upstream.getRawUserInfo() != null) {
            String userInfo = URLDecoder.decode(upstream.getRawUserInfo().replace("+", "%2B"), StandardCharsets.UTF_8);
            authorization = "Basic " + Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8));
        }
        return new UpstreamTarget(address, hostHeader, path, authorization,
                "http://" + authority + ":" + port + path);
    }
}
