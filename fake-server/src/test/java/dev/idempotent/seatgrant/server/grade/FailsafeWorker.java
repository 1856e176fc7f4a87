package dev.idempotent.seatgrant.server.grade;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.failsafe.Failsafe;
import dev.failsafe.RetryPolicy;
import dev.failsafe.RetryPolicyBuilder;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * A test fixture, not code to copy: a seat-grant worker in the shape a Java team would write it with Failsafe's
 * {@code RetryPolicy} over {@code java.net.http}, written to the contract {@code fake-server grade} checks
 * (docs/any-language.md) and graded like any other command. The Idempotency-Key is the requestId on every attempt;
 * 408, 429, 5xx, an in-progress 409 and transport failures are retried (with a 2 s request timeout); Retry-After is
 * the delay when the server sends one; 400 and 422 are rejected.
 *
 * <p>{@code --jitter} adds {@code withJitter(0.25)}, a common hardening. Failsafe jitters every delay it computes,
 * the {@code withDelayFn} Retry-After delay included, so about half the 429s are retried early: what {@code grade
 * --repeat} names as flaky.
 */
public final class FailsafeWorker {

    private static final int ACK = 0;
    private static final int NACK = 1;
    private static final int REJECT = 3;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<Integer> RETRYABLE = List.of(408, 429, 500, 502, 503, 504);

    /** One answer and what it means. */
    private record Answer(int status, String seatId, Duration retryAfter) {
        boolean done() {
            return seatId != null;
        }

        boolean retryable() {
            return !done() && (status == 409 || status / 100 == 2 || RETRYABLE.contains(status));
        }
    }

    private FailsafeWorker() {
    }

    public static void main(String[] args) throws IOException {
        System.exit(run(List.of(args)));
    }

    private static int run(List<String> args) throws IOException {
        String base = System.getenv("SEATS_BASE_URL");
        if (base == null || base.isBlank()) {
            log("{\"event\":\"seat.grant.misconfigured\"}");
            return NACK;
        }
        JsonNode event = JSON.readTree(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
                .readLine());
        String requestId = event.path("requestId").asText();
        String body = JSON.createObjectNode().put("workspaceId", event.path("workspaceId").asText())
                .put("userId", event.path("userId").asText()).put("role", "member").toString();
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/v1/seats"))
                .timeout(Duration.ofSeconds(2))
                .header("content-type", "application/json")
                .header("idempotency-key", requestId)
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        RetryPolicyBuilder<Answer> builder = RetryPolicy.<Answer>builder()
                .handle(IOException.class)
                .handleResultIf(Answer::retryable)
                .withMaxAttempts(5)
                .withBackoff(Duration.ofMillis(100), Duration.ofSeconds(2))
                // A negative delay tells Failsafe to fall back to the backoff.
                .withDelayFn(context -> {
                    Answer last = context.getLastResult();
                    return last == null || last.retryAfter() == null ? Duration.ofMillis(-1) : last.retryAfter();
                })
                .onFailedAttempt(e -> log("{\"event\":\"seat.grant.attempt\",\"requestId\":\"" + requestId
                        + "\",\"attempt\":" + e.getAttemptCount() + ",\"outcome\":\"retry\","
                        + (e.getLastException() != null ? "\"error\":\"" + e.getLastException().getClass()
                                .getSimpleName() + "\"" : "\"status\":" + e.getLastResult().status()) + "}"));
        if (args.contains("--jitter")) {
            builder.withJitter(0.25);
        }
        Answer answer;
        try {
            answer = Failsafe.with(builder.build()).get(() -> send(http, request));
        } catch (dev.failsafe.FailsafeException e) {
            log("{\"event\":\"seat.grant.outcome\",\"requestId\":\"" + requestId + "\",\"outcome\":\"exhausted\"}");
            return NACK;
        }
        String outcome = answer.done() ? "granted" : answer.retryable() ? "exhausted" : "rejected";
        log("{\"event\":\"seat.grant.outcome\",\"requestId\":\"" + requestId + "\",\"outcome\":\"" + outcome
                + "\",\"status\":" + answer.status() + "}");
        if (answer.done()) {
            return ACK;
        }
        return answer.retryable() ? NACK : REJECT;
    }

    private static Answer send(HttpClient http, HttpRequest request) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        String seatId = null;
        boolean problem = response.headers().firstValue("content-type").orElse("")
                .toLowerCase(Locale.ROOT).contains("problem+json");
        if (!problem) {
            try {
                JsonNode id = JSON.readTree(response.body()).get("id");
                seatId = id != null && id.isTextual() && !id.asText().isBlank() ? id.asText() : null;
            } catch (IOException unreadable) {
                seatId = null;
            }
        }
        Duration retryAfter = response.headers().firstValue("retry-after").filter(v -> v.strip().matches("\\d{1,4}"))
                .map(v -> Duration.ofSeconds(Long.parseLong(v.strip()))).orElse(null);
        return new Answer(response.statusCode(), seatId, retryAfter);
    }

    private static void log(String line) {
        System.err.println(line);
    }
}
