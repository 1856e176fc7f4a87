package dev.idempotent.seatgrant.server.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.idempotent.seatgrant.server.JavaProcess;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worker as a process against the fake server as a process, over loopback: what anyone gets by pointing
 * {@code seat-grant-worker run} at {@code fake-server serve}. The worker runs with the JSON-lines logging config
 * its runnable jar ships.
 */
class WorkerProcessTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Path SHIPPED_LOGGING = Path.of("..", "seat-grant-worker", "lab", "src", "shade", "logback.xml");

    @TempDir
    Path dir;

    private record Result(int exit, JsonNode summary, List<JsonNode> events, String stderr) { }

    private Result runWorker(URI server, String variant, String stdin) throws Exception {
        Path stderr = dir.resolve(variant + ".stderr");
        Process worker = JavaProcess.start(dev.idempotent.seatgrant.worker.cli.Main.class,
                List.of("-Dlogback.configurationFile=" + SHIPPED_LOGGING.toAbsolutePath().normalize()),
                List.of("run", "--server", server.toString(), "--events", "-", "--concurrency", "4",
                        "--variant", variant),
                ProcessBuilder.Redirect.to(stderr.toFile()));
        try (OutputStream in = worker.getOutputStream()) {
            in.write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        assertTrue(worker.waitFor(90, TimeUnit.SECONDS), "the worker did not finish");
        String out = new String(worker.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        String err = Files.readString(stderr);
        List<JsonNode> events = new ArrayList<>();
        for (String line : err.lines().toList()) {
            if (line.startsWith("{")) {
                events.add(MAPPER.readTree(line));
            }
        }
        return new Result(worker.exitValue(), MAPPER.readTree(out), events, err);
    }

    private static JsonNode ledger(URI server) throws Exception {
        HttpResponse<String> res = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(server.resolve("/__admin/ledger")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, res.statusCode());
        return MAPPER.readTree(res.body());
    }

    private static String events(int count) {
        StringBuilder lines = new StringBuilder();
        for (int i = 1; i <= count; i++) {
            lines.append(String.format("{\"requestId\":\"req_%d\",\"workspaceId\":\"ws_%d\",\"userId\":\"user_%d\"}%n",
                    i, i, i));
        }
        return lines.toString();
    }

    @Test
    void theAnswerKeyProcessGrantsOneSeatPerEventThroughResets() throws Exception {
        try (JavaProcess.Server server = JavaProcess.startServer("--db", "mem", "--scenario", "reset")) {
            String input = events(3) + "this is not json\n" + events(5).lines().skip(3)
                    .map(l -> l + "\n").reduce("", String::concat);

            Result result = runWorker(server.base(), "answer-key", input);

            assertEquals(1, result.exit(), "a malformed line makes the run exit 1: " + result.stderr());
            assertEquals(5, result.summary().path("events").asInt(), result.summary().toString());
            // Every first POST was committed and then reset: each event ends as a replay of its own seat.
            assertEquals(5, result.summary().path("replayed").asInt(), result.summary().toString());
            assertEquals(1, result.summary().path("malformed").asInt());
            assertTrue(result.events().stream().anyMatch(e -> e.path("message").asText().equals("seat.grant.malformed")
                    && e.path("kvpList").toString().contains("{\"line\":\"4\"}")),
                    "the malformed line is reported by its number: " + result.stderr());
            JsonNode ledger = ledger(server.base());
            assertEquals(5, ledger.path("seats").asInt());
            assertEquals(0, ledger.path("duplicates").size());

            long replayOutcomes = result.events().stream()
                    .filter(e -> e.path("message").asText().equals("seat.grant.outcome"))
                    .filter(e -> e.path("kvpList").toString().contains("{\"outcome\":\"replayed\"}"))
                    .count();
            assertEquals(5, replayOutcomes, "one structured outcome event per event on stderr: " + result.stderr());
            assertFalse(result.stderr().contains(server.base().toString()), "no URL in the worker's logs");
        }
    }

    @Test
    void theFixtureProcessDuplicatesEverySeatItRetried() throws Exception {
        try (JavaProcess.Server server = JavaProcess.startServer("--db", "mem", "--scenario", "reset")) {
            Result result = runWorker(server.base(), "fixture", events(4));

            assertEquals(0, result.exit(), result.stderr());
            assertEquals(4, result.summary().path("granted").asInt(), result.summary().toString());
            JsonNode ledger = ledger(server.base());
            assertEquals(8, ledger.path("seats").asInt(), "each keyless resend after a reset is a second seat");
            assertEquals(4, ledger.path("duplicates").size());
        }
    }
}
