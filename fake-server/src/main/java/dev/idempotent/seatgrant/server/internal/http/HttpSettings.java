package dev.idempotent.seatgrant.server.internal.http;

/**
 * The HTTP engine's own settings, apart from what the request handlers share through the server core.
 *
 * @param basePath the prefix the seat API is served under ({@code ""} for the root); never logged
 */
public record HttpSettings(String basePath) {

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
