package dev.idempotent.seatgrant.server;

import static dev.idempotent.seatgrant.server.ScriptedUpstream.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A request target with a {@code .} or {@code ..} path segment, written out or percent-encoded in either case, is
 * {@code 400 invalid-path} at the connection layer, in {@code serve} and {@code proxy} alike: after dot-segment
 * removal {@code /x/../__admin/x} is the admin API's path, and the upstream's own {@code /__admin} must stay out of
 * reach. Segments that only contain dots ({@code ...}, {@code .well-known}) are ordinary names.
 */
class DotSegmentTest {

    private static final List<String> DOT_SEGMENTS = List.of("/./__admin/x", "/x/../__admin/x",
            "/x/%2E%2E/__admin/x", "/x/%2e/y", "/x/.%2E/y", "/x/%2e.", "/x/..", "/.", "/v1/seats/..?q=1",
            "/x%2F..%2F__admin/x");

    private static RawConnection.Response get(URI base, String target) throws Exception {
        try (RawConnection c = new RawConnection(base, 10_000)) {
            RawConnection.Response r = c.send("GET " + target + " HTTP/1.1\r\nHost: " + base.getAuthority() + "\r\n\r\n").read();
            assertNotNull(r, target);
            return r;
        }
    }

    private static void assertInvalidPath(RawConnection.Response answer, String target) {
        assertEquals(400, answer.status(), target + ": " + answer.body());
        assertEquals("application/problem+json", answer.header("Content-Type"), target);
        assertEquals("tag:idempotent.dev,2026:problem:invalid-path",
                Http.json(answer.body()).get("type").asText(), target);
    }

    @Test
    void theProxyRefusesEveryDotSegmentAndForwardsNone() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream(r -> ok(200, r.target()));
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(upstream.baseUri()).build())) {
            for (String target : DOT_SEGMENTS) {
                assertInvalidPath(get(proxy.baseUri(), target), target);
            }
            String port = String.valueOf(proxy.port());
            assertInvalidPath(get(proxy.baseUri(), "http://127.0.0.1:" + port + "/x/%2E%2E/__admin/x"),
                    "an absolute form");

            for (String ordinary : List.of("/x/.../y", "/.well-known/x", "/x/a.b", "/x/..y")) {
                assertEquals(200, get(proxy.baseUri(), ordinary).status(), ordinary);
            }
            assertEquals(List.of("/x/.../y", "/.well-known/x", "/x/a.b", "/x/..y"),
                    upstream.received().stream().map(ScriptedUpstream.Received::target).toList(),
                    "no dot segment went upstream");
        }
    }

    @Test
    void serveRefusesThemTooAndKeepsServing() throws Exception {
        try (FakeSeatServer server = FakeSeatServer.start(ServerConfig.builder().build())) {
            for (String target : DOT_SEGMENTS) {
                assertInvalidPath(get(server.baseUri(), target), target);
            }

            RawConnection.Response health = get(server.baseUri(), "/__admin/health");
            assertEquals(200, health.status(), health.body());
            assertTrue(server.journal().isEmpty(), "a refused target names no path to journal");
        }
    }
}
