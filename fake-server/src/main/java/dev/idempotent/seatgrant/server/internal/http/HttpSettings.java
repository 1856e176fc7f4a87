package dev.idempotent.seatgrant.server.internal.http;

import java.time.Duration;

/**
 * The HTTP engine's own settings, apart from what the request handlers share through the server core.
 *
 * @param basePath       the prefix the seat API is served under ({@code ""} for the root); never logged
 * @param headerTimeout  how long a request's head may take from its first byte; then 408 and close
 * @param bodyTimeout    how long a request's body may take after its head; then 408 and close
 * @param idleTimeout    how long a kept-alive connection may sit with no request, or a response may take to
 *                       write; then close
 * @param maxConnections open connections beyond this are accepted and closed at once
 */
public record HttpSettings(String basePath, Duration headerTimeout, Duration bodyTimeout, Duration idleTimeout,
                           int maxConnections) {

    public HttpSettings {
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections must be at least 1");
        }
    }

    /** The root base path and the given limits. */
    static HttpSettings defaults() {
        return new HttpSettings("", Duration.ofSeconds(10), Duration.ofSeconds(30), Duration.ofSeconds(60), 10_000);
    }

    /**
     * The seat-API path this request path names once the base path is taken off ({@code /v1/seats}), or null when
     * the path lies outside the base path.
     */
    String apiPath(String path) {
        if (basePath.isEmpty()) {
            return path;
        }
        if (path.equals(basePath)) {
            return "/";
        }
        if (path.startsWith(basePath) && path.charAt(basePath.length()) == '/') {
            return path.substring(basePath.length());
        }
        return null;
    }
}
