package dev.idempotent.seatgrant.server.junit;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** One real POST /v1/seats over java.net.http, as the extension's tests send them. */
final class Grants {

    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private Grants() {
    }

    /**
     * Asks for a seat for {@code userId} in {@code workspaceId}.
     *
     * @param key the Idempotency-Key; nullable (keyless)
     * @throws IOException as the client saw it: a reset, a closed connection
     */
    static HttpResponse<String> post(URI baseUri, String key, String workspaceId, String userId)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(baseUri.resolve("/v1/seats"))
                .timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"workspaceId\":\"" + workspaceId
                        + "\",\"userId\":\"" + userId + "\",\"role\":\"member\"}"));
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
        return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
