// INTERVIEW MATERIAL: the seat-grant take-home's agent-written worker, ported line for line from the
// packet's TypeScript. It is code to review, not code to copy. Packet: docs/packets/seat-grant/.
package dev.idempotent.seatgrant.worker.minimalpatch;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

// fixture: AgentSeatGrantWorker.java (agent-written, do not treat as canonical)
public class AgentSeatGrantWorker {

    /** The port of {@code import { setTimeout as delay } from "node:timers/promises"}. */
    public interface Delay {
        void delay(long ms) throws InterruptedException;
    }

    public record SeatEvent(String requestId, String workspaceId, String userId) {}

    record GrantBody(String workspaceId, String userId, String role) {}

    @JsonIgnoreProperties(ignoreUnknown = true)
    record Granted(String id, boolean replayed) {}

    static final class GrantFailed extends RuntimeException {
        final boolean retryable;

        GrantFailed(String message, boolean retryable) {
            super(message);
            this.retryable = retryable;
        }
    }

    private static final Logger log = LoggerFactory.getLogger(AgentSeatGrantWorker.class);
    private static final ObjectMapper mapper = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final URI seatsUri;
    private final Delay delay;

    public AgentSeatGrantWorker(URI baseUri, Delay delay) {
        this.seatsUri = URI.create(baseUri.toString().replaceAll("/+$", "") + "/v1/seats");
        this.delay = delay;
    }

    public AgentSeatGrantWorker(URI baseUri) {
        this(baseUri, Thread::sleep);
    }

    private Granted postGrant(GrantBody body, String idempotencyKey) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(seatsUri)
                .header("content-type", "application/json")
                .header("idempotency-key", idempotencyKey)
                .POST(HttpRequest.BodyPublishers.ofString(mapper.writeValueAsString(body)))
                .build();
        HttpResponse<String> res = http.send(req, HttpResponse.BodyHandlers.ofString());
        if (res.statusCode() == 409) {
            Granted existing = mapper.readValue(res.body(), Granted.class);
            return new Granted(existing.id(), true);
        }
        if (res.statusCode() == 429 || res.statusCode() == 503 || res.statusCode() == 502 || res.statusCode() == 504) {
            throw new GrantFailed("retryable:" + res.statusCode(), true);
        }
        if (res.statusCode() < 200 || res.statusCode() >= 300) {
            throw new GrantFailed("grant_failed:" + res.statusCode(), false);
        }
        return mapper.readValue(res.body(), Granted.class);
    }

    private static boolean isRetryable(Exception err) {
        if (err instanceof IOException) {
            return true;
        }
        return err instanceof GrantFailed failed && failed.retryable;
    }

    private static void grantEvent(SeatEvent event, int attempt, String outcome, String seatId, Exception err) {
        log.atInfo().setMessage("seat.grant")
                .addKeyValue("requestId", event.requestId())
                .addKeyValue("attempt", attempt + 1)
                .addKeyValue("outcome", outcome)
                .addKeyValue("seatId", seatId)
                .addKeyValue("error", err == null ? null : err.getClass().getSimpleName())
                .log();
    }

    public void handleSeatRequested(SeatEvent event) throws Exception {
        GrantBody body = new GrantBody(event.workspaceId(), event.userId(), "member");

        int attempt = 0;
        final int maxAttempts = 5;

        while (attempt < maxAttempts) {
            try {
                Granted granted = postGrant(body, event.requestId());
                grantEvent(event, attempt, granted.replayed() ? "replayed" : "granted", granted.id(), null);
                return;
            } catch (Exception err) {
                boolean retryable = isRetryable(err);
                grantEvent(event, attempt, retryable ? "retry" : "rejected", null, err);
                if (!retryable) {
                    throw err;
                }
                attempt += 1;
                if (attempt >= maxAttempts) {
                    throw new RuntimeException("exhausted_retries:" + event.requestId(), err);
                }
                long backoffMs = 100L * (1L << attempt);
                delay.delay(backoffMs);
            }
        }

        throw new RuntimeException("exhausted_retries:" + event.requestId());
    }
}
