package dev.idempotent.seatgrant.worker.cli;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import dev.idempotent.seatgrant.worker.testing.CapturedEvents;
import dev.idempotent.seatgrant.worker.testing.WorkerThreads;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The {@code run} command in-process: flags, the summary line, malformed lines, stdin. */
class MainTest {

    private static final String SEAT = "{\"id\":\"seat_%s\",\"role\":\"member\"}";

    @RegisterExtension
    static final WireMockExtension wm = WireMockExtension.newInstance()
            .options(options().dynamicPort().bindAddress("127.0.0.1"))
            .build();

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(InputStream stdin, String... args) {
        return Main.run(args, stdin, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private int run(String... args) {
        return run(InputStream.nullInputStream(), args);
    }

    private JsonNode summary() throws Exception {
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(1, lines.size(), "exactly one summary line on stdout: " + lines);
        return new ObjectMapper().readTree(lines.get(0));
    }

    private void answer(String key, int status, String body) {
        wm.stubFor(post(urlPathEqualTo("/v1/seats")).withHeader("Idempotency-Key", equalTo(key))
                .willReturn(aResponse().withStatus(status).withBody(body)));
    }

    @Test
    void grantsEachEventCountsEachOutcomeAndSkipsMalformedLines(@TempDir Path dir) throws Exception {
        answer("req_a", 201, SEAT.formatted("a"));
        answer("req_b", 409, SEAT.formatted("b"));
        answer("req_c", 400, "{}");
        Path events = dir.resolve("events.jsonl");
        Files.writeString(events, String.join("\n",
                "{\"requestId\":\"req_a\",\"workspaceId\":\"ws\",\"userId\":\"u1\"}",
                "{\"requestId\":\"req_b\",\"workspaceId\":\"ws\",\"userId\":\"u2\"}",
                "{\"requestId\": \"req_x\", \"workspaceId\": 7",
                "",
                "{\"requestId\":\"req_c\",\"workspaceId\":\"ws\",\"userId\":\"u3\"}",
                "{\"requestId\":\"has space\",\"workspaceId\":\"ws\",\"userId\":\"u4\"}") + "\n");

        int code;
        try (CapturedEvents captured = new CapturedEvents()) {
            code = run("run", "--server", wm.baseUrl(), "--events", events.toString(), "--concurrency", "3");
            List<Object> malformedLines = captured.all().stream()
                    .filter(e -> e.message().equals("seat.grant.malformed")).map(e -> e.get("line")).toList();
            assertEquals(List.of(3L, 6L), malformedLines.stream().sorted().toList());
            assertTrue(captured.all().stream().noneMatch(e -> e.rendered().contains("req_x")),
                    "a malformed line is reported by number, never echoed");
        }

        JsonNode s = summary();
        assertEquals(3, s.get("events").asInt());
        assertEquals(1, s.get("granted").asInt());
        assertEquals(1, s.get("replayed").asInt());
        assertEquals(1, s.get("rejected").asInt());
        assertEquals(0, s.get("exhausted").asInt());
        assertEquals(2, s.get("malformed").asInt());
        assertEquals(List.of("events", "granted", "replayed", "rejected", "exhausted", "malformed"),
                iterable(s.fieldNames()));
        assertEquals(1, code, "a rejected event and malformed lines make the run exit 1");
        wm.verify(3, postRequestedFor(urlPathEqualTo("/v1/seats")));
    }

    @Test
    void readsStdinAndExitsZeroWhenEverythingIsGranted() throws Exception {
        answer("req_1", 201, SEAT.formatted("1"));
        answer("req_2", 201, SEAT.formatted("2"));
        String stdin = "{\"requestId\":\"req_1\",\"workspaceId\":\"ws\",\"userId\":\"u1\"}\n"
                + "{\"requestId\":\"req_2\",\"workspaceId\":\"ws\",\"userId\":\"u2\"}\n";
        int code = run(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                "run", "--server", wm.baseUrl(), "--events", "-");
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        assertEquals(2, summary().get("granted").asInt());
    }

    @Test
    void theRunClosesTheAnswerKeyWorkerItCreated() throws Exception {
        answer("req_1", 201, SEAT.formatted("1"));
        Set<Thread> before = WorkerThreads.live();
        String stdin = "{\"requestId\":\"req_1\",\"workspaceId\":\"ws\",\"userId\":\"u1\"}\n";

        int code = run(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                "run", "--server", wm.baseUrl(), "--events", "-");

        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        assertEquals(List.of(), WorkerThreads.startedSince(before), "the worker's client and threads were released");
    }

    @Test
    void anEventsRoleIsGrantedAndABadRoleIsAMalformedLine() throws Exception {
        answer("req_a", 201, SEAT.formatted("a"));
        answer("req_m", 201, SEAT.formatted("m"));
        String stdin = String.join("\n",
                "{\"requestId\":\"req_a\",\"workspaceId\":\"ws\",\"userId\":\"u1\",\"role\":\"admin\"}",
                "{\"requestId\":\"req_m\",\"workspaceId\":\"ws\",\"userId\":\"u2\"}",
                "{\"requestId\":\"req_o\",\"workspaceId\":\"ws\",\"userId\":\"u3\",\"role\":\"owner\"}",
                "{\"requestId\":\"req_n\",\"workspaceId\":\"ws\",\"userId\":\"u4\",\"role\":7}") + "\n";
        try (CapturedEvents captured = new CapturedEvents()) {
            run(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                    "run", "--server", wm.baseUrl(), "--events", "-", "--concurrency", "1");
            assertEquals(List.of("role must be one of member, admin, viewer", "role, when given, must be a string"),
                    captured.all().stream().filter(e -> e.message().equals("seat.grant.malformed"))
                            .map(e -> e.get("reason")).toList());
        }
        assertEquals(2, summary().get("malformed").asInt());
        wm.verify(1, postRequestedFor(urlPathEqualTo("/v1/seats")).withHeader("Idempotency-Key", equalTo("req_a"))
                .withRequestBody(matchingJsonPath("$.role",
                        equalTo("admin"))));
        wm.verify(1, postRequestedFor(urlPathEqualTo("/v1/seats")).withHeader("Idempotency-Key", equalTo("req_m"))
                .withRequestBody(matchingJsonPath("$.role",
                        equalTo("member"))));
    }

    @Test
    void drivesTheInterviewVariantsToo() throws Exception {
        wm.stubFor(post(urlPathEqualTo("/v1/seats")).willReturn(aResponse().withStatus(201).withBody(SEAT.formatted("f"))));
        String stdin = "{\"requestId\":\"req_f\",\"workspaceId\":\"ws\",\"userId\":\"u\"}\n";
        int code = run(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                "run", "--server", wm.baseUrl(), "--events", "-", "--variant", "fixture");
        assertEquals(0, code);
        assertEquals(1, summary().get("granted").asInt());
        // The fixture sends no key: the variant really is the fixture.
        assertTrue(wm.findAll(postRequestedFor(urlPathEqualTo("/v1/seats"))).get(0).getHeader("Idempotency-Key") == null);
    }

    @Test
    void badCommandLinesExitTwoWithOneLine() {
        for (String[] args : List.of(
                new String[] {"run", "--events", "-"},
                new String[] {"run", "--server", "http://127.0.0.1:1", "--events", "-", "--variant", "yolo"},
                new String[] {"run", "--server", "http://127.0.0.1:1", "--events", "-", "--concurrency", "0"},
                new String[] {"run", "--server", "not a url?token=s3cr3t", "--events", "-"},
                new String[] {"run", "--server", "http://127.0.0.1:1", "--events", "-", "--bogus", "1"},
                new String[] {"run", "--server"},
                new String[] {"serve"},
                new String[] {})) {
            err.reset();
            out.reset();
            assertEquals(2, run(args), String.join(" ", args));
            String message = err.toString(StandardCharsets.UTF_8);
            assertFalse(message.isBlank());
            assertFalse(message.contains("s3cr3t"), "a bad flag value is never echoed: " + message);
            assertEquals("", out.toString(StandardCharsets.UTF_8));
        }
    }

    @Test
    void aMissingEventsFileExitsOne() {
        assertEquals(1, run("run", "--server", wm.baseUrl(), "--events", "/nonexistent/events.jsonl"));
    }

    @Test
    void helpGoesToStdout() {
        assertEquals(0, run("--help"));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("--concurrency"));
    }

    private static List<String> iterable(java.util.Iterator<String> it) {
        List<String> out = new java.util.ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }
}
