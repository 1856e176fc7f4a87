package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The byte-level defects of issue 8, each over a raw socket with the exact bytes that found it: bad escapes,
 * bytes that are not UTF-8, lenient framing, promises to close, ids with surrounding whitespace, keys with a
 * space, and the admin token's scheme. Every refusal is a problem, nothing is written, and the server serves on.
 */
class HostileInputTest extends SharedServerTest {

    @AfterEach
    void nothingWasWrittenAndTheServerStillServes() throws Exception {
        assertEquals(0, server.ledger().seats());
        assertEquals(201, http.grant("k-after-" + System.nanoTime(), Http.BODY).statusCode());
    }

    private static RawConnection.Response exchange(String raw) throws Exception {
        try (RawConnection c = new RawConnection(server.baseUri(), 10_000)) {
            return c.send(raw).read();
        }
    }

    private static RawConnection.Response exchange(byte[] raw) throws Exception {
        try (RawConnection c = new RawConnection(server.baseUri(), 10_000)) {
            return c.send(raw).read();
        }
    }

    private static void assertProblem(RawConnection.Response r, int status, String slug) {
        assertNotNull(r, "the server answered");
        assertEquals(status, r.status(), r.body());
        assertEquals("application/problem+json", r.header("content-type"));
        assertTrue(r.body().contains("\"type\":\"tag:idempotent.dev,2026:problem:" + slug + "\""), r.body());
    }

    @Test
    void aBadEscapeInTheQueryIsA400AndTheQueryIsInNoLogLine() throws Exception {
        try (LogCapture log = new LogCapture()) {
            RawConnection.Response r = exchange(
                    "GET /v1/seats?userId=alice&token=SECRET123&q=% HTTP/1.1\r\nHost: localhost\r\n\r\n");

            assertProblem(r, 400, "invalid-query");
            assertEquals(List.of(), log.containing("SECRET123"));
            assertEquals(List.of(), log.containing("userId=alice"));
            assertEquals(List.of(), log.lines().stream().filter(l -> l.startsWith("ERROR")).toList());
        }
    }

    @Test
    void aTargetOfAnotherSchemeIsA400ThatNoJournalOrLogLineQuotes() throws Exception {
        // Before: an ftp:// target was taken as a path, whole, credentials and all: a 404 journaled and logged.
        try (LogCapture log = new LogCapture()) {
            RawConnection.Response r = exchange("POST ftp://user:s3cret@example.com/v1/seats HTTP/1.1\r\n"
                    + "Host: localhost\r\nContent-Type: application/json\r\nContent-Length: " + Http.BODY.length()
                    + "\r\n\r\n" + Http.BODY);

            assertProblem(r, 400, "invalid-path");
            assertFalse(r.body().contains("s3cret"), r.body());
            assertTrue(server.journal().stream().noneMatch(e -> String.valueOf(e.path()).contains("s3cret")));
            assertEquals(List.of(), log.containing("s3cret"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"GET /%zz", "GET /v1/seats/%", "POST /v1/seats%G0", "GET /__admin/%zz",
        "GET /v1/seats/%C0%AF", "GET /v1/seats?userId=%C0%AF"})
    void aBadEscapeInThePathOrQueryIsA400Problem(String requestLine) throws Exception {
        RawConnection.Response r = exchange(requestLine + " HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n");

        assertNotNull(r, "an answer, not an empty reply");
        assertEquals(400, r.status(), r.body());
        assertTrue(r.body().contains("problem:invalid-path") || r.body().contains("problem:invalid-query"), r.body());
    }

    private static byte[] post(String contentType, byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(("POST /v1/seats HTTP/1.1\r\nHost: localhost\r\n"
                + (contentType == null ? "" : "Content-Type: " + contentType + "\r\n")
                + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.writeBytes(body);
        return out.toByteArray();
    }

    private static byte[] bodyWithWorkspace(byte[] workspaceBytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes("{\"workspaceId\":\"".getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(workspaceBytes);
        out.writeBytes("\",\"userId\":\"u\",\"role\":\"member\"}".getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
    }

    @ParameterizedTest
    @ValueSource(strings = {"77c0af", "77c181", "77e080af", "77eda080", "77ff", "77c3"})
    void invalidUtf8InABodyIsMalformedJson(String hex) throws Exception {
        byte[] bad = java.util.HexFormat.of().parseHex(hex);

        assertProblem(exchange(post("application/json", bodyWithWorkspace(bad))), 400, "malformed-json");
    }

    @Test
    void utf16AndUtf32BodiesAreNotGuessedAt() throws Exception {
        assertProblem(exchange(post("application/json; charset=utf-8", Http.BODY.getBytes(StandardCharsets.UTF_16LE))),
                400, "malformed-json");
        assertProblem(exchange(post("application/json", Http.BODY.getBytes(java.nio.charset.Charset.forName("UTF-32BE")))),
                400, "malformed-json");
        assertProblem(exchange(post("application/json; charset=utf-16", Http.BODY.getBytes(StandardCharsets.UTF_16))),
                415, "unsupported-media-type");
    }

    @Test
    void aCodingOtherThanChunkedAloneIs501AndWritesNothing() throws Exception {
        String chunked = Integer.toHexString(Http.BODY.length()) + "\r\n" + Http.BODY + "\r\n0\r\n\r\n";
        try (RawConnection c = new RawConnection(server.baseUri(), 10_000)) {
            c.send("POST /v1/seats HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Transfer-Encoding: gzip, chunked\r\n\r\n" + chunked);
            RawConnection.Response r = c.read();
            assertProblem(r, 501, "unsupported-transfer-encoding");
            assertEquals("close", r.header("connection"));
            assertTrue(c.closedByServer());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"HTTP/9.9", "HTTP/1.2", "HTTP/2.0"})
    void anHttpVersionOtherThan10Or11Is505(String version) throws Exception {
        assertProblem(exchange("GET /__admin/health " + version + "\r\nHost: localhost\r\n\r\n"), 505,
                "http-version-not-supported");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "Host: localhost\r\nHost: other\r\n"})
    void anHttp11RequestWithoutExactlyOneHostIs400AndWritesNothing(String hosts) throws Exception {
        // RFC 9112 section 3.2: a server MUST answer 400 to an HTTP/1.1 request with no Host, or to any request with
        // more than one; which authority such a request meant is not knowable.
        try (RawConnection c = new RawConnection(server.baseUri(), 10_000)) {
            c.send("POST /v1/seats HTTP/1.1\r\n" + hosts + "Content-Type: application/json\r\nIdempotency-Key: no-host\r\n"
                    + "Content-Length: " + Http.BODY.length() + "\r\n\r\n" + Http.BODY);
            RawConnection.Response r = c.read();
            assertProblem(r, 400, "malformed-request");
            assertEquals("close", r.header("connection"));
            assertTrue(c.closedByServer());
        }
    }

    @Test
    void a417ClosesTheConnectionItPromisedToClose() throws Exception {
        try (RawConnection c = new RawConnection(server.baseUri(), 3_000)) {
            c.send("POST /v1/seats HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Expect: foo\r\nContent-Length: " + Http.BODY.length() + "\r\n\r\n");
            RawConnection.Response r = c.read();
            assertProblem(r, 417, "expectation-failed");
            assertEquals("close", r.header("connection"));
            assertTrue(c.closedByServer(), "closed within the read timeout, not left open");
        }
    }

    @Test
    void a413Behind100ContinueClosesTheConnectionItPromisedToClose() throws Exception {
        try (RawConnection c = new RawConnection(server.baseUri(), 3_000)) {
            c.send("POST /v1/seats HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Expect: 100-continue\r\nContent-Length: 70000\r\n\r\n");
            RawConnection.Response r = c.read();
            assertProblem(r, 413, "body-too-large");
            assertEquals("close", r.header("connection"));
            assertTrue(c.closedByServer(), "closed within the read timeout, not left open");
        }
    }

    @Test
    void anOverlongRequestLineIs414AndAnOversizedHeaderSectionIs431() throws Exception {
        assertProblem(exchange("GET /v1/seats/" + "a".repeat(9000) + " HTTP/1.1\r\nHost: localhost\r\n\r\n"), 414,
                "uri-too-long");
        assertProblem(exchange("GET /__admin/health HTTP/1.1\r\nHost: localhost\r\nX-Big: " + "b".repeat(17_000)
                + "\r\n\r\n"), 431, "headers-too-large");
    }

    @Test
    void idsWithSurroundingWhitespaceAreRefusedInABodyAndInAQuery() throws Exception {
        for (String body : List.of("{\"workspaceId\":\"wsL\",\"userId\":\" lead\",\"role\":\"member\"}",
                "{\"workspaceId\":\"wsL \",\"userId\":\"u\",\"role\":\"member\"}",
                "{\"workspaceId\":\"wsL\",\"userId\":\"u\\t\",\"role\":\"member\"}")) {
            assertProblem(exchange(Wire.seatPost(null, body)), 400, "invalid-field");
        }
        assertProblem(exchange("GET /v1/seats?workspaceId=wsL&userId=%20lead HTTP/1.1\r\nHost: localhost\r\n\r\n"),
                400, "invalid-query");
        assertProblem(exchange("GET /v1/seats?workspaceId=wsL+&userId=u HTTP/1.1\r\nHost: localhost\r\n\r\n"),
                400, "invalid-query");
    }

    @Test
    void aBodyCutShortByAHalfCloseIsNeverServedEvenWhenWhatArrivedIsValidJson() throws Exception {
        try (RawConnection c = new RawConnection(server.baseUri(), 10_000)) {
            c.send("POST /v1/seats HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: "
                    + (Http.BODY.length() + 20) + "\r\n\r\n" + Http.BODY);
            c.socket().shutdownOutput();

            RawConnection.Response r = c.read();
            if (r != null) {
                assertProblem(r, 400, "malformed-request");
            }
            assertTrue(r == null || c.closedByServer());
        }
    }

    @Test
    void aKeyWithASpaceIsRefused() throws Exception {
        assertProblem(exchange(Wire.seatPost("a b", Http.BODY)), 400, "invalid-idempotency-key");
        assertFalse(server.journal().isEmpty());
    }
}
