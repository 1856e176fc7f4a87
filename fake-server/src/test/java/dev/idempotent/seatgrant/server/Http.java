package dev.idempotent.seatgrant.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/** A real java.net.http client against a running server, with the few calls the tests repeat. */
final class Http {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String BODY = "{\"workspaceId\":\"ws_1\",\"userId\":\"user_1\",\"role\":\"member\"}";

    private final HttpClient client;
    private final URI base;

    Http(URI base) {
        this.base = base;
        this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    Http(FakeSeatServer server) {
        this(server.baseUri());
    }

    HttpClient client() {
        return client;
    }

    URI uri(String path) {
        return base.resolve(path);
    }

    HttpRequest.Builder postSeat(String key, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri("/v1/seats"))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (key != null) {
            b.header("Idempotency-Key", key);
        }
        return b;
    }

    /** POST {@code path} with a JSON body and, when not null, an Idempotency-Key: an order through a proxy. */
    HttpResponse<String> postJson(String path, String body, String key) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** POST /v1/seats; throws the client's IOException (reset, EOF, timeout) as is. */
    HttpResponse<String> grant(String key, String body) throws IOException, InterruptedException {
        return client.send(postSeat(key, body).build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> send(HttpRequest request) {
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(10)).GET().build());
    }

    JsonNode getJson(String path) {
        return json(get(path).body());
    }

    /** Waits, at most 30 s each, for requests sent at once, and returns their responses in sending order. */
    static List<HttpResponse<String>> awaitAll(List<CompletableFuture<HttpResponse<String>>> inFlight)
            throws Exception {
        List<HttpResponse<String>> responses = new ArrayList<>();
        for (CompletableFuture<HttpResponse<String>> f : inFlight) {
            responses.add(f.get(30, TimeUnit.SECONDS));
        }
        return responses;
    }

    /** How many responses carried each status. */
    static Map<Integer, Long> countByStatus(List<HttpResponse<String>> responses) {
        return responses.stream().collect(Collectors.groupingBy(HttpResponse::statusCode, Collectors.counting()));
    }

    static JsonNode json(String body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
