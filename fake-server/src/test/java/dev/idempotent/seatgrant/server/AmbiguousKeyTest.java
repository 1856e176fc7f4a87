package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Two key headers with different values, or one line listing two ({@code Idempotency-Key: a, b}), are
 * {@code 400 ambiguous-key} in {@code serve} and in {@code proxy} (issue 45 item 2): the proxy used to forward them
 * and journal one odd operation ({@code key:one,%20two}) while an upstream that reads the first line saw
 * {@code one}. The same key sent twice is one key. Raw sockets, so every header line is the test's.
 */
class AmbiguousKeyTest {

    private static final String SEAT = "{\"workspaceId\":\"ws_a\",\"userId\":\"u_a\",\"role\":\"member\"}";

    @Test
    void serveRefusesTwoDifferentKeysAndWritesNothing() throws Exception {
        try (FakeSeatServer server = FakeSeatServer.start(ServerConfig.builder().build())) {
            for (String lines : List.of("Idempotency-Key: alpha\r\nIdempotency-Key: beta\r\n",
                    "Idempotency-Key: alpha, beta\r\n", "Idempotency-Key: \"alpha\",\t\"beta\"\r\n")) {
                assertAmbiguous(post(server.baseUri(), "/v1/seats", lines, SEAT), lines);
            }
            assertEquals(0, server.ledger().seats(), "nothing was written");
            assertEquals(List.of(400, 400, 400), server.journal().stream().map(JournalEntry::status).toList());
            server.journal().forEach(e -> assertNull(e.idempotencyKey()));

            // The same key twice, as it is or as an sf-string, is one key; a comma without a space is part of it.
            for (String lines : List.of("Idempotency-Key: k1\r\nIdempotency-Key: k1\r\n",
                    "Idempotency-Key: k1, \"k1\"\r\n", "Idempotency-Key: k1,k2\r\n")) {
                RawConnection.Response answer = post(server.baseUri(), "/v1/seats", lines, SEAT);
                assertTrue(answer.status() == 201 || answer.status() == 409, lines + answer.body());
            }
            assertEquals(List.of("k1", "k1", "k1,k2"), server.journal().stream().skip(3)
                    .map(JournalEntry::idempotencyKey).toList());
            assertEquals(2, server.ledger().seats());
        }
    }

    @Test
    void theProxyRefusesThemBeforeTheUpstreamAndSendsOneKeyUpstreamForTheSameKeyTwice() throws Exception {
        AtomicInteger ids = new AtomicInteger();
        try (ScriptedUpstream upstream = new ScriptedUpstream(r -> ScriptedUpstream.ok(201, "{}",
                "Location: /orders/" + ids.incrementAndGet()));
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(upstream.baseUri()).build())) {
            for (String lines : List.of("Idempotency-Key: alpha\r\nIdempotency-Key: beta\r\n",
                    "Idempotency-Key: alpha, beta\r\n", "idempotency-key: alpha\r\nIDEMPOTENCY-KEY: \"beta\"\r\n")) {
                assertAmbiguous(post(proxy.baseUri(), "/orders", lines, "{}"), lines);
            }
            assertEquals(List.of(), upstream.received(), "nothing was forwarded");
            proxy.journal().forEach(e -> assertNull(e.operation(), "a refused request names no operation"));

            assertEquals(201, post(proxy.baseUri(), "/orders", "Idempotency-Key: k1\r\nIdempotency-Key: k1\r\n", "{}")
                    .status());
            assertEquals(201, post(proxy.baseUri(), "/orders", "Idempotency-Key: k1, \"k1\"\r\n", "{}").status());
            assertEquals(List.of("key:k1", "key:k1"), proxy.journal().stream().skip(3)
                    .map(JournalEntry::operation).toList());
            assertEquals(List.of(List.of("k1"), List.of("k1")), upstream.received().stream()
                    .map(r -> r.headers("idempotency-key")).toList(), "the upstream reads one key too");
        }
    }

    private static void assertAmbiguous(RawConnection.Response answer, String lines) {
        assertEquals(400, answer.status(), lines + answer.body());
        assertEquals("tag:idempotent.dev,2026:problem:ambiguous-key", Http.json(answer.body()).get("type").asText(),
                lines);
        assertTrue(!answer.body().contains("alpha") && !answer.body().contains("beta"), "no key is quoted: " + answer.body());
    }

    /** One POST on its own connection, with {@code keyLines} (each ending in CRLF) written as they are. */
    private static RawConnection.Response post(URI base, String path, String keyLines, String body)
            throws IOException {
        try (RawConnection c = new RawConnection(base, 10_000)) {
            return c.send("POST " + path + " HTTP/1.1\r\nHost: " + base.getAuthority()
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length() + "\r\n" + keyLines
                    + "\r\n" + body).read();
        }
    }
}
