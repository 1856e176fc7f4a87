package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.idempotent.seatgrant.server.orders.OrdersService;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The ledgers the docs print are the proxy's real output (issue 45 item 8: bring-your-own-api.md's lacked the
 * {@code "suspected"} field the proxy prints). Each example is read from the page and compared with the ledger of
 * the same requests, replayed against the orders service behind a real proxy ({@code incident-fast}: the page's
 * {@code incident} without its 1.5 s wait, which no ledger shows). A value the page cuts short ({@code
 * "fingerprint:9c1f…"}) stands for any value of its kind; everything else must be equal, field for field.
 */
class LedgerExamplesTest {

    private static final Path ROOT = Path.of("..");
    private static final FaultPlan LOST_FIRST = FaultPlan.scenario("incident-fast").onRoute("POST", "/orders");

    @Test
    void bringYourOwnApisLedgersAreWhatTheProxyAnswers() throws Exception {
        List<JsonNode> examples = examples(ROOT.resolve("docs/bring-your-own-api.md"));
        assertEquals(4, examples.size(), "cases (a), (b) and (c), and the suspected duplicates: " + examples);
        try (OrdersService ignoring = OrdersService.start(0, false);
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(ignoring.baseUri()).faultPlan(LOST_FIRST).build())) {
            placeWithRetries(proxy, "{\"item\":\"book\",\"quantity\":1}", null);
            assertLike(examples.get(0), ledger(proxy), "(a)");
            placeWithRetries(proxy, "{\"item\":\"pen\",\"quantity\":2}", "order-2");
            assertLike(examples.get(1), ledger(proxy), "(b)");
        }
        try (OrdersService honouring = OrdersService.start(0, true);
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(honouring.baseUri()).faultPlan(LOST_FIRST).build())) {
            placeWithRetries(proxy, "{\"item\":\"lamp\",\"quantity\":1}", "order-3");
            assertLike(examples.get(2), ledger(proxy), "(c)");
        }
        try (OrdersService orders = OrdersService.start(0, true);
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(orders.baseUri()).faultPlan(LOST_FIRST)
                     .volatileField("/nonce").volatileField("/stamp").build())) {
            // Two intents, their attempts in turn; each attempt with a fresh nonce and stamp, so each its own operation.
            for (int attempt = 1; attempt <= 3; attempt++) {
                for (String[] intent : new String[][] {{"a", "book"}, {"b", "pen"}}) {
                    assertEquals(504, post(proxy, "{\"intent\":\"" + intent[0] + "\",\"item\":\"" + intent[1]
                            + "\",\"quantity\":1,\"nonce\":\"n-" + intent[0] + attempt + "\",\"stamp\":" + attempt
                            + "}", null).statusCode());
                }
            }
            assertLike(examples.get(3), ledger(proxy), "the suspected duplicates");
        }
    }

    @Test
    void theFakeServerReadmesLedgersAreWhatServeAndTheProxyAnswer() throws Exception {
        List<JsonNode> examples = examples(ROOT.resolve("fake-server/README.md"));
        assertEquals(2, examples.size(), "serve's and the proxy's: " + examples);
        try (FakeSeatServer server = FakeSeatServer.start(ServerConfig.builder()
                .faultPlan(FaultPlan.scenario("incident-fast")).build())) {
            Http client = new Http(server);
            String seat = "{\"workspaceId\":\"ws_1\",\"userId\":\"user_1\",\"role\":\"member\"}";
            assertEquals(504, client.grant(null, seat).statusCode());
            assertEquals(201, client.grant(null, seat).statusCode());
            assertLike(examples.get(0), client.getJson("/__admin/ledger"), "serve");
        }
        try (OrdersService ignoring = OrdersService.start(0, false);
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(ignoring.baseUri()).faultPlan(LOST_FIRST).build())) {
            placeWithRetries(proxy, "{\"item\":\"book\",\"quantity\":1}", "order-1");
            assertLike(examples.get(1), ledger(proxy), "the proxy");
        }
    }

    /**
     * The ledgers a page prints: each JSON block, or {@code # } comment line in a code block, that starts as a
     * ledger does ({@code {"kind":"proxy"} or {@code {"seats"}).
     */
    private static List<JsonNode> examples(Path page) throws Exception {
        List<JsonNode> found = new ArrayList<>();
        boolean inBlock = false;
        StringBuilder block = new StringBuilder();
        for (String line : Files.readAllLines(page)) {
            if (line.startsWith("```")) {
                if (inBlock && isLedger(block.toString())) {
                    found.add(Http.json(placeholders(block.toString())));
                }
                inBlock = !inBlock;
                block.setLength(0);
            } else if (inBlock && line.startsWith("# ") && isLedger(line.substring(2))) {
                found.add(Http.json(placeholders(line.substring(2))));
            } else if (inBlock) {
                block.append(line).append('\n');
            }
        }
        return found;
    }

    private static boolean isLedger(String text) {
        String start = text.strip();
        return start.startsWith("{\"kind\":\"proxy\"") || start.startsWith("{\"seats\"");
    }

    /** {@code [...2 ids...]}, the README's elision of two random seat ids, as two values of any kind. */
    private static String placeholders(String text) {
        return text.replace("[...2 ids...]", "[\"…\",\"…\"]");
    }

    /**
     * {@code actual} has exactly {@code expected}'s fields, in its order, with its values; a string that ends in
     * {@code …} matches any string that starts as it does up to its first {@code :} (a kind: {@code fingerprint:}),
     * or any string at all when it is only {@code …}.
     */
    private static void assertLike(JsonNode expected, JsonNode actual, String where) {
        List<String> problems = new ArrayList<>();
        compare(expected, actual, "$", problems);
        assertEquals(List.of(), problems, where + ": the page prints " + expected + ", the proxy answers " + actual);
    }

    private static void compare(JsonNode expected, JsonNode actual, String at, List<String> problems) {
        if (expected.isTextual() && expected.textValue().endsWith("\u2026")) {
            String cut = expected.textValue();
            String kind = cut.contains(":") ? cut.substring(0, cut.indexOf(':') + 1) : "";
            if (!actual.isTextual() || !actual.textValue().startsWith(kind)) {
                problems.add(at + ": " + actual + " is not a " + cut);
            }
        } else if (expected.isObject()) {
            List<String> want = new ArrayList<>();
            expected.fieldNames().forEachRemaining(want::add);
            List<String> got = new ArrayList<>();
            actual.fieldNames().forEachRemaining(got::add);
            if (!want.equals(got)) {
                problems.add(at + ": fields " + got + ", the page shows " + want);
                return;
            }
            for (Map.Entry<String, JsonNode> field : expected.properties()) {
                compare(field.getValue(), actual.get(field.getKey()), at + "." + field.getKey(), problems);
            }
        } else if (expected.isArray()) {
            if (!actual.isArray() || actual.size() != expected.size()) {
                problems.add(at + ": " + actual + " against " + expected);
                return;
            }
            for (int i = 0; i < expected.size(); i++) {
                compare(expected.get(i), actual.get(i), at + "[" + i + "]", problems);
            }
        } else if (!expected.equals(actual)) {
            problems.add(at + ": " + actual + ", the page shows " + expected);
        }
    }

    private JsonNode ledger(FakeProxy proxy) {
        return new Http(proxy.baseUri()).getJson("/__admin/ledger");
    }

    /** As {@code curl --retry 2} places it: again after a 5xx, three attempts at most. */
    private void placeWithRetries(FakeProxy proxy, String body, String key) throws Exception {
        for (int attempt = 1; attempt <= 3; attempt++) {
            if (post(proxy, body, key).statusCode() < 500) {
                return;
            }
        }
        throw new AssertionError("no answer under 500 in three attempts");
    }

    private static HttpResponse<String> post(FakeProxy proxy, String body, String key) throws Exception {
        return new Http(proxy.baseUri()).postJson("/orders", body, key);
    }
}
