package dev.idempotent.docs.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.seatgrant.server.junit.FakeServerExtension;
import dev.idempotent.seatgrant.worker.GrantOutcome;
import dev.idempotent.seatgrant.worker.SeatGrantConfig;
import dev.idempotent.seatgrant.worker.SeatGrantWorker;
import dev.idempotent.seatgrant.worker.SeatRequested;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Testing your own client against the fake server: the example of fake-server/README.md, "Testing your own
 * client". Copy it into a service's tests as it is (change the package); it needs {@code dev.idempotent:fake-server}
 * in test scope, JUnit 5, and, for the second test, {@code dev.idempotent:seat-grant-worker}.
 *
 * <p>Under the {@code incident} scenario every first POST is committed and then answered 504 after 1.5 s. A client
 * that retries that answer without an Idempotency-Key writes a second seat, and {@code assertNoDuplicates()} fails
 * naming the user, both seats and the two requests; the answer key resends its key and gets the first seat back.
 */
class NoDuplicateSeatsTest {

    @RegisterExtension
    static FakeServerExtension fake = FakeServerExtension.server();

    @Test
    void aClientThatRetriesWithoutAKeyMakesASecondSeat() throws Exception {
        fake.scenario("incident");

        new RetryingSeatClient(fake.baseUri()).grant("ws_1", "user_1");

        AssertionError duplicate = assertThrows(AssertionError.class, fake::assertNoDuplicates);
        assertTrue(duplicate.getMessage().contains("user user_1 in workspace ws_1 has 2 seats"), duplicate.getMessage());
        assertTrue(duplicate.getMessage().contains("attempt 1, no key: committed "), duplicate.getMessage());
        assertTrue(duplicate.getMessage().contains("; fault status-after-commit answered 504"), duplicate.getMessage());
    }

    @Test
    void theAnswerKeyMakesOneSeat(URI baseUri) {
        fake.scenario("incident");

        GrantOutcome outcome;
        try (SeatGrantWorker worker = new SeatGrantWorker(SeatGrantConfig.defaults(baseUri))) {
            outcome = worker.handle(new SeatRequested("req_1", "ws_1", "user_1"));
        }

        fake.assertNoDuplicates();
        assertTrue(outcome instanceof GrantOutcome.Replayed, "the retry got the committed seat back: " + outcome);
        assertEquals(1, fake.ledger().seats());
    }

    /** The fixture's mistake in a few lines: a lost answer (a 5xx, a broken connection) is retried without a key. */
    static final class RetryingSeatClient {
        private final HttpClient http = HttpClient.newHttpClient();
        private final URI seats;

        RetryingSeatClient(URI baseUri) {
            this.seats = baseUri.resolve("/v1/seats");
        }

        void grant(String workspaceId, String userId) throws InterruptedException {
            String body = "{\"workspaceId\":\"" + workspaceId + "\",\"userId\":\"" + userId + "\",\"role\":\"member\"}";
            for (int attempt = 1; attempt <= 3; attempt++) {
                HttpRequest request = HttpRequest.newBuilder(seats).timeout(Duration.ofSeconds(10))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build();
                try {
                    if (http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() < 500) {
                        return;
                    }
                } catch (IOException lostAnswer) {
                    // Retried below, like a 5xx.
                }
            }
            throw new IllegalStateException("no seat after 3 attempts");
        }
    }
}
