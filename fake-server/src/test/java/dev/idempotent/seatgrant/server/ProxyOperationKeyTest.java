package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * How the proxy names an operation by its key, over raw loopback sockets so every byte of the key is the test's:
 * an empty key is refused as {@code serve} refuses it (issue 33 item 5), a key's bytes outside 0x21 to 0x7E are
 * written {@code %XX} and never reinterpreted, and a key in the IETF draft's structured form ({@code "k2"}) names
 * the same operation as its bare form, while the header goes upstream exactly as it came (issue 35).
 */
class ProxyOperationKeyTest {

    /** An upstream that creates a new resource for every request it gets. */
    private static ScriptedUpstream creating() throws IOException {
        AtomicInteger ids = new AtomicInteger();
        return new ScriptedUpstream(r -> ScriptedUpstream.ok(201, "{}", "Location: /orders/" + ids.incrementAndGet()));
    }

    @Test
    void anEmptyKeyIsRefusedWith400AsServeRefusesItAndNeverReachesTheUpstream() throws Exception {
        try (ScriptedUpstream upstream = creating();
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(upstream.baseUri()).build())) {
            // Two different orders, each with an empty key: today they would be one operation, "duplicated".
            RawConnection.Response first = post(proxy, "Idempotency-Key:".getBytes(StandardCharsets.US_ASCII),
                    "{\"item\":\"book\"}");
            RawConnection.Response second = post(proxy, "Idempotency-Key:   ".getBytes(StandardCharsets.US_ASCII),
                    "{\"item\":\"pen\"}");
            RawConnection.Response emptyString = post(proxy, "Idempotency-Key: \"\"".getBytes(StandardCharsets.US_ASCII),
                    "{\"item\":\"lamp\"}");

            for (RawConnection.Response answer : List.of(first, second, emptyString)) {
                assertEquals(400, answer.status(), answer.body());
                assertEquals("application/problem+json", answer.header("content-type"));
                JsonNode problem = Http.json(answer.body());
                assertTrue(problem.get("type").asText().endsWith(":invalid-idempotency-key"), answer.body());
                assertEquals(400, problem.get("status").asInt());
            }
            assertEquals(List.of(), upstream.received(), "nothing was forwarded");
            assertEquals(new ProxyLedger(0, 0, List.of()), proxy.ledger());
            List<JournalEntry> journal = proxy.journal();
            assertEquals(3, journal.size(), "refused requests are journaled");
            journal.forEach(e -> {
                assertEquals(400, e.status());
                assertNull(e.operation(), "an empty key names no operation");
            });
        }
    }

    @Test
    void aKeysBytesOutsideVisibleAsciiArePercentEncodedInTheJournalTheLedgerAndTheAdminApi() throws Exception {
        try (ScriptedUpstream upstream = creating();
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(upstream.baseUri()).build())) {
            byte[] cafe = "caf\u00e9-\u20ac".getBytes(StandardCharsets.UTF_8);
            post(proxy, header(cafe), "{}");
            post(proxy, header(cafe), "{}");
            // Each of these would read as another one's name if % were left alone or a byte were decoded.
            post(proxy, header("a b".getBytes(StandardCharsets.US_ASCII)), "{}");
            post(proxy, header("a%20b".getBytes(StandardCharsets.US_ASCII)), "{}");
            post(proxy, header(new byte[] {'x', (byte) 0xe9}), "{}");

            List<String> operations = proxy.journal().stream().map(JournalEntry::operation).toList();
            assertEquals(List.of("key:caf%C3%A9-%E2%82%AC", "key:caf%C3%A9-%E2%82%AC", "key:a%20b", "key:a%2520b",
                    "key:x%E9"), operations);
            assertEquals("caf%C3%A9-%E2%82%AC", proxy.journal().get(0).idempotencyKey());
            assertEquals(List.of(1, 2, 1, 1, 1), proxy.journal().stream().map(JournalEntry::attempt).toList());
            // The key's two attempts made two orders: the duplicate is named as the journal names it.
            assertEquals(List.of(new ProxyLedger.Duplicate("key:caf%C3%A9-%E2%82%AC", List.of("/orders/1", "/orders/2"))),
                    proxy.ledger().duplicates());
            JsonNode listed = new Http(proxy.baseUri()).getJson("/__admin/requests?after=0").get("requests").get(0);
            assertEquals("caf%C3%A9-%E2%82%AC", listed.get("idempotencyKey").asText());
            assertEquals("key:caf%C3%A9-%E2%82%AC", listed.get("operation").asText());
            assertEquals("key:caf%C3%A9-%E2%82%AC", new Http(proxy.baseUri()).getJson("/__admin/ledger")
                    .get("duplicates").get(0).get("operation").asText());
            // The upstream gets the bytes as they were sent.
            assertEquals(new String(cafe, StandardCharsets.ISO_8859_1),
                    upstream.received().get(0).header("idempotency-key"));
        }
    }

    @Test
    void aStructuredKeyNamesTheOperationOfItsBareFormAndGoesUpstreamAsItCame() throws Exception {
        try (ScriptedUpstream upstream = creating();
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(upstream.baseUri()).build())) {
            List<String> sent = List.of("k2", "\"k2\"", "\"k2\";a=1;b=?0", "\"k\\\"2\"", "\"k2", "\"k2\" x");
            for (String key : sent) {
                post(proxy, header(key.getBytes(StandardCharsets.US_ASCII)), "{}");
            }

            List<JournalEntry> journal = proxy.journal();
            assertEquals(List.of("key:k2", "key:k2", "key:k2", "key:k\"2", "key:\"k2", "key:\"k2\"%20x"),
                    journal.stream().map(JournalEntry::operation).toList());
            assertEquals(List.of(1, 2, 3, 1, 1, 1), journal.stream().map(JournalEntry::attempt).toList());
            assertEquals(List.of(201, 201, 201, 201, 201, 201), journal.stream().map(JournalEntry::status).toList(),
                    "a key that does not parse is the upstream's to judge, never the proxy's");
            assertEquals(sent, upstream.received().stream().map(r -> r.header("idempotency-key")).toList());
            assertEquals(List.of("/orders/1", "/orders/2", "/orders/3"),
                    proxy.ledger().duplicates().get(0).created(), "one operation, three orders");
        }
    }

    @Test
    void aDecodedKeyThatStartsWithAQuoteNeverReadsAsARawValueThatFailedToParse() throws Exception {
        try (ScriptedUpstream upstream = creating();
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(upstream.baseUri()).build())) {
            post(proxy, header("\"\\\"k2\"".getBytes(StandardCharsets.US_ASCII)), "{}");
            post(proxy, header("\"k2".getBytes(StandardCharsets.US_ASCII)), "{}");

            assertEquals(List.of("key:%22k2", "key:\"k2"),
                    proxy.journal().stream().map(JournalEntry::operation).toList());
        }
    }

    private static byte[] header(byte[] key) {
        byte[] name = "Idempotency-Key: ".getBytes(StandardCharsets.US_ASCII);
        byte[] line = new byte[name.length + key.length];
        System.arraycopy(name, 0, line, 0, name.length);
        System.arraycopy(key, 0, line, name.length, key.length);
        return line;
    }

    /** One POST /orders on its own connection, with {@code keyLine} written byte for byte. */
    private static RawConnection.Response post(FakeProxy proxy, byte[] keyLine, String body) throws IOException {
        try (RawConnection c = new RawConnection(proxy.baseUri(), 10_000)) {
            byte[] payload = body.getBytes(StandardCharsets.UTF_8);
            c.send("POST /orders HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: "
                    + payload.length + "\r\n");
            c.send(keyLine);
            c.send("\r\n\r\n");
            c.send(payload);
            return c.read();
        }
    }
}
