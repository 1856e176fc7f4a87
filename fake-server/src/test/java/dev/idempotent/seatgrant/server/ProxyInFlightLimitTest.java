package dev.idempotent.seatgrant.server;

import static dev.idempotent.seatgrant.server.ScriptedUpstream.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code --max-in-flight}: the request and answer bytes a proxy holds at once, across all its connections, are
 * bounded; past the bound a request gets {@code 503 in-flight-limit} with {@code Retry-After: 1} and a journal
 * entry, and the log says once when the limit is hit and once when it clears.
 */
class ProxyInFlightLimitTest {

    private static final String BODY = "x".repeat(600);

    @Test
    void aRequestThatWouldPassTheLimitIsA503JournaledAndLoggedOncePerEpisode() throws Exception {
        CountDownLatch holdMayAnswer = new CountDownLatch(1);
        try (LogCapture logs = new LogCapture();
             ScriptedUpstream upstream = new ScriptedUpstream(r -> {
                 if (r.target().equals("/hold")) {
                     try {
                         holdMayAnswer.await(30, TimeUnit.SECONDS);
                     } catch (InterruptedException e) {
                         Thread.currentThread().interrupt();
                     }
                 }
                 return ok(201, "{}", "Location: /orders" + r.target());
             });
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(upstream.baseUri())
                     .maxBody(1000).maxInFlightBytes(1000).build())) {
            Http client = new Http(proxy.baseUri());
            CompletableFuture<HttpResponse<String>> held = client.client().sendAsync(post(client, "/hold"),
                    HttpResponse.BodyHandlers.ofString());
            Await.until(Duration.ofSeconds(10), "the first request to reach the upstream",
                    () -> upstream.received().size() == 1);

            HttpResponse<String> refused = client.send(post(client, "/over"));
            HttpResponse<String> refusedAgain = client.send(post(client, "/over-again"));

            for (HttpResponse<String> answer : List.of(refused, refusedAgain)) {
                assertEquals(503, answer.statusCode(), answer.body());
                assertEquals("1", answer.headers().firstValue("Retry-After").orElse(null));
                assertEquals("application/problem+json", answer.headers().firstValue("Content-Type").orElse(null));
                JsonNode problem = Http.json(answer.body());
                assertEquals("tag:idempotent.dev,2026:problem:in-flight-limit", problem.get("type").asText());
            }
            RawConnection.Response chunked;
            try (RawConnection raw = new RawConnection(proxy.baseUri(), 10_000)) {
                // No length in its head: counted piece by piece, and refused at the piece that passes the limit.
                chunked = raw.send("POST /chunked HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + Integer.toHexString(BODY.length()) + "\r\n" + BODY + "\r\n0\r\n\r\n").read();
            }
            assertEquals(503, chunked.status(), chunked.body());
            assertEquals("1", chunked.header("Retry-After"));
            assertEquals("tag:idempotent.dev,2026:problem:in-flight-limit",
                    Http.json(chunked.body()).get("type").asText());
            assertEquals(1, warnings(logs).size(), "one line when the limit is hit: " + warnings(logs));

            holdMayAnswer.countDown();
            assertEquals(201, held.get(30, TimeUnit.SECONDS).statusCode());
            Await.until(Duration.ofSeconds(10), "a line saying the limit cleared", () -> warnings(logs).size() == 2);
            assertEquals(201, client.send(post(client, "/after")).statusCode(), "served again once it cleared");

            assertEquals(List.of("/hold", "/after"),
                    upstream.received().stream().map(ScriptedUpstream.Received::target).toList(),
                    "a refused request never goes upstream");
            List<JournalEntry> journal = proxy.journal();
            assertEquals(List.of("/over", "/over-again", "/chunked"), journal.stream().filter(e -> Integer.valueOf(503)
                    .equals(e.status())).map(JournalEntry::path).toList(), "each refusal is journaled");
            assertEquals(2, warnings(logs).size(), "no line per request: " + warnings(logs));
        }
    }

    @Test
    void anAnswerThatWouldPassTheLimitIsA503ThatSaysTheUpstreamMayHaveActed() throws Exception {
        // The request's 600 bytes are held until it is answered; the answer's 600 more would pass 1000.
        try (ScriptedUpstream upstream = new ScriptedUpstream(r -> ok(201, "y".repeat(600), "Location: /orders/1"));
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(upstream.baseUri())
                     .maxBody(1000).maxInFlightBytes(1000).build())) {
            Http client = new Http(proxy.baseUri());

            HttpResponse<String> answer = client.send(post(client, "/orders"));

            assertEquals(503, answer.statusCode(), answer.body());
            assertEquals("1", answer.headers().firstValue("Retry-After").orElse(null));
            assertEquals("tag:idempotent.dev,2026:problem:in-flight-limit",
                    Http.json(answer.body()).get("type").asText());
            JournalEntry entry = proxy.journal().get(0);
            assertEquals("in-flight-limit", entry.upstreamError());
            assertNull(entry.upstreamStatus());
            assertEquals(1, proxy.ledger().operations(), "the upstream took the request: the operation counts");
        }
    }

    @Test
    void aLimitUnderTheBodyLimitIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> ProxyConfig.builder(java.net.URI.create("http://h:1"))
                .maxBody(2000).maxInFlightBytes(1000).build());
    }

    private static List<String> warnings(LogCapture logs) {
        return logs.lines().stream().filter(l -> l.startsWith("WARN") && l.contains("in-flight")).toList();
    }

    private static HttpRequest post(Http client, String path) {
        return HttpRequest.newBuilder(client.uri(path)).timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(BODY)).build();
    }
}
