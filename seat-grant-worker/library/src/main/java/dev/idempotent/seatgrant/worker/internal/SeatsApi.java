package dev.idempotent.seatgrant.worker.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idempotent.seatgrant.worker.SeatRequested;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;

/**
 * One {@code POST /v1/seats} exchange over {@code java.net.http}, and nothing else: no retry, no
 * classification, no sleeping. Thread-safe; share one per worker.
 *
 * <p>The JDK client is built with HTTP/1.1 (the seat API is plain HTTP/1.1; an h2c upgrade attempt would only
 * add a failure mode) and never follows redirects. Leave {@code jdk.httpclient.enableAllMethodRetry} unset:
 * with it, the JDK resends a POST by itself on a dropped connection, invisible to the classifier, the
 * attempt count and the events.
 */
public final class SeatsApi {

    static final String SEATS_PATH = "v1/seats";

    private final HttpClient client;
    private final URI seatsUri;
    private final ObjectMapper json;

    /**
     * An API bound to one seat service; the seats URI is resolved once, here.
     *
     * @param client  the JDK client to send with
     * @param baseUri the API root; {@code v1/seats} is resolved under it
     */
    public SeatsApi(HttpClient client, URI baseUri) {
        this.client = Objects.requireNonNull(client, "client");
        this.seatsUri = seatsUri(baseUri);
        this.json = new ObjectMapper();
    }

    /** {@code v1/seats} under the base URI's path; a query on the base URI (say, a tenant token) is kept. */
    static URI seatsUri(URI baseUri) {
        String path = baseUri.getRawPath() == null || baseUri.getRawPath().isEmpty() ? "/" : baseUri.getRawPath();
        String joined = (path.endsWith("/") ? path : path + "/") + SEATS_PATH;
        String query = baseUri.getRawQuery() == null ? "" : "?" + baseUri.getRawQuery();
        return URI.create(baseUri.getScheme() + "://" + baseUri.getRawAuthority() + joined + query);
    }

    /** A client fit for {@link SeatsApi}: HTTP/1.1, no redirects, the given connect timeout. */
    public static HttpClient newClient(Duration connectTimeout) {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(connectTimeout)
                .build();
    }

    /**
     * Builds the request for {@code event} once: the key is the requestId and the body is fixed, so every
     * attempt for this event is byte-for-byte the same operation.
     */
    public PreparedGrant prepare(SeatRequested event) {
        ObjectNode body = json.createObjectNode()
                .put("workspaceId", event.workspaceId())
                .put("userId", event.userId())
                .put("role", "member");
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
     * @param timeout the budget for this attempt, from send to the last body byte
     * @return the answer, whatever its status
     * @throws IOException          when no complete answer arrived (refused, reset, EOF, timeout)
     * @throws InterruptedException if the calling thread is interrupted
     */
    public Exchange send(PreparedGrant grant, Duration timeout) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(seatsUri)
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .header("Idempotency-Key", grant.idempotencyKey())
                .POST(HttpRequest.BodyPublishers.ofByteArray(grant.body()))
                .build();
        HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        return new Exchange(
                response.statusCode(),
                response.headers().firstValue("Content-Type"),
                response.headers().firstValue("Retry-After"),
                response.headers().firstValue("Idempotent-Replayed").map(v -> v.trim().equalsIgnoreCase("true")).orElse(false),
                response.body());
    }
}
