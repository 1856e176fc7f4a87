package dev.idempotent.seatgrant.worker.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idempotent.client.IdempotentRequest;
import dev.idempotent.seatgrant.worker.SeatRequested;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Objects;

/**
 * The seat API's shapes, and nothing else: where {@code POST /v1/seats} lives under a base URI and what a
 * {@link SeatRequested} looks like as a request. The exchange itself, the key, the retries and the classification
 * are {@code idempotent-client}'s. Thread-safe.
 */
public final class SeatsApi {

    static final String SEATS_PATH = "v1/seats";

    private final URI seatsUri;
    private final ObjectMapper json = new ObjectMapper();

    /**
     * An API bound to one seat service; the seats URI is resolved once, here.
     *
     * @param baseUri the API root; {@code v1/seats} is resolved under it
     */
    public SeatsApi(URI baseUri) {
        this.seatsUri = seatsUri(Objects.requireNonNull(baseUri, "baseUri"));
    }

    /** {@code v1/seats} under the base URI's path; a query on the base URI (say, a tenant token) is kept. */
    static URI seatsUri(URI baseUri) {
        String path = baseUri.getRawPath() == null || baseUri.getRawPath().isEmpty() ? "/" : baseUri.getRawPath();
        String joined = (path.endsWith("/") ? path : path + "/") + SEATS_PATH;
        String query = baseUri.getRawQuery() == null ? "" : "?" + baseUri.getRawQuery();
        return URI.create(baseUri.getScheme() + "://" + baseUri.getRawAuthority() + joined + query);
    }

    /**
     * A client fit for the seat API: HTTP/1.1, no redirects, the given connect timeout.
     *
     * @param connectTimeout the TCP connect budget
     * @return a new client on the JDK's default executor
     */
    public static HttpClient newClient(Duration connectTimeout) {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(connectTimeout)
                .build();
    }

    /**
     * Builds the request for {@code event} once: the key is the requestId and the body is fixed, so every attempt for
     * this event is byte-for-byte the same operation.
     *
     * @param event the event
     * @return the request every attempt sends
     */
    public IdempotentRequest prepare(SeatRequested event) {
        ObjectNode body = json.createObjectNode()
                .put("workspaceId", event.workspaceId())
                .put("userId", event.userId())
                .put("role", event.role());
        try {
            return IdempotentRequest.post(seatsUri, event.requestId())
                    .body("application/json", json.writeValueAsBytes(body))
                    .header("Accept", "application/json")
                    .build();
        } catch (JsonProcessingException e) {
            // Serialising three strings cannot fail; if it does, it is a bug, not a network condition.
            throw new UncheckedIOException(e);
        }
    }
}
