package dev.idempotent.seatgrant.server.internal.http.admin;

import dev.idempotent.seatgrant.server.internal.http.Exchange;
import dev.idempotent.seatgrant.server.internal.http.Problems;
import dev.idempotent.seatgrant.server.internal.http.Reply;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;

/**
 * Who may use the admin API: with a token, whoever presents it as a bearer token; without one, loopback clients
 * only. Immutable and thread-safe.
 */
final class AdminAccess {

    /** Nullable: no token. */
    private final String token;

    AdminAccess(String token) {
        this.token = token;
    }

    /** The refusal for this request, or empty when it may use the admin API. */
    Optional<Reply> denied(Exchange exchange) {
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
