package dev.idempotent.seatgrant.server;

import static dev.idempotent.seatgrant.server.ScriptedUpstream.bytes;
import static dev.idempotent.seatgrant.server.ScriptedUpstream.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What goes upstream and what comes back, byte for byte over raw sockets: RFC 9110's hop-by-hop headers stay on
 * their hop both ways, the upstream gets its own {@code Host}, a {@code Forwarded} element and a {@code Via}, the
 * upstream URL's path and userinfo apply to every request, a body is whole both ways, and an answer to
 * {@code HEAD} keeps its length.
 */
class ProxyForwardingTest {

    @Test
    void forwardsMethodTargetBodyAndEndToEndHeadersWithItsOwnHostForwardedAndVia() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream(r -> ok(201, "{\"id\":\"o1\"}", "Location: /orders/o1",
                "X-Answer: yes"));
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(upstream.baseUri()).build());
             RawConnection client = new RawConnection(proxy.baseUri(), 10_000)) {
            String body = "{\"item\":\"book\",\"quantity\":1}";
            client.send("POST /orders?dry=1&x=%41 HTTP/1.1\r\nHost: shop.example\r\n"
                    + "Content-Type: application/json\r\nX-End: kept\r\nIdempotency-Key: k1\r\n"
                    + "Connection: keep-alive, X-Hop\r\nX-Hop: dropped\r\nKeep-Alive: timeout=5\r\n"
                    + "Proxy-Connection: keep-alive\r\nTE: trailers\r\nUpgrade: websocket\r\n"
                    + "Proxy-Authorization: Basic c2VjcmV0\r\nContent-Length: " + body.length() + "\r\n\r\n" + body);

            RawConnection.Response answer = client.read();

            assertEquals(201, answer.status());
            assertEquals("{\"id\":\"o1\"}", answer.body());
            assertEquals("yes", answer.header("X-Answer"));
            assertEquals("/orders/o1", answer.header("Location"));
            ScriptedUpstream.Received sent = upstream.received().get(0);
            assertEquals("POST", sent.method());
            assertEquals("/orders?dry=1&x=%41", sent.target(), "the target as the client encoded it");
            assertEquals(body, sent.body());
            assertEquals(String.valueOf(body.length()), sent.header("content-length"));
            assertEquals("kept", sent.header("x-end"));
            assertEquals("k1", sent.header("idempotency-key"));
            assertEquals("application/json", sent.header("content-type"));
            for (String hop : List.of("connection", "x-hop", "keep-alive", "proxy-connection", "te", "upgrade",
                    "proxy-authorization")) {
                assertNull(sent.header(hop), hop + " is hop-by-hop");
            }
            assertEquals(upstream.baseUri().getAuthority(), sent.header("host"));
            assertEquals("for=127.0.0.1;host=\"shop.example\";proto=http", sent.header("forwarded"));
            assertEquals("1.1 fake-server", sent.header("via"));
        }
    }

    @Test
    void aForwardedElementIsAppendedToTheOnesAlreadyThere() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream(r -> ok(200, "ok"));
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(upstream.baseUri()).build());
             RawConnection client = new RawConnection(proxy.baseUri(), 10_000)) {
            client.send("GET /x HTTP/1.1\r\nHost: shop.example:8443\r\nForwarded: for=10.0.0.1\r\n"
                    + "Via: 1.0 edge\r\n\r\n");

            assertEquals(200, client.read().status());
            ScriptedUpstream.Received sent = upstream.received().get(0);
            assertEquals("for=10.0.0.1, for=127.0.0.1;host=\"shop.example:8443\";proto=http", sent.header("forwarded"));
            assertEquals("1.0 edge, 1.1 fake-server", sent.header("via"));
        }
    }

    @Test
    void answersComeBackWholeWithoutTheirHopByHopHeaders() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream(r -> bytes("HTTP/1.1 200 OK\r\n"
                + "Connection: keep-alive, X-Secret-Hop\r\nX-Secret-Hop: no\r\nKeep-Alive: timeout=5\r\n"
                + "Proxy-Authenticate: Basic\r\nUpgrade: h2c\r\nX-End: yes\r\nContent-Type: text/plain\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"));
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(upstream.baseUri()).build());
             RawConnection client = new RawConnection(proxy.baseUri(), 10_000)) {
            client.send("GET /greeting HTTP/1.1\r\nHost: x\r\n\r\n");

            RawConnection.Response answer = client.read();

            assertEquals(200, answer.status());
            assertEquals("hello world", answer.body());
            assertEquals("11", answer.header("Content-Length"));
            assertEquals("yes", answer.header("X-End"));
            assertEquals("text/plain", answer.header("Content-Type"));
            for (String hop : List.of("X-Secret-Hop", "Keep-Alive", "Proxy-Authenticate", "Upgrade",
                    "Transfer-Encoding", "Connection")) {
                assertNull(answer.header(hop), hop + " is hop-by-hop");
            }
        }
    }

    @Test
    void theUpstreamsPathPrefixesEveryTargetAndItsUserinfoAuthorizesRequestsThatCarryNone() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream(r -> ok(200, "ok"))) {
            URI withUser = URI.create("http://alice:s3cret@127.0.0.1:" + upstream.baseUri().getPort() + "/api/");
            try (FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(withUser).build());
                 RawConnection client = new RawConnection(proxy.baseUri(), 10_000)) {
                client.send("GET /orders/7 HTTP/1.1\r\nHost: x\r\n\r\n");
                assertEquals(200, client.read().status());
                client.send("GET /orders HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer mine\r\n\r\n");
                assertEquals(200, client.read().status());

                List<ScriptedUpstream.Received> sent = upstream.received();
                assertEquals("/api/orders/7", sent.get(0).target());
                assertEquals("Basic " + Base64.getEncoder().encodeToString(
                        "alice:s3cret".getBytes(StandardCharsets.UTF_8)), sent.get(0).header("authorization"));
                assertEquals("Bearer mine", sent.get(1).header("authorization"), "the client's own wins");
                assertEquals("http://127.0.0.1:" + upstream.baseUri().getPort() + "/api", proxy.upstream());
            }
        }
    }

    @Test
    void anAnswerToHeadKeepsTheLengthOfWhatGetWouldGet() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream(r -> r.method().equals("HEAD")
                ? bytes("HTTP/1.1 200 OK\r\nContent-Length: 42\r\nContent-Type: text/plain\r\n\r\n")
                : ok(200, "after"));
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(upstream.baseUri()).build());
             RawConnection client = new RawConnection(proxy.baseUri(), 10_000)) {
            client.send("HEAD /file HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response head = client.readHead();
            client.send("GET /next HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response next = client.read();

            assertEquals(200, head.status());
            assertEquals("42", head.header("Content-Length"));
            assertEquals("after", next.body(), "no body followed the HEAD answer, so the next answer reads whole");
        }
    }

    @Test
    void bodiesOverTheLimitAreRefusedBothWays() throws Exception {
        String big = "x".repeat(2000);
        try (ScriptedUpstream upstream = new ScriptedUpstream(r -> ok(200, r.target().equals("/big") ? big : "small"));
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(upstream.baseUri()).maxBody(1024).build());
             RawConnection client = new RawConnection(proxy.baseUri(), 10_000)) {
            client.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n");
            RawConnection.Response tooLargeAnswer = client.read();
            client.send("POST /orders HTTP/1.1\r\nHost: x\r\nContent-Length: 2000\r\n\r\n" + big);
            RawConnection.Response tooLargeRequest = client.read();

            assertEquals(502, tooLargeAnswer.status());
            assertTrue(tooLargeAnswer.body().contains("upstream-answer-too-large"), tooLargeAnswer.body());
            assertEquals(413, tooLargeRequest.status());
            assertEquals(List.of("/big"), upstream.received().stream().map(ScriptedUpstream.Received::target).toList(),
                    "the large request never went upstream");
            List<JournalEntry> journal = proxy.journal();
            assertEquals("too-large", journal.get(0).upstreamError());
            assertEquals(413, journal.get(1).status());
            assertNull(journal.get(1).operation(), "its body never came whole");
        }
    }

    @Test
    void aKeylessRetryOfTheSameBodyIsAttemptTwoOfOneOperation() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream(r -> ok(200, "ok"));
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(upstream.baseUri()).build())) {
            Http client = new Http(proxy.baseUri());
            post(client, "/orders", null, "{\"a\":1}");
            post(client, "/orders", null, "{\"a\":1}");
            post(client, "/orders", null, "{\"a\":2}");
            post(client, "/orders", "k1", "{\"a\":1}");
            post(client, "/orders", "k1", "{\"a\":3}");
            post(client, "/other", null, "{\"a\":1}");

            List<JournalEntry> journal = proxy.journal();
            assertEquals(List.of(1, 2, 1, 1, 2, 1), journal.stream().map(JournalEntry::attempt).toList());
            assertEquals(journal.get(0).operation(), journal.get(1).operation());
            assertTrue(journal.get(0).operation().matches("fingerprint:[0-9a-f]{32}"), journal.get(0).operation());
            assertTrue(!journal.get(2).operation().equals(journal.get(0).operation()), "another body");
            assertTrue(!journal.get(5).operation().equals(journal.get(0).operation()), "another path");
            assertEquals("key:k1", journal.get(3).operation());
            assertEquals("k1", journal.get(3).idempotencyKey());
            assertNull(journal.get(0).idempotencyKey());
            // The admin API lists a proxy's own fields on every entry (and the seat server's journal has none).
            com.fasterxml.jackson.databind.JsonNode listed = client.getJson("/__admin/requests?after=0")
                    .get("requests").get(3);
            assertEquals("key:k1", listed.get("operation").asText());
            assertEquals(200, listed.get("upstreamStatus").asInt());
            assertTrue(listed.has("upstreamError") && listed.get("upstreamError").isNull(), listed.toString());
        }
    }

    @Test
    void fingerprintIgnoresKeysAndAnotherHeaderCanNameTheOperation() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream(r -> ok(200, "ok"));
             FakeProxy byBody = FakeProxy.start(ProxyConfig.builder(upstream.baseUri())
                     .operation("fingerprint").build());
             FakeProxy byRequestId = FakeProxy.start(ProxyConfig.builder(upstream.baseUri())
                     .operation("header:X-Request-Id").build())) {
            post(new Http(byBody.baseUri()), "/orders", "k1", "{}");
            post(new Http(byBody.baseUri()), "/orders", "k2", "{}");
            new Http(byRequestId.baseUri()).send(java.net.http.HttpRequest.newBuilder(
                    byRequestId.baseUri().resolve("/orders")).header("X-Request-Id", "r-9")
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{}")).build());

            assertEquals(List.of(1, 2), byBody.journal().stream().map(JournalEntry::attempt).toList());
            assertNull(byBody.journal().get(0).idempotencyKey());
            assertEquals("key:r-9", byRequestId.journal().get(0).operation());
            assertEquals("r-9", byRequestId.journal().get(0).idempotencyKey());
        }
    }

    @Test
    void theCreatedResourceIsReadWhereTheFlagSaysAndAnAnswerNamingNoneCountsEach201() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream(r -> switch (r.target()) {
            case "/with-id" -> ok(201, "{\"data\":{\"uid\":7}}");
            case "/no-id" -> ok(201, "");
            case "/not-created" -> ok(200, "{\"status\":\"queued\"}");
            default -> ok(409, "{\"data\":{\"uid\":7}}");
        });
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(upstream.baseUri()).created("json:/data/uid")
                     .build())) {
            Http client = new Http(proxy.baseUri());
            post(client, "/with-id", "k1", "{}");
            post(client, "/replay", "k1", "{}");
            post(client, "/no-id", "k2", "{}");
            post(client, "/no-id", "k2", "{}");
            post(client, "/not-created", "k3", "{}");

            List<JournalEntry> journal = proxy.journal();
            assertCreated(journal.get(0), true, "7");
            assertCreated(journal.get(1), false, "7"); // a 409 naming what k1 made: a replay, not a creation
            assertCreated(journal.get(2), true, "unnamed-1");
            assertCreated(journal.get(3), true, "unnamed-2");
            assertCreated(journal.get(4), false, null);
            ProxyLedger ledger = proxy.ledger();
            assertEquals(3, ledger.operations());
            assertEquals(3, ledger.created());
            assertEquals(List.of(new ProxyLedger.Duplicate("key:k2", List.of("unnamed-1", "unnamed-2"))),
                    ledger.duplicates());
        }
    }

    private static void assertCreated(JournalEntry entry, boolean created, String resource) {
        assertEquals(created, entry.committed(), entry.toString());
        assertEquals(resource, entry.seatId(), entry.toString());
    }

    @Test
    void pipelinedRequestsThroughTheProxyAreAnsweredInOrderAndTheConnectionRulesHold() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream(r -> ok(200, r.target()));
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(upstream.baseUri())
                     .headerTimeout(Duration.ofMillis(300)).build())) {
            try (RawConnection client = new RawConnection(proxy.baseUri(), 10_000)) {
                client.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n"
                        + "GET /c HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
                assertEquals("/a", client.read().body());
                assertEquals("/b", client.read().body());
                assertEquals("/c", client.read().body());
                assertTrue(client.closedByServer());
            }
            try (RawConnection client = new RawConnection(proxy.baseUri(), 10_000)) {
                client.send("GET /no-host HTTP/1.1\r\n\r\n");
                assertEquals(400, client.read().status(), "an HTTP/1.1 request needs one Host");
            }
            try (RawConnection client = new RawConnection(proxy.baseUri(), 10_000)) {
                client.send("GET /slow-head HTTP/1.1\r\n");
                assertEquals(408, client.read().status(), "the header timeout holds");
            }
            assertEquals(List.of("/a", "/b", "/c"),
                    upstream.received().stream().map(ScriptedUpstream.Received::target).toList());
        }
    }

    private static void post(Http client, String path, String key, String body) throws IOException,
            InterruptedException {
        java.net.http.HttpRequest.Builder request = java.net.http.HttpRequest.newBuilder(client.uri(path))
                .timeout(Duration.ofSeconds(10)).header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body));
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
        client.client().send(request.build(), java.net.http.HttpResponse.BodyHandlers.discarding());
    }

    @Test
    void anUnusableOperationOrCreatedSpecIsRefusedUpFront() {
        ProxyConfig.Builder builder = ProxyConfig.builder(URI.create("http://127.0.0.1:9"));
        for (String credential : List.of("header:Authorization", "header:cookie", "header:Proxy-Authorization")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> builder.operation(credential));
            assertTrue(e.getMessage().contains("credential"), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> builder.operation("body:/id"));
        assertThrows(IllegalArgumentException.class, () -> builder.created("json:id"));
        assertThrows(IllegalArgumentException.class, () -> builder.created("location"));
        assertThrows(IllegalArgumentException.class, () -> ProxyConfig.builder(URI.create("https://x:1")));
        assertThrows(IllegalArgumentException.class, () -> ProxyConfig.builder(URI.create("http://x:1/?q=1")));
        assertThrows(IllegalArgumentException.class, () -> ProxyConfig.builder(URI.create("/relative")));
    }
}
