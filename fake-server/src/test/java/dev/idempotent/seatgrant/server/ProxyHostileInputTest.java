package dev.idempotent.seatgrant.server;

import static dev.idempotent.seatgrant.server.ScriptedUpstream.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a proxy must refuse, and how it fails when its upstream does: a target naming another host is
 * {@code not-an-open-proxy} and goes nowhere; an upstream that is down, too slow or breaks off is a {@code 502} or
 * {@code 504} with a problem body, journaled as the upstream's failure and never as a fault; a fault before the
 * commit keeps the request from the upstream; the admin API is never forwarded; and no token, upstream credential
 * or header value reaches a log line.
 */
class ProxyHostileInputTest {

    @Test
    void anAbsoluteFormTargetNamingAnotherHostIsRefusedAndGoesNowhere() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream(r -> ok(200, r.target()));
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(upstream.baseUri()).build())) {
            int port = proxy.port();
            List<String> refused = List.of(
                    "GET http://example.com/ HTTP/1.1\r\nHost: example.com\r\n\r\n",
                    "GET http://127.0.0.1:" + (port == 65535 ? 1 : port + 1) + "/x HTTP/1.1\r\nHost: a\r\n\r\n",
                    "GET http://user@127.0.0.1:" + port + "/x HTTP/1.1\r\nHost: a\r\n\r\n",
                    "GET https://127.0.0.1:" + port + "/x HTTP/1.1\r\nHost: a\r\n\r\n",
                    "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n",
                    "GET http://1.2.3.4.5:" + port + "/x HTTP/1.1\r\nHost: a\r\n\r\n",
                    "GET http://[zz.example:1]:" + port + "/x HTTP/1.1\r\nHost: a\r\n\r\n");
            for (String request : refused) {
                try (RawConnection client = new RawConnection(proxy.baseUri(), 10_000)) {
                    RawConnection.Response answer = client.send(request).read();
                    assertEquals(400, answer.status(), request);
                    assertEquals("application/problem+json", answer.header("Content-Type"));
                    assertEquals("tag:idempotent.dev,2026:problem:not-an-open-proxy",
                            Http.json(answer.body()).get("type").asText(), request);
                }
            }
            for (String own : List.of("http://127.0.0.1:" + port + "/mine", "http://localhost:" + port + "/mine",
                    "HTTP://LOCALHOST:" + port + "/mine?q=1")) {
                try (RawConnection client = new RawConnection(proxy.baseUri(), 10_000)) {
                    RawConnection.Response answer = client.send("GET " + own + " HTTP/1.1\r\nHost: a\r\n\r\n").read();
                    assertEquals(200, answer.status(), own + " names the proxy itself");
                }
            }

            assertEquals(List.of("/mine", "/mine", "/mine?q=1"),
                    upstream.received().stream().map(ScriptedUpstream.Received::target).toList());
            List<JournalEntry> refusals = proxy.journal().stream().filter(e -> e.status() == 400).toList();
            assertEquals(refused.size(), refusals.size(), "each refusal is journaled");
            refusals.forEach(e -> {
                assertEquals(0, e.attempt());
                assertNull(e.upstreamStatus());
                assertNull(e.upstreamError());
            });
        }
    }

    @Test
    void anUpstreamThatIsDownIsA502JournaledAsRefused() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        try (FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(URI.create("http://127.0.0.1:" + closedPort))
                .build())) {
            HttpResponse<String> answer = new Http(proxy.baseUri()).grant("k1", "{}");

            assertProblem(answer, 502, "upstream-refused");
            JournalEntry entry = proxy.journal().get(0);
            assertEquals("refused", entry.upstreamError());
            assertNull(entry.upstreamStatus());
            assertNull(entry.fault(), "the upstream's failure is no injected fault");
            assertEquals(502, entry.status());
            assertEquals(new ProxyLedger(0, 0, List.of()), proxy.ledger(), "nothing reached the upstream");
        }
    }

    @Test
    void anUpstreamThatIsTooSlowIsA504JournaledAsATimeoutAndItsConnectionIsNotReused() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream(r -> r.target().equals("/slow")
                ? new ScriptedUpstream.Answer.Hang() : ok(200, "fast"));
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(upstream.baseUri())
                     .upstreamTimeout(Duration.ofMillis(300)).build())) {
            Http client = new Http(proxy.baseUri());

            assertProblem(client.get("/slow"), 504, "upstream-timeout");
            HttpResponse<String> next = client.get("/fast");

            assertEquals("fast", next.body());
            assertEquals(2, upstream.connections(), "the late connection was closed, not handed to the next request");
            JournalEntry slow = proxy.journal().get(0);
            assertEquals("timeout", slow.upstreamError());
            assertNull(slow.fault());
            assertEquals(504, slow.status());
        }
    }

    @Test
    void anUpstreamThatBreaksOffItsAnswerIsA502JournaledAsBroken() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream(r -> r.target().equals("/close")
                ? new ScriptedUpstream.Answer.Close()
                : r.target().equals("/short") ? ScriptedUpstream.bytesThenClose(
                        "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this")
                : ScriptedUpstream.bytes("this is not HTTP\r\n\r\n"));
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(upstream.baseUri()).build())) {
            Http client = new Http(proxy.baseUri());

            assertProblem(client.get("/close"), 502, "upstream-broken");
            assertProblem(client.get("/short"), 502, "upstream-broken");
            assertProblem(client.get("/garbage"), 502, "upstream-broken");
            proxy.journal().forEach(e -> assertEquals("broken", e.upstreamError(), e.toString()));
        }
    }

    @Test
    void anUpstreamStatusOutside100To599IsA502JournaledAsBroken() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream(r -> ScriptedUpstream.bytes(
                "HTTP/1.1 " + r.target().substring(1) + " Odd\r\nContent-Length: 2\r\n\r\nok"));
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(upstream.baseUri()).build())) {
            Http client = new Http(proxy.baseUri());

            assertProblem(client.get("/1000"), 502, "upstream-broken");
            assertProblem(client.get("/099"), 502, "upstream-broken");
            assertProblem(client.get("/600"), 502, "upstream-broken");
            assertEquals(200, client.get("/200").statusCode(), "a status in range still passes");

            List<JournalEntry> journal = proxy.journal();
            for (JournalEntry entry : journal.subList(0, 3)) {
                assertEquals("broken", entry.upstreamError(), entry.toString());
                assertNull(entry.upstreamStatus(), "no status outside 100-599 is kept as the upstream's");
                assertEquals(502, entry.status());
            }
        }
    }

    @Test
    void aFaultBeforeTheCommitNeverReachesTheUpstreamAndOneAfterItLosesTheAnswerItGot() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream(r -> ok(201, "{}", "Location: /orders/1"));
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(upstream.baseUri())
                     .faultPlan(FaultPlan.parse("{\"rules\":[{\"method\":\"POST\",\"path\":\"/before\",\"fault\":"
                             + "\"reset\"},{\"method\":\"POST\",\"path\":\"/after\",\"fault\":\"reset-after-commit\"},"
                             + "{\"method\":\"POST\",\"path\":\"/slow\",\"fault\":\"delay\",\"delayMs\":300}]}"))
                     .build())) {
            Http client = new Http(proxy.baseUri());

            assertThrows(UncheckedIOException.class, () -> client.send(post(client, "/before")));
            assertEquals(List.of(), upstream.received(), "a fault before the commit keeps the request here");
            assertThrows(UncheckedIOException.class, () -> client.send(post(client, "/after")));
            assertEquals(201, client.send(post(client, "/slow")).statusCode());
            Await.until(Duration.ofSeconds(10), "the last answer to be journaled as written",
                    () -> proxy.journal().get(2).sent());

            List<JournalEntry> journal = proxy.journal();
            JournalEntry before = journal.get(0);
            assertEquals("reset", before.fault());
            assertNull(before.upstreamStatus());
            assertTrue(!before.committed());
            JournalEntry after = journal.get(1);
            assertEquals("reset-after-commit", after.fault());
            assertEquals(201, after.upstreamStatus(), "the upstream answered; the client never heard");
            assertTrue(after.committed());
            assertEquals("/orders/1", after.seatId());
            assertNull(after.status());
            JournalEntry slow = journal.get(2);
            assertEquals("delay", slow.fault());
            assertTrue(slow.answeredMs() >= 300, "held before forwarding: " + slow.answeredMs());
            assertEquals(List.of("/after", "/slow"),
                    upstream.received().stream().map(ScriptedUpstream.Received::target).toList());
        }
    }

    private static HttpRequest post(Http client, String path) {
        return HttpRequest.newBuilder(client.uri(path)).timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.ofString("{}")).build();
    }

    @Test
    void theAdminApiIsTheProxysOwnAndAScenarioIsAimedAtItsRoute() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream(r -> ok(200, "upstream"));
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(upstream.baseUri()).route("post", "/orders")
                     .build())) {
            Http client = new Http(proxy.baseUri());

            assertEquals(200, client.get("/__admin/health").statusCode());
            JsonNode ledger = client.getJson("/__admin/ledger");
            HttpResponse<String> applied = client.send(HttpRequest.newBuilder(client.uri("/__admin/faults"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"scenario\":\"incident\"}")).build());
            JsonNode plan = client.getJson("/__admin/faults");
            RawConnection.Response foreign;
            try (RawConnection raw = new RawConnection(proxy.baseUri(), 10_000)) {
                foreign = raw.send("GET /__admin/ledger HTTP/1.1\r\nHost: rebound.example\r\n\r\n").read();
            }

            assertEquals(List.of(), upstream.received(), "nothing under /__admin is forwarded");
            assertEquals("{\"kind\":\"proxy\",\"operations\":0,\"created\":0,\"duplicates\":[],\"suspected\":[]}",
                    ledger.toString());
            assertEquals(200, applied.statusCode(), applied.body());
            assertEquals("incident", plan.get("scenario").asText(), "a scenario on another route is still it");
            assertEquals("POST", plan.get("rules").get(0).get("method").asText());
            assertEquals("/orders", plan.get("rules").get(0).get("path").asText());
            assertEquals(FaultPlan.scenario("incident").onRoute("POST", "/orders"), proxy.faultPlan());
            assertEquals(403, foreign.status(), "serve's admin rules hold on a proxy: " + foreign.body());
            assertTrue(foreign.body().contains("admin-host-not-allowed"), foreign.body());
        }
    }

    @Test
    void noTokenUpstreamCredentialOrHeaderValueReachesAnyLogLine() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        try (LogCapture logs = new LogCapture();
             ScriptedUpstream upstream = new ScriptedUpstream(r -> r.target().startsWith("/slow")
                     ? new ScriptedUpstream.Answer.Hang() : ok(201, "{}", "Location: /orders/loc-secret-id"));
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(URI.create("http://alice:pw-s3cret@127.0.0.1:"
                     + upstream.baseUri().getPort())).adminToken("adm-t0ken-value")
                     .upstreamTimeout(Duration.ofMillis(300))
                     .faultPlan(FaultPlan.parse("{\"rules\":[{\"path\":\"/lost\",\"fault\":\"close-after-commit\"}]}"))
                     .build());
             FakeProxy down = FakeProxy.start(ProxyConfig.builder(URI.create("http://bob:pw-d0wn@127.0.0.1:"
                     + closedPort)).build())) {
            Http client = new Http(proxy.baseUri());
            for (String path : List.of("/orders?token=query-secret", "/slow?token=query-secret", "/lost")) {
                try {
                    client.send(HttpRequest.newBuilder(client.uri(path)).timeout(Duration.ofSeconds(10))
                            .header("Authorization", "Bearer client-secret").header("Idempotency-Key", "key-secret")
                            .header("Cookie", "session=cookie-secret")
                            .POST(HttpRequest.BodyPublishers.ofString("{\"card\":\"body-secret\"}")).build());
                } catch (UncheckedIOException expected) {
                    // the close-after-commit
                }
            }
            client.send(HttpRequest.newBuilder(client.uri("/__admin/ledger"))
                    .header("Authorization", "Bearer adm-t0ken-value").build());
            client.send(HttpRequest.newBuilder(client.uri("/__admin/ledger"))
                    .header("Authorization", "Bearer wrong-t0ken-value").build());
            new Http(down.baseUri()).get("/orders?token=query-secret");
            try (RawConnection raw = new RawConnection(proxy.baseUri(), 10_000)) {
                raw.send("GET http://host-secret.example/x?token=query-secret HTTP/1.1\r\nHost: host-secret\r\n\r\n")
                        .read();
            }

            assertTrue(logs.lines().stream().anyMatch(l -> l.contains("/orders -> 201")),
                    "the per-request lines were captured: " + logs.lines());
            for (String secret : List.of("pw-s3cret", "pw-d0wn", "alice", "bob", "adm-t0ken", "wrong-t0ken",
                    "client-secret", "key-secret", "cookie-secret", "body-secret", "query-secret", "host-secret",
                    "loc-secret")) {
                assertEquals(List.of(), logs.containing(secret), secret);
            }
        }
    }

    private static void assertProblem(HttpResponse<String> answer, int status, String type) {
        assertEquals(status, answer.statusCode(), answer.body());
        assertEquals("application/problem+json", answer.headers().firstValue("Content-Type").orElse(null));
        JsonNode problem = Http.json(answer.body());
        assertEquals("tag:idempotent.dev,2026:problem:" + type, problem.get("type").asText());
        assertEquals(status, problem.get("status").asInt());
    }
}
