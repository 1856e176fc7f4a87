package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A JSON number the proxy reads ({@code --operation json:}, {@code --created json:}, {@code --volatile-field}) is
 * read exactly, as a {@code BigDecimal}, and named in one canonical form (issue 45 item 1). Read as a double,
 * {@code 1e400} and {@code 1e401} were both {@code Infinity} and the ledger named a duplicate that was not there;
 * {@code 1} and {@code 1.0} were two operations; the string {@code "1"} and the number {@code 1} were one.
 */
class ExactOperationsTest {

    /** An upstream that creates a new resource for every request, named in its Location. */
    private static ScriptedUpstream creating() throws Exception {
        AtomicInteger ids = new AtomicInteger();
        return new ScriptedUpstream(r -> ScriptedUpstream.ok(201, "{}", "Location: /orders/" + ids.incrementAndGet()));
    }

    @Test
    void numbersNameOperationsExactlyAndOneValueHasOneName() throws Exception {
        try (ScriptedUpstream upstream = creating();
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(upstream.baseUri())
                     .operation("json:/intent").build())) {
            List<String> intents = List.of("1e400", "1e401", "0.1000000000000000000001", "0.1000000000000000000002",
                    "1", "1.0", "10e-1", "\"1\"", "100", "\"1E+2\"", "-0", "0.0");
            for (String intent : intents) {
                assertEquals(201, post(proxy, "{\"intent\":" + intent + "}", null).statusCode(), intent);
            }

            assertEquals(List.of("json:/intent=1E+400", "json:/intent=1E+401",
                            "json:/intent=0.1000000000000000000001", "json:/intent=0.1000000000000000000002",
                            "json:/intent=1", "json:/intent=1", "json:/intent=1", "json:/intent=\"1\"",
                            "json:/intent=1E+2", "json:/intent=\"1E+2\"", "json:/intent=0", "json:/intent=0"),
                    proxy.journal().stream().map(JournalEntry::operation).toList());
            assertEquals(List.of(new ProxyLedger.Duplicate("json:/intent=1", List.of("/orders/5", "/orders/6",
                            "/orders/7")), new ProxyLedger.Duplicate("json:/intent=0", List.of("/orders/11",
                            "/orders/12"))),
                    proxy.ledger().duplicates(), "1, 1.0 and 10e-1 are one intent, and so are -0 and 0.0; no other");
        }
    }

    @Test
    void aNumberPastTheParsersLimitIsRefusedAndNeverForwarded() throws Exception {
        try (ScriptedUpstream upstream = creating();
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(upstream.baseUri())
                     .operation("json:/intent").build())) {
            HttpResponse<String> answer = post(proxy, "{\"intent\":1,\"pad\":" + "9".repeat(1001) + "}", null);

            assertEquals(400, answer.statusCode(), answer.body());
            assertTrue(answer.body().contains("problem:malformed-request"), answer.body());
            assertTrue(answer.body().contains("1,000 characters") && !answer.body().contains("999"), answer.body());
            assertEquals(201, post(proxy, "{\"intent\":1,\"pad\":" + "9".repeat(1000) + "}", null).statusCode(),
                    "1,000 characters is within the limit");
            assertEquals(1, upstream.received().size(), "the refused request never reached the upstream");
            assertEquals(List.of(400, 201), proxy.journal().stream().map(JournalEntry::status).toList());
        }
    }

    @Test
    void createdResourcesAreNamedExactly() throws Exception {
        List<String> ids = List.of("1e400", "1e401", "7", "7.0", "\"7\"");
        AtomicInteger next = new AtomicInteger();
        try (ScriptedUpstream upstream = new ScriptedUpstream(r -> ScriptedUpstream.ok(201,
                "{\"id\":" + ids.get(next.getAndIncrement()) + "}"));
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(upstream.baseUri()).created("json:/id").build())) {
            for (int i = 0; i < ids.size(); i++) {
                assertEquals(201, post(proxy, "{\"item\":\"book\"}", "order-1").statusCode());
            }

            assertEquals(List.of(new ProxyLedger.Duplicate("key:order-1", List.of("1E+400", "1E+401", "7", "\"7\""))),
                    proxy.ledger().duplicates(), "7 and 7.0 are one resource; 1e400, 1e401 and \"7\" are three more");
        }
    }

    @Test
    void volatileFieldsLeaveNumbersComparedExactly() throws Exception {
        try (ScriptedUpstream upstream = creating();
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(upstream.baseUri()).volatileField("/nonce")
                     .build())) {
            Function<String, String> order = amount -> "{\"amount\":" + amount + ",\"nonce\":\"" + amount + "\"}";
            for (String amount : List.of("1e400", "1e401", "2.50", "25e-1", "3", "3.0")) {
                assertEquals(201, post(proxy, order.apply(amount), null).statusCode());
            }

            assertEquals(List.of(List.of("/orders/3", "/orders/4"), List.of("/orders/5", "/orders/6")),
                    proxy.ledger().suspected().stream().map(ProxyLedger.Suspected::created).toList(),
                    "2.50 and 25e-1 are one amount, 3 and 3.0 another; 1e400 and 1e401 are two");
        }
    }

    private static HttpResponse<String> post(FakeProxy proxy, String body, String key) throws Exception {
        return new Http(proxy.baseUri()).postJson("/orders", body, key);
    }
}
