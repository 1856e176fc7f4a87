package dev.idempotent.seatgrant.worker.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idempotent.seatgrant.worker.AttemptContext;
import dev.idempotent.seatgrant.worker.RequestCustomizer;
import dev.idempotent.seatgrant.worker.SeatRequested;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * One {@code POST /v1/seats} exchange over {@code java.net.http}, and nothing else: no retry, no
 * classification, no sleeping. Thread-safe; share one per worker.
 *
 * <p>The worker's own JDK client is built with HTTP/1.1 (the seat API is plain HTTP/1.1; an h2c upgrade attempt would only
 * add a failure mode) and never follows redirects. Leave {@code jdk.httpclient.enableAllMethodRetry} unset:
 * with it, the JDK resends a POST by itself on a dropped connection, invisible to the classifier, the
 * attempt count and the events.
 */
public final class SeatsApi {

    static final String SEATS_PATH = "v1/seats";

    private final HttpClient client;
    private final URI seatsUri;
    private final RequestCustomizer customizer;
    private final ObjectMapper json;

    /**
     * An API bound to one seat service; the seats URI is resolved once, here.
     *
     * @param client     the JDK client to send with
     * @param baseUri    the API root; {@code v1/seats} is resolved under it
     * @param customizer called on every attempt's request builder before the worker's own values are set
     */
    public SeatsApi(HttpClient client, URI baseUri, RequestCustomizer customizer) {
        this.client = Objects.requireNonNull(client, "client");
        this.seatsUri = seatsUri(baseUri);
        this.customizer = Objects.requireNonNull(customizer, "customizer");
        this.json = new ObjectMapper();
    }

    /**
     * An API with no request customizer.
     *
     * @param client  the JDK client to send with
     * @param baseUri the API root
     */
    public SeatsApi(HttpClient client, URI baseUri) {
        this(client, baseUri, (request, context) -> { });
    }

    /** {@code v1/seats} under the base URI's path; a query on the base URI (say, a tenant token) is kept. */
    static URI seatsUri(URI baseUri) {
        String path = baseUri.getRawPath() == null || baseUri.getRawPath().isEmpty() ? "/" : baseUri.getRawPath();
        String joined = (path.endsWith("/") ? path : path + "/") + SEATS_PATH;
        String query = baseUri.getRawQuery() == null ? "" : "?" + baseUri.getRawQuery();
        return URI.create(baseUri.getScheme() + "://" + baseUri.getRawAuthority() + joined + query);
    }

    /**
     * A client fit for {@link SeatsApi}: HTTP/1.1, no redirects, the given connect timeout.
     *
     * @param connectTimeout the TCP connect budget
     * @return a new client on the JDK's default executor
     */
    public static HttpClient newClient(Duration connectTimeout) {
        return newClient(connectTimeout, null);
    }

    /**
     * A client fit for {@link SeatsApi} that runs its callbacks on {@code executor}, so its owner can stop them.
     *
     * @param connectTimeout the TCP connect budget
     * @param executor       the client's executor; null for the JDK's default
     * @return a new client
     */
    public static HttpClient newClient(Duration connectTimeout, Executor executor) {
        HttpClient.Builder b = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(connectTimeout);
        if (executor != null) {
            b.executor(executor);
        }
        return b.build();
    }

    /**
     * Builds the request for {@code event} once: the key is the requestId and the body is fixed, so every
     * attempt for this event is byte-for-byte the same operation.
     *
     * @param event the event
     * @return the key and body for every attempt
     */
    public PreparedGrant prepare(SeatRequested event) {
        ObjectNode body = json.createObjectNode()
                .put("workspaceId", event.workspaceId())
                .put("userId", event.userId())
                .put("role", event.role());
        try {
            return new PreparedGrant(event.requestId(), json.writeValueAsBytes(body));
        } catch (JsonProcessingException e) {
            // Serialising three strings cannot fail; if it does, it is a bug, not a network condition.
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Sends one attempt and reads the whole answer.
     *
     * @param grant   the prepared request
     * @param attempt which POST of the call this is, from 1, for the customizer
     * @param timeout the budget for this attempt, from send to the last body byte
     * @return the answer, whatever its status
     * @throws IOException          when no complete answer arrived (refused, reset, EOF, timeout)
     * @throws InterruptedException if the calling thread is interrupted
     */
    public Exchange send(PreparedGrant grant, int attempt, Duration timeout) throws IOException, InterruptedException {
        return exchange(client.send(request(grant, attempt, timeout), BodyHandlers.ofString(StandardCharsets.UTF_8)));
    }

    /**
     * Starts one attempt without blocking; the same request as {@link #send(PreparedGrant, int, Duration)}.
     *
     * @param grant   the prepared request
     * @param attempt which POST of the call this is, from 1, for the customizer
     * @param timeout the budget for this attempt, from send to the last body byte
     * @return the answer, whatever its status, or a future failed with the transport's {@link IOException}
     *     (possibly wrapped in a {@link java.util.concurrent.CompletionException})
     */
    public CompletableFuture<Exchange> sendAsync(PreparedGrant grant, int attempt, Duration timeout) {
        return client.sendAsync(request(grant, attempt, timeout), BodyHandlers.ofString(StandardCharsets.UTF_8))
                .thenApply(SeatsApi::exchange);
    }

    /**
     * The request for one attempt. The caller's customizer runs first, told the grant and the attempt; then the
     * worker sets the URI, the method, the body, the timeout and its own headers with {@code setHeader}, which
     * replaces whatever the customizer put under those names, so no customizer can change the key, the content
     * type or the operation.
     */
    HttpRequest request(PreparedGrant grant, int attempt, Duration timeout) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(seatsUri);
        customizer.customize(builder, new AttemptContext(grant.idempotencyKey(), attempt));
        return builder
                .uri(seatsUri)
                .timeout(timeout)
                .setHeader("Content-Type", "application/json")
                .setHeader("Accept", "application/json")
                .setHeader("Idempotency-Key", grant.idempotencyKey())
                .POST(HttpRequest.BodyPublishers.ofByteArray(grant.body()))
                .build();
    }

    private static Exchange exchange(HttpResponse<String> response) {
        return new Exchange(
                response.statusCode(),
                response.headers().firstValue("Content-Type"),
                response.headers().firstValue("Retry-After"),
                response.headers().firstValue("Idempotent-Replayed").map(v -> v.trim().equalsIgnoreCase("true")).orElse(false),
                response.body());
    }
}
