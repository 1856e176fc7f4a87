package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input gets a 4xx problem+json, writes nothing, leaks no stack trace, and the server keeps serving.
 */
class ApiValidationTest extends SharedServerTest {

    @AfterEach
    void nothingWasWrittenAndTheServerStillServes() throws Exception {
        Ledger ledger = server.ledger();
        assertEquals(0, ledger.seats());
        assertEquals(0, ledger.keys());
        assertEquals(201, http.grant("k-after-" + System.nanoTime(), Http.BODY).statusCode());
        server.reset();
    }

    private static HttpRequest.Builder post(String body) {
        return HttpRequest.newBuilder(http.uri("/v1/seats")).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
    }

    static Stream<Arguments> badRequests() {
        String big = "{\"workspaceId\":\"" + "w".repeat(70 * 1024) + "\",\"userId\":\"u\",\"role\":\"member\"}";
        return Stream.of(
                Arguments.of("malformed JSON", 400, "malformed-json", f(() -> post("{\"workspaceId\":"))),
                Arguments.of("a JSON array", 400, "malformed-json", f(() -> post("[]"))),
                Arguments.of("an empty body", 400, "malformed-json", f(() -> post(""))),
                Arguments.of("a second object after the first", 400, "malformed-json", f(() -> post(Http.BODY + "{}"))),
                Arguments.of("text after the object", 400, "malformed-json", f(() -> post(Http.BODY + " trailing"))),
                Arguments.of("a duplicated field", 400, "malformed-json",
                        f(() -> post("{\"workspaceId\":\"w\",\"workspaceId\":\"x\",\"userId\":\"u\",\"role\":\"member\"}"))),
                Arguments.of("a missing userId", 400, "invalid-field", f(() -> post("{\"workspaceId\":\"w\",\"role\":\"member\"}"))),
                Arguments.of("a blank workspaceId", 400, "invalid-field",
                        f(() -> post("{\"workspaceId\":\"  \",\"userId\":\"u\",\"role\":\"member\"}"))),
                Arguments.of("a null userId", 400, "invalid-field",
                        f(() -> post("{\"workspaceId\":\"w\",\"userId\":null,\"role\":\"member\"}"))),
                Arguments.of("a numeric role", 400, "invalid-field",
                        f(() -> post("{\"workspaceId\":\"w\",\"userId\":\"u\",\"role\":5}"))),
                Arguments.of("an unknown role", 400, "invalid-field",
                        f(() -> post("{\"workspaceId\":\"w\",\"userId\":\"u\",\"role\":\"owner\"}"))),
                Arguments.of("a 256-character userId", 400, "invalid-field",
                        f(() -> post("{\"workspaceId\":\"w\",\"userId\":\"" + "u".repeat(256) + "\",\"role\":\"member\"}"))),
                Arguments.of("half a surrogate pair", 400, "invalid-field",
                        f(() -> post("{\"workspaceId\":\"w\\ud800\",\"userId\":\"u\",\"role\":\"member\"}"))),
                Arguments.of("text/plain", 415, "unsupported-media-type",
                        f(() -> post(Http.BODY).setHeader("Content-Type", "text/plain"))),
                Arguments.of("no content type", 415, "unsupported-media-type",
                        f(() -> HttpRequest.newBuilder(http.uri("/v1/seats")).POST(HttpRequest.BodyPublishers.ofString(Http.BODY)))),
                Arguments.of("latin-1 JSON", 415, "unsupported-media-type",
                        f(() -> post(Http.BODY).setHeader("Content-Type", "application/json; charset=iso-8859-1"))),
                Arguments.of("a body over 64 KiB", 413, "body-too-large", f(() -> post(big))),
                Arguments.of("a 256-character key", 400, "invalid-idempotency-key",
                        f(() -> post(Http.BODY).header("Idempotency-Key", "k".repeat(256)))),
                Arguments.of("a key with a tab", 400, "invalid-idempotency-key",
                        f(() -> post(Http.BODY).header("Idempotency-Key", "a\tb"))),
                Arguments.of("two keys", 400, "ambiguous-key",
                        f(() -> post(Http.BODY).header("Idempotency-Key", "a").header("Idempotency-Key", "b"))),
                Arguments.of("an unknown path", 404, "not-found",
                        f(() -> HttpRequest.newBuilder(http.uri("/v1/seat")).GET())),
                Arguments.of("a nested seat path", 404, "not-found",
                        f(() -> HttpRequest.newBuilder(http.uri("/v1/seats/a/b")).GET())),
                Arguments.of("a missing seat", 404, "seat-not-found",
                        f(() -> HttpRequest.newBuilder(http.uri("/v1/seats/seat_nope")).GET())),
                Arguments.of("DELETE on the collection", 405, "method-not-allowed",
                        f(() -> HttpRequest.newBuilder(http.uri("/v1/seats")).DELETE())),
                Arguments.of("PUT on a seat", 405, "method-not-allowed",
                        f(() -> HttpRequest.newBuilder(http.uri("/v1/seats/x")).PUT(HttpRequest.BodyPublishers.ofString(Http.BODY)))),
                Arguments.of("a blank list filter", 400, "invalid-query",
                        f(() -> HttpRequest.newBuilder(http.uri("/v1/seats?workspaceId=&userId=u")).GET())),
                Arguments.of("a NUL in a list filter", 400, "invalid-query",
                        f(() -> HttpRequest.newBuilder(http.uri("/v1/seats?workspaceId=%00&userId=u")).GET())),
                Arguments.of("a NUL in a seat id", 404, "seat-not-found",
                        f(() -> HttpRequest.newBuilder(http.uri("/v1/seats/seat_%00")).GET())));
    }

    private static Function<Void, HttpRequest.Builder> f(java.util.function.Supplier<HttpRequest.Builder> s) {
        return v -> s.get();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("badRequests")
    void isRefusedWithAProblem(String what, int status, String slug, Function<Void, HttpRequest.Builder> request) {
        HttpResponse<String> response = http.send(request.apply(null).build());

        assertEquals(status, response.statusCode(), response::body);
        assertEquals("application/problem+json", response.headers().firstValue("Content-Type").orElseThrow());
        JsonNode problem = Http.json(response.body());
        assertEquals("tag:idempotent.dev,2026:problem:" + slug, problem.get("type").asText());
        assertEquals(status, problem.get("status").asInt());
        assertFalse(problem.get("detail").asText().isBlank());
        assertFalse(response.body().contains("Exception") || response.body().contains("\tat "), response::body);
        if (status == 405) {
            assertTrue(response.headers().firstValue("Allow").isPresent());
        }
        JournalEntry last = server.journal().get(server.journal().size() - 1);
        assertEquals(status, last.status());
        assertFalse(last.committed());
    }

    @Test
    void garbageThatIsNotHttpGetsA400() throws IOException {
        Wire.Result result = Wire.exchange(server.baseUri(), "HELLO THERE\r\n\r\n", 5000);

        assertEquals(Wire.Seen.RESPONSE, result.seen());
        assertTrue(result.firstLine().startsWith("HTTP/1.1 400"), result.firstLine());
    }

    @Test
    void aBodyOver64KiBBehindExpect100ContinueIsA413Problem() throws IOException {
        // curl asks before sending a large body. A raw socket, because the JDK 17 client's expectContinue(true)
        // can wait forever when the answer is not 100.
        String raw = "POST /v1/seats HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Expect: 100-continue\r\nContent-Length: " + (64 * 1024 + 1) + "\r\n\r\n";

        String response = Wire.response(server.baseUri(), raw, 5000);

        assertTrue(response.startsWith("HTTP/1.1 413 "), response);
        assertTrue(response.toLowerCase(java.util.Locale.ROOT).contains("content-type: application/problem+json"), response);
        assertTrue(response.contains("problem:body-too-large"), response);
        assertEquals(413, server.journal().get(server.journal().size() - 1).status());
    }

    @Test
    void anExpectationOtherThan100ContinueIsA417Problem() throws IOException {
        String raw = "POST /v1/seats HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Expect: a-miracle\r\nContent-Length: " + Http.BODY.length() + "\r\n\r\n";

        String response = Wire.response(server.baseUri(), raw, 5000);

        assertTrue(response.startsWith("HTTP/1.1 417 "), response);
        assertTrue(response.toLowerCase(java.util.Locale.ROOT).contains("content-type: application/problem+json"), response);
        assertTrue(response.contains("problem:expectation-failed"), response);
        assertEquals(417, server.journal().get(server.journal().size() - 1).status());
    }

    @Test
    void aKeyOutsidePrintableAsciiIsRefused() throws IOException {
        Wire.Result result = Wire.exchange(server.baseUri(), Wire.seatPost("caf\u00e9", Http.BODY), 5000);

        assertEquals("HTTP/1.1 400 Bad Request", result.firstLine());
    }

    @Test
    void requireKeyRefusesAKeylessPost() throws Exception {
        try (FakeSeatServer strict = FakeSeatServer.start(ServerConfig.builder().requireKey(true).build())) {
            Http strictHttp = new Http(strict);

            HttpResponse<String> response = strictHttp.grant(null, Http.BODY);

            assertEquals(400, response.statusCode());
            assertEquals("tag:idempotent.dev,2026:problem:missing-idempotency-key",
                    Http.json(response.body()).get("type").asText());
            assertEquals(0, strict.ledger().seats());
            assertEquals(201, strictHttp.grant("k", Http.BODY).statusCode());
        }
    }
}
