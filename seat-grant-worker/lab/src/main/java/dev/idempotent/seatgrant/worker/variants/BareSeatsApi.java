package dev.idempotent.seatgrant.worker.variants;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.idempotent.seatgrant.worker.SeatRequested;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The seat API as the agent-written variants call it: one exchange per call, no timeout, no policy, exactly as
 * bare as the fixture's {@code postGrant}. Shared so each variant shows only its own mistake.
 */
final class BareSeatsApi {

    /** A response the variants read: the status and the raw body. */
    record Response(int status, String body) {
        boolean ok() {
            return status >= 200 && status < 300;
        }
    }

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    // Appended, not resolved: "/v1/seats" resolved against http://host/t/tok_x would drop the base's path.
    private final String seatsUrl;

    BareSeatsApi(URI baseUri) {
        this.seatsUrl = baseUri.toString().replaceAll("/+$", "") + "/v1/seats";
    }

    /** POST /v1/seats without an Idempotency-Key: the server cannot tell a resend from a new grant. */
    Response postGrant(SeatRequested event) throws IOException, InterruptedException {
        return send(grantRequest(event).build());
    }

    /** POST /v1/seats with {@code Idempotency-Key: requestId}. */
    Response postGrantWithKey(SeatRequested event) throws IOException, InterruptedException {
        return send(grantRequest(event).header("idempotency-key", event.requestId()).build());
    }

    /** GET /v1/seats?workspaceId=&userId=: whether a seat exists for this pair right now. */
    boolean seatExists(SeatRequested event) throws IOException, InterruptedException {
        String query = "workspaceId=" + encode(event.workspaceId()) + "&userId=" + encode(event.userId());
        Response res = send(HttpRequest.newBuilder(URI.create(seatsUrl + "?" + query)).GET().build());
        if (!res.ok()) {
            throw new IOException("list_failed:" + res.status());
        }
        JsonNode seats = MAPPER.readTree(res.body()).path("seats");
        return seats.isArray() && !seats.isEmpty();
    }

    private HttpRequest.Builder grantRequest(SeatRequested event) throws JsonProcessingException {
        String body = MAPPER.writeValueAsString(
                Map.of("workspaceId", event.workspaceId(), "userId", event.userId(), "role", event.role()));
        return HttpRequest.newBuilder(URI.create(seatsUrl))
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    private Response send(HttpRequest request) throws IOException, InterruptedException {
        HttpResponse<String> res = http.send(request, HttpResponse.BodyHandlers.ofString());
        return new Response(res.statusCode(), res.body());
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
