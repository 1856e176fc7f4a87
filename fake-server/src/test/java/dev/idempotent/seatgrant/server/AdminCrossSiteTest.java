package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 20 item 4, as a hostile web page drives it, over a raw socket with the headers a browser sends: a page on
 * another origin posting to {@code /__admin/reset} and {@code /__admin/faults}, and a page whose own name resolves
 * to this machine (DNS rebinding) reading the journal. Before, with no token (the default), each of them worked.
 */
class AdminCrossSiteTest extends SharedServerTest {

    private static final String PLAN = "{\"rules\":[{\"fault\":\"reset\"}]}";

    private static String host() {
        return server.baseUri().getAuthority();
    }

    private static RawConnection.Response send(String method, String path, String headers, String body)
            throws Exception {
        try (RawConnection c = new RawConnection(server.baseUri(), 10_000)) {
            return c.send(method + " " + path + " HTTP/1.1\r\n" + headers + "Content-Length: " + body.length()
                    + "\r\n\r\n" + body).read();
        }
    }

    private static void assertProblem(RawConnection.Response r, int status, String slug) {
        assertEquals(status, r.status(), r.body());
        assertTrue(r.body().contains("problem:" + slug + "\""), r.body());
    }

    private static void aSeat() throws Exception {
        assertEquals(201, http.grant("k-cross-" + System.nanoTime(), Http.BODY).statusCode());
    }

    @Test
    void aResetFromAPageOnAnotherOriginIsRefusedAndEmptiesNothing() throws Exception {
        aSeat();
        // fetch('http://127.0.0.1:P/__admin/reset', {method: 'POST', mode: 'no-cors'}) from http://attacker.example
        RawConnection.Response r = send("POST", "/__admin/reset", "Host: " + host()
                + "\r\nOrigin: http://attacker.example\r\n", "");

        assertProblem(r, 403, "admin-origin-not-allowed");
        assertEquals(1, server.ledger().seats());
    }

    @ParameterizedTest
    @ValueSource(strings = {"null", "http://127.0.0.1:1", "https://127.0.0.1", "http://localhost", "file://"})
    void anyOriginButTheServersOwnIsRefused(String origin) throws Exception {
        aSeat();
        RawConnection.Response r = send("DELETE", "/__admin/faults", "Host: " + host() + "\r\nOrigin: " + origin
                + "\r\n", "");

        assertProblem(r, 403, "admin-origin-not-allowed");
        assertEquals(1, server.ledger().seats());
    }

    @Test
    void theServersOwnPageMayChangeIt() throws Exception {
        aSeat();
        RawConnection.Response r = send("POST", "/__admin/reset", "Host: " + host() + "\r\nOrigin: http://" + host()
                + "\r\nContent-Type: application/json\r\n", "");

        assertEquals(204, r.status(), r.body());
        assertEquals(0, server.ledger().seats());
    }

    @Test
    void aTextPlainPlanIsRefused415AndInstallsNothing() throws Exception {
        // The other half of the finding: a "simple" cross-origin POST may carry text/plain without asking first.
        RawConnection.Response r = send("POST", "/__admin/faults", "Host: " + host()
                + "\r\nContent-Type: text/plain;charset=UTF-8\r\n", PLAN);

        assertProblem(r, 415, "unsupported-media-type");
        assertEquals(List.of(), server.faultPlan().rules());
        for (String type : new String[] {"application/x-www-form-urlencoded", "multipart/form-data; boundary=x"}) {
            assertProblem(send("POST", "/__admin/faults", "Host: " + host() + "\r\nContent-Type: " + type + "\r\n",
                    PLAN), 415, "unsupported-media-type");
        }
        assertProblem(send("POST", "/__admin/faults", "Host: " + host() + "\r\n", PLAN), 415,
                "unsupported-media-type");
        assertEquals(List.of(), server.faultPlan().rules());

        RawConnection.Response json = send("POST", "/__admin/faults", "Host: " + host()
                + "\r\nContent-Type: application/json; charset=utf-8\r\n", PLAN);
        assertEquals(200, json.status(), json.body());
        assertEquals(1, server.faultPlan().rules().size());
    }

    @Test
    void aBodilessResetNeedsNoContentType() throws Exception {
        // curl -X POST http://127.0.0.1:P/__admin/reset: no body, no type, no Origin. Still a 204.
        aSeat();
        assertEquals(204, send("POST", "/__admin/reset", "Host: " + host() + "\r\n", "").status());
        assertEquals(0, server.ledger().seats());
    }

    @ParameterizedTest
    @ValueSource(strings = {"attacker.example", "attacker.example:PORT", "localhost:1", "127.0.0.1", "127.0.0.2:PORT",
        "localhost.attacker.example:PORT"})
    void aNameThatIsNotTheServersIsRefusedEvenForReads(String name) throws Exception {
        aSeat();
        String value = name.replace("PORT", String.valueOf(server.port()));
        for (String path : new String[] {"/__admin/requests", "/__admin/ledger", "/__admin/ui"}) {
            RawConnection.Response r = send("GET", path, "Host: " + value + "\r\n", "");
            assertProblem(r, 403, "admin-host-not-allowed");
            assertTrue(!r.body().contains("k-cross"), "nothing of the journal: " + r.body());
        }
        assertProblem(send("POST", "/__admin/reset", "Host: " + value + "\r\n", ""), 403, "admin-host-not-allowed");
        assertEquals(1, server.ledger().seats());
        // The seat API answers whatever the name: workers reach it under any name.
        try (RawConnection c = new RawConnection(server.baseUri(), 10_000)) {
            assertEquals(200, c.send("GET /v1/seats?workspaceId=ws_1 HTTP/1.1\r\nHost: " + value + "\r\n\r\n")
                    .read().status());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"localhost", "LOCALHOST", "127.0.0.1", "[::1]"})
    void theServersOwnNamesWithItsPortAreAllowed(String name) throws Exception {
        RawConnection.Response r = send("GET", "/__admin/ledger", "Host: " + name + ":" + server.port() + "\r\n", "");
        assertEquals(200, r.status(), r.body());
    }

    @Test
    void aNameAllowedAtStartWorksOnAnyPort() throws Exception {
        try (FakeSeatServer named = FakeSeatServer.start(ServerConfig.builder().allowedHost("fake-server").build());
             RawConnection c = new RawConnection(named.baseUri(), 10_000)) {
            // Behind a port mapping (docker -p 9000:8080) the client names the mapped port.
            assertEquals(200, c.send("GET /__admin/ledger HTTP/1.1\r\nHost: fake-server:9000\r\n\r\n").read().status());
            assertEquals(200, c.send("GET /__admin/ledger HTTP/1.1\r\nHost: Fake-Server\r\n\r\n").read().status());
            assertEquals(403, c.send("GET /__admin/ledger HTTP/1.1\r\nHost: other-server:9000\r\n\r\n").read().status());
        }
    }

    @Test
    void theTokenDoesNotReplaceTheNameCheck() throws Exception {
        try (FakeSeatServer withToken = FakeSeatServer.start(ServerConfig.builder().adminToken("t0k").build());
             RawConnection c = new RawConnection(withToken.baseUri(), 10_000)) {
            RawConnection.Response r = c.send("GET /__admin/ledger HTTP/1.1\r\nHost: attacker.example\r\n"
                    + "Authorization: Bearer t0k\r\n\r\n").read();
            assertProblem(r, 403, "admin-host-not-allowed");
        }
    }
}
