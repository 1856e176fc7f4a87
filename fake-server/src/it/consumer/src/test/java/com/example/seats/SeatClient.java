package com.example.seats;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The service's own seat client, as a team might write it: POST the grant, and when the answer is lost (a 5xx, a
 * broken connection) try again, three attempts in all. With {@code sendsKey} every attempt carries the request's
 * id as its Idempotency-Key, and a 409 replay counts as success; without it, each retry is a new grant.
 */
final class SeatClient {

    private static final int ATTEMPTS = 3;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI seats;
    private final boolean sendsKey;

    SeatClient(URI baseUri, boolean sendsKey) {
        this.seats = baseUri.resolve("/v1/seats");
        this.sendsKey = sendsKey;
    }

    /** Grants the seat; returns the answer's body. */
    String grant(String requestId, String workspaceId, String userId) throws InterruptedException {
        String body = "{\"workspaceId\":\"" + workspaceId + "\",\"userId\":\"" + userId + "\",\"role\":\"member\"}";
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            HttpRequest.Builder request = HttpRequest.newBuilder(seats)
                    .timeout(Duration.ofSeconds(10))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body));
            if (sendsKey) {
                request.header("Idempotency-Key", requestId);
            }
            HttpResponse<String> response;
            try {
                response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            } catch (IOException lost) {
                continue;
            }
            int status = response.statusCode();
            boolean replayed = status == 409 && response.headers().firstValue("Idempotent-Replayed").isPresent();
            if (status == 201 || replayed) {
                return response.body();
            }
            if (status < 500) {
                throw new IllegalStateException("the seat was refused with " + status);
            }
        }
        throw new IllegalStateException("no seat after " + ATTEMPTS + " attempts");
    }
}
