package dev.idempotent.seatgrant.server;

import static dev.idempotent.seatgrant.server.ScriptedUpstream.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The proxy never forwards a path an upstream may read as its own {@code /__admin} (issue 45 item 3): lower-cased,
 * with empty segments, {@code ;} parameters and backslashes dropped and percent-encoding undone once or twice, a
 * path that starts with {@code /__admin} is {@code 400 invalid-path}; the exact {@code /__admin/...} stays the
 * proxy's own admin API. Dot segments written out or encoded once are refused before this (DotSegmentTest).
 */
class AdminLookalikePathTest {

    private static final List<String> LOOKALIKES = List.of("//__admin/ledger", "/__ADMIN/ledger", "/__Admin",
            "/__admin;x/ledger", "/__admin;x", "/;x/__admin/reset", "/%5C__admin/ledger", "/%5F_admin/ledger",
            "/%255F%255Fadmin/ledger", "/%2F__admin/ledger", "/__admin%3Bx", "/x/%252e%252e/__admin/ledger",
            "/x%5C..%5C__admin/ledger", "/x%255C%252E%252E%255C__admin", "/__admin//ledger", "/__adminx",
            "/%5F_admin?after=0");

    private static RawConnection.Response get(URI base, String target) throws Exception {
        try (RawConnection c = new RawConnection(base, 10_000)) {
            RawConnection.Response r = c.send("GET " + target + " HTTP/1.1\r\nHost: " + base.getAuthority()
                    + "\r\n\r\n").read();
            assertNotNull(r, target);
            return r;
        }
    }

    @Test
    void everyFormThatNormalisesToTheAdminPathIsRefusedAndNoneReachesTheUpstream() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream(r -> ok(200, r.target()));
             FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(upstream.baseUri()).build())) {
            for (String target : LOOKALIKES) {
                RawConnection.Response answer = get(proxy.baseUri(), target);
                assertEquals(400, answer.status(), target + ": " + answer.body());
                assertEquals("tag:idempotent.dev,2026:problem:invalid-path",
                        Http.json(answer.body()).get("type").asText(), target);
            }
            assertEquals(400, get(proxy.baseUri(), "http://127.0.0.1:" + proxy.port() + "//__admin/ledger").status(),
                    "an absolute form");
            assertEquals(List.of(), upstream.received(), "no admin lookalike went upstream");
            assertEquals(LOOKALIKES.size() + 1, proxy.journal().size(), "each refusal is journaled");

            // The proxy's own admin API, exactly spelled, is its own; a path that only contains the name goes on.
            assertEquals("proxy", Http.json(get(proxy.baseUri(), "/__admin/ledger").body()).get("kind").asText());
            assertEquals(200, get(proxy.baseUri(), "/__admin/requests?after=0").status());
            for (String ordinary : List.of("/orders/__admin", "/admin", "/x/_admin", "/orders?next=/__admin")) {
                assertEquals(200, get(proxy.baseUri(), ordinary).status(), ordinary);
            }
            assertEquals(List.of("/orders/__admin", "/admin", "/x/_admin", "/orders?next=/__admin"),
                    upstream.received().stream().map(ScriptedUpstream.Received::target).toList());
            assertEquals(LOOKALIKES.size() + 1 + 4, proxy.journal().size(), "the admin API's own are not journaled");
        }
    }
}
