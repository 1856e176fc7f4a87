package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 20's head-level findings (items 8, 9 and 12), each over a raw socket with the bytes that found them: two
 * {@code Authorization} headers, control bytes in the target, a {@code Host} that names no host, the protocol name
 * in lower case, transfer codings the server does not implement or applies twice, and the HTTP/1.0 keep-alive answer.
 * Each refusal is a problem, nothing is journaled or written, and the connection closes as a refusal's does.
 */
class RequestHeadStrictnessTest extends SharedServerTest {

    private static String host() {
        return server.baseUri().getAuthority();
    }

    private static RawConnection.Response refused(String raw) throws Exception {
        try (RawConnection c = new RawConnection(server.baseUri(), 10_000)) {
            RawConnection.Response r = c.send(raw.getBytes(StandardCharsets.ISO_8859_1)).read();
            assertNotNull(r, "an answer, not a bare close");
            assertEquals("application/problem+json", r.header("content-type"), r.body());
            assertEquals("close", r.header("connection"), "a refusal before the request is whole closes");
            assertTrue(c.closedByServer());
            return r;
        }
    }

    private static void assertProblem(RawConnection.Response r, int status, String slug) {
        assertEquals(status, r.status(), r.body());
        assertTrue(r.body().contains("problem:" + slug + "\""), r.body());
    }

    @Test
    void twoAuthorizationHeadersAre400WhicheverComesFirst() throws Exception {
        // Before: the first one won, so right-then-wrong was answered 200 and wrong-then-right 401.
        try (FakeSeatServer withToken = FakeSeatServer.start(ServerConfig.builder().adminToken("t0ken").build())) {
            for (String pair : new String[] {"Authorization: Bearer t0ken\r\nAuthorization: Bearer nope\r\n",
                "Authorization: Bearer nope\r\nAuthorization: Bearer t0ken\r\n"}) {
                try (RawConnection c = new RawConnection(withToken.baseUri(), 10_000)) {
                    RawConnection.Response r = c.send("GET /__admin/ledger HTTP/1.1\r\nHost: "
                            + withToken.baseUri().getAuthority() + "\r\n" + pair + "\r\n").read();
                    assertProblem(r, 400, "malformed-request");
                }
            }
            // One header still works as before.
            try (RawConnection c = new RawConnection(withToken.baseUri(), 10_000)) {
                assertEquals(200, c.send("GET /__admin/ledger HTTP/1.1\r\nHost: " + withToken.baseUri().getAuthority()
                        + "\r\nAuthorization: Bearer t0ken\r\n\r\n").read().status());
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"00", "01", "1b", "7f"})
    void aControlByteInTheTargetIs400AndNotJournaled(String hex) throws Exception {
        char control = (char) Integer.parseInt(hex, 16);
        RawConnection.Response r = refused("GET /v1/seats/a" + control + "b HTTP/1.1\r\nHost: " + host() + "\r\n\r\n");

        assertProblem(r, 400, "malformed-request");
        assertEquals(0, server.journal().size(), "before: answered 404 and journaled with the byte in its path");
    }

    @ParameterizedTest
    @ValueSource(strings = {"a b", "x/y@z", "x@y", "[::1", "h:99999", ":8080"})
    void aHostThatIsNotAHostAndPortIs400(String value) throws Exception {
        RawConnection.Response r = refused("POST /v1/seats HTTP/1.1\r\nHost: " + value
                + "\r\nContent-Type: application/json\r\nContent-Length: " + Http.BODY.length() + "\r\n\r\n" + Http.BODY);

        assertProblem(r, 400, "malformed-request");
        assertEquals(0, server.ledger().seats(), "before: 201, and a seat");
    }

    @ParameterizedTest
    @ValueSource(strings = {"localhost", "127.0.0.1:8080", "[::1]:1", "fake-server.example:80", "x"})
    void aHostThatIsAHostAndPortIsServed(String value) throws Exception {
        try (RawConnection c = new RawConnection(server.baseUri(), 10_000)) {
            c.send("GET /v1/seats?workspaceId=w HTTP/1.1\r\nHost: " + value + "\r\n\r\n");
            assertEquals(200, c.read().status());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"http/1.1", "Http/1.1", "http/1.0"})
    void aProtocolNameNotInCapitalsIs400(String version) throws Exception {
        // RFC 9112 section 2.3: HTTP-name is "HTTP", case-sensitive. Such a line is no request line at all, so 400
        // (malformed), not 505 (a well-formed version this server does not speak). Before: served as HTTP/1.1.
        RawConnection.Response r = refused("GET /v1/seats?workspaceId=w " + version + "\r\nHost: " + host()
                + "\r\n\r\n");

        assertProblem(r, 400, "malformed-request");
        assertEquals(0, server.journal().size());
    }

    @ParameterizedTest
    @ValueSource(strings = {"identity", "x-chunked", "\"chunked\"", "gzip", "gzip, chunked", "chunked;q=1, x"})
    void aTransferCodingTheServerDoesNotImplementIs501(String coding) throws Exception {
        // RFC 9112 section 6.1. Before: 400 for all but gzip, chunked, though the README promised 501.
        assertProblem(grantWithCodings(coding), 501, "unsupported-transfer-encoding");
        assertEquals(0, server.ledger().seats());
    }

    @ParameterizedTest
    @ValueSource(strings = {"chunked, chunked", "chunked\r\nTransfer-Encoding: chunked"})
    void chunkedTwiceIs400(String coding) throws Exception {
        // RFC 9112 section 7: a sender must not apply chunked more than once; where the body ends is not knowable.
        assertProblem(grantWithCodings(coding), 400, "malformed-request");
        assertEquals(0, server.ledger().seats());
    }

    /** A grant whose body is one chunk, sent with {@code Transfer-Encoding: codings}, refused. */
    private static RawConnection.Response grantWithCodings(String codings) throws Exception {
        return refused("POST /v1/seats HTTP/1.1\r\nHost: " + host() + "\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: " + codings + "\r\n\r\n" + Integer.toHexString(Http.BODY.length()) + "\r\n"
                + Http.BODY + "\r\n0\r\n\r\n");
    }

    @Test
    void chunkedAloneIsStillRead() throws Exception {
        try (RawConnection c = new RawConnection(server.baseUri(), 10_000)) {
            c.send("POST /v1/seats HTTP/1.1\r\nHost: " + host() + "\r\nContent-Type: application/json\r\n"
                    + "Transfer-Encoding: Chunked\r\n\r\n" + Integer.toHexString(Http.BODY.length()) + "\r\n"
                    + Http.BODY + "\r\n0\r\n\r\n");
            assertEquals(201, c.read().status());
        }
        assertEquals(1, server.ledger().seats());
    }

    @Test
    void anHttp10KeepAliveAnswerSaysKeepAliveAndTheConnectionServesAgain() throws Exception {
        // RFC 9112 section 9.3 (and RFC 2068's keep-alive): an HTTP/1.0 client takes a response without
        // "Connection: keep-alive" as closing. Before: no such header, though the connection stayed open.
        try (RawConnection c = new RawConnection(server.baseUri(), 10_000)) {
            for (int i = 0; i < 2; i++) {
                RawConnection.Response r = c.send("GET /__admin/health HTTP/1.0\r\nHost: " + host()
                        + "\r\nConnection: keep-alive\r\n\r\n").read();
                assertEquals(200, r.status(), r.body());
                assertEquals("keep-alive", r.header("connection"));
            }
        }
        try (RawConnection c = new RawConnection(server.baseUri(), 10_000)) {
            RawConnection.Response r = c.send("GET /__admin/health HTTP/1.0\r\nHost: " + host() + "\r\n\r\n").read();
            assertEquals("close", r.header("connection"), "without keep-alive an HTTP/1.0 answer closes");
            assertTrue(c.closedByServer());
        }
        try (RawConnection c = new RawConnection(server.baseUri(), 10_000)) {
            RawConnection.Response r = c.send("GET /__admin/health HTTP/1.1\r\nHost: " + host() + "\r\n\r\n").read();
            assertNull(r.header("connection"), "HTTP/1.1 keeps alive by default and says nothing");
            c.socket().setSoTimeout(300);
            assertFalse(c.closedByServer());
        }
    }
}
