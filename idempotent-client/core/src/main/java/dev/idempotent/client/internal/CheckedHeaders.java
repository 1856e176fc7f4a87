package dev.idempotent.client.internal;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Objects;

/**
 * The request builder a customizer is handed: the JDK's, with every header value checked first. The JDK refuses a
 * value with a line break too, but quotes it in its message, and a bearer token read with a trailing newline would
 * then reach an exception message and a log line. Here the refusal names the header, never its value, and has no
 * cause. Not thread-safe, like the builder it wraps.
 */
final class CheckedHeaders implements HttpRequest.Builder {

    private final HttpRequest.Builder builder;

    CheckedHeaders(HttpRequest.Builder builder) {
        this.builder = builder;
    }

    /**
     * Refuses a value HTTP cannot carry: anything but visible ASCII, spaces, tabs and bytes above 0x7F.
     *
     * @param name  the header's name, which the message names
     * @param value its value, which the message never holds
     * @throws IllegalArgumentException {@code invalid value for header NAME}, without a cause
     */
    static void check(String name, String value) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c != '\t' && (c < 0x20 || c == 0x7F || c > 0xFF)) {
                throw new IllegalArgumentException("invalid value for header " + name);
            }
        }
    }

    @Override
    public HttpRequest.Builder header(String name, String value) {
        check(name, value);
        builder.header(name, value);
        return this;
    }

    @Override
    public HttpRequest.Builder setHeader(String name, String value) {
        check(name, value);
        builder.setHeader(name, value);
        return this;
    }

    @Override
    public HttpRequest.Builder headers(String... headers) {
        if (headers.length % 2 != 0) {
            throw new IllegalArgumentException("headers must be name and value pairs");
        }
        // All checked before any is set, as the JDK's own builder does.
        for (int i = 0; i < headers.length; i += 2) {
            check(headers[i], headers[i + 1]);
        }
        builder.headers(headers);
        return this;
    }

    @Override
    public HttpRequest.Builder uri(URI uri) {
        builder.uri(uri);
        return this;
    }

    @Override
    public HttpRequest.Builder expectContinue(boolean enable) {
        builder.expectContinue(enable);
        return this;
    }

    @Override
    public HttpRequest.Builder version(HttpClient.Version version) {
        builder.version(version);
        return this;
    }

    @Override
    public HttpRequest.Builder timeout(Duration duration) {
        builder.timeout(duration);
        return this;
    }

    @Override
    public HttpRequest.Builder GET() {
        builder.GET();
        return this;
    }

    @Override
    public HttpRequest.Builder POST(HttpRequest.BodyPublisher bodyPublisher) {
        builder.POST(bodyPublisher);
        return this;
    }

    @Override
    public HttpRequest.Builder PUT(HttpRequest.BodyPublisher bodyPublisher) {
        builder.PUT(bodyPublisher);
        return this;
    }

    @Override
    public HttpRequest.Builder DELETE() {
        builder.DELETE();
        return this;
    }

    @Override
    public HttpRequest.Builder method(String method, HttpRequest.BodyPublisher bodyPublisher) {
        builder.method(method, bodyPublisher);
        return this;
    }

    @Override
    public HttpRequest build() {
        return builder.build();
    }

    @Override
    public HttpRequest.Builder copy() {
        return new CheckedHeaders(builder.copy());
    }
}
