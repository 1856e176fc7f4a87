package dev.idempotent.seatgrant.server.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.idempotent.seatgrant.server.FakeSeatServer;
import dev.idempotent.seatgrant.server.FaultPlan;
import dev.idempotent.seatgrant.server.Main;
import dev.idempotent.seatgrant.server.ServerConfig;
import dev.idempotent.seatgrant.server.internal.cli.ReproduceCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The main job, end to end and in-process: {@code reproduce} against real embedded servers over loopback, and
 * the numbers in its report. The fixture's numbers follow from the delivery plan exactly, so they are asserted
 * exactly; the answer key and the minimal patch must account for every event with one seat each.
 */
class ReproduceTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    record Run(int exit, String out, String err) { }

    private static Run reproduce(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] full = new String[args.length + 1];
        full[0] = "reproduce";
        System.arraycopy(args, 0, full, 1, args.length);
        int exit = Main.run(full, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static Map<String, JsonNode> byName(JsonNode report) {
        Map<String, JsonNode> rows = new HashMap<>();
        report.path("variants").forEach(v -> rows.put(v.path("name").asText(), v));
        return rows;
    }

    @Test
    void everyVariantShowsWhatItIsThereToShow() throws Exception {
        Run run = reproduce("--events", "12", "--seed", "7", "--json");

        assertEquals(0, run.exit(), run.err());
        JsonNode report = MAPPER.readTree(run.out());
        int events = report.path("events").asInt();
        int twins = report.path("twinDeliveries").asInt();
        int lostAcks = report.path("lostAcksAtRestart").asInt();
        assertEquals(12, events);
        assertTrue(twins > 0 && lostAcks > 0, "seed 7 must exercise both bus faults: " + run.out());
        Map<String, JsonNode> rows = byName(report);
        assertEquals(List.of("fixture", "check-then-post", "local-map", "409-is-failure", "minimal-patch", "answer-key"),
                report.path("variants").findValuesAsText("name"));

        // Every first POST is committed and answered 504; the fixture resends it without a key. A single delivery
        // ends with 2 seats, a twin delivery with 3, and each lost ack adds one more after the restart.
        JsonNode fixture = rows.get("fixture");
        long expectedExtra = (events - twins) + 2L * twins + lostAcks;
        assertEquals(expectedExtra, fixture.path("duplicates").asLong());
        assertEquals(events + expectedExtra, fixture.path("seats").asLong());
        assertEquals(fixture.path("seats").asLong(), fixture.path("posts").asLong(), "every keyless POST commits");
        assertEquals(0, fixture.path("failed").asInt());
        assertEquals(lostAcks, fixture.path("causes").path("afterRestart").asLong());

        JsonNode checkThenPost = rows.get("check-then-post");
        assertEquals(twins, checkThenPost.path("duplicates").asLong(), "only twin deliveries race past the check");
        assertEquals(twins, checkThenPost.path("causes").path("onTwinDeliveries").asLong());

        JsonNode localMap = rows.get("local-map");
        assertEquals(lostAcks, localMap.path("duplicates").asLong(), "only the restart forgets the map");
        assertEquals(lostAcks, localMap.path("causes").path("afterRestart").asLong());

        JsonNode conflictIsFailure = rows.get("409-is-failure");
        assertEquals(0, conflictIsFailure.path("duplicates").asLong(), "the key alone prevents the second seat");
        assertEquals(events, conflictIsFailure.path("seats").asLong());
        assertTrue(conflictIsFailure.path("failed").asInt() >= events - twins,
                "every event whose replay it read as failure is lost: " + conflictIsFailure);
        assertEquals("lost events", conflictIsFailure.path("verdict").asText());

        for (String safe : List.of("minimal-patch", "answer-key")) {
            JsonNode row = rows.get(safe);
            assertEquals(0, row.path("duplicates").asLong(), safe);
            assertEquals(0, row.path("failed").asInt(), safe);
            assertEquals(events, row.path("seats").asLong(), safe + ": one seat per grant, no grant missing");
            assertTrue(row.path("posts").asLong() > events, safe + " must have retried through the 504s");
            assertEquals("one seat each", row.path("verdict").asText(), safe);
        }
    }

    @Test
    void theTableNamesEachVariantItsVerdictAndTheCause() {
        Run run = reproduce("--events", "6", "--variant", "fixture", "--variant", "answer-key");

        assertEquals(0, run.exit(), run.err());
        List<String> lines = run.out().lines().toList();
        String fixture = lines.stream().filter(l -> l.startsWith("fixture ")).findFirst().orElseThrow();
        String answerKey = lines.stream().filter(l -> l.startsWith("answer-key ")).findFirst().orElseThrow();
        assertTrue(fixture.contains("duplicate seats") && fixture.contains("after a lost answer"), fixture);
        assertTrue(answerKey.contains("one seat each"), answerKey);
        assertEquals(2, lines.stream().filter(l -> l.matches("^(fixture|answer-key) .*")).count(), run.out());
    }

    @Test
    void theClosingLineClaimsOnlyWhatTheRowsShow() {
        Run safeOnly = reproduce("--events", "4", "--variant", "answer-key");

        assertEquals(0, safeOnly.exit(), safeOnly.err());
        assertTrue(safeOnly.out().contains("As expected: with the key read correctly, one seat each."),
                safeOnly.out());
        assertFalse(safeOnly.out().contains("without a key"), "no keyless variant ran: " + safeOnly.out());

        Run both = reproduce("--events", "4", "--variant", "fixture", "--variant", "answer-key");

        assertEquals(0, both.exit(), both.err());
        assertTrue(both.out().contains(
                "As expected: without a key the grant is duplicated; with the key read correctly, one seat each."),
                both.out());
    }

    @Test
    void aRunningServerCanBeTheTargetThroughItsAdminApi() throws Exception {
        try (FakeSeatServer server = FakeSeatServer.start(ServerConfig.builder().port(0).db("mem").build())) {
            Run run = reproduce("--events", "5", "--variant", "fixture", "--variant", "minimal-patch",
                    "--server", server.baseUri().toString(), "--json");

            assertEquals(0, run.exit(), run.err());
            assertTrue(run.err().contains("reproduce: watch it live at " + server.baseUri().resolve("/__admin/ui")),
                    run.err());
            Map<String, JsonNode> rows = byName(MAPPER.readTree(run.out()));
            assertTrue(rows.get("fixture").path("duplicates").asLong() >= 5, run.out());
            assertEquals(0, rows.get("minimal-patch").path("duplicates").asLong());
            // The server was reset before the last variant: what it holds now is the minimal patch's work alone.
            assertEquals(5, server.ledger().seats());
            assertTrue(server.ledger().duplicates().isEmpty());
            // The page labels the plan from this field: "scenario incident", as the README and the table say.
            HttpResponse<String> faults = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    server.baseUri().resolve("/__admin/faults")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals("incident", MAPPER.readTree(faults.body()).path("scenario").asText(), faults.body());
        }
    }

    @Test
    void theLabInstallsTheShippedScenarioUnlessItsRulesDrawFromAnotherSeed() {
        for (String scenario : List.of("incident", "reset")) {
            assertEquals(FaultPlan.scenario(scenario), IncidentLab.planFor(scenario, 8), "no rule draws: " + scenario);
        }
        FaultPlan flaky = FaultPlan.scenario("flaky");
        assertEquals(flaky, IncidentLab.planFor("flaky", flaky.seed()));
        assertEquals(new FaultPlan(8, flaky.rules()), IncidentLab.planFor("flaky", 8), "another seed, another draw");
    }

    @Test
    void theLabClosesTheAnswerKeyWorkersItCreates() {
        Set<Thread> before = workerThreads();

        Run run = reproduce("--events", "3", "--variant", "answer-key", "--scenario", "reset");

        assertEquals(0, run.exit(), run.err());
        assertEquals(Set.of(), workerThreads().stream().filter(t -> !before.contains(t)).map(Thread::getName)
                .collect(Collectors.toSet()), "both answer-key workers (before and after the restart) were closed");
    }

    /** Threads a SeatGrantWorker starts for its own client and timer; its close() joins them. */
    private static Set<Thread> workerThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("seat-grant-")).collect(Collectors.toSet());
    }

    @Test
    void anAdminApiThatAnswers401NamesTheTokenVariableBeforeAnythingIsPrinted() throws Exception {
        try (FakeSeatServer server = FakeSeatServer.start(ServerConfig.builder().port(0).db("mem")
                .adminToken("t0k3n-for-the-lab").build())) {
            List<String> args = List.of("--events", "1", "--variant", "answer-key", "--server",
                    server.baseUri().toString());
            for (String token : new String[] {null, "not-the-token"}) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                ByteArrayOutputStream err = new ByteArrayOutputStream();
                int exit = ReproduceCommand.run(ReproduceCommand.parse(args, token),
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));

                assertEquals(1, exit);
                List<String> lines = err.toString(StandardCharsets.UTF_8).lines().toList();
                assertEquals(1, lines.size(), "one line, and no page URL to a server the lab cannot use: " + lines);
                assertTrue(lines.get(0).startsWith("fake-server reproduce: the server's admin API answered 401: ")
                        && lines.get(0).contains("FAKE_SERVER_ADMIN_TOKEN"), lines.get(0));
                assertFalse(lines.get(0).contains("t0k3n") || (token != null && lines.get(0).contains(token)),
                        "no token in the message");
                assertEquals("", out.toString(StandardCharsets.UTF_8));
            }
        }
    }

    @Test
    void anUnreachableServerIsOneLineAndExitOne() throws Exception {
        int port;
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort();
        }
        Run run = reproduce("--events", "1", "--variant", "answer-key", "--server", "http://127.0.0.1:" + port);

        assertEquals(1, run.exit());
        // Checked before the page's URL is printed: no "watch it live" line sends the user to a server that is down.
        assertEquals(List.of("fake-server reproduce: nothing answers at 127.0.0.1:" + port + " (connection refused): "
                + "start the server first (fake-server serve), or point --server at the one that runs"),
                run.err().lines().toList());
        assertTrue(run.out().isEmpty());
    }

    @Test
    void badFlagsExitTwoWithOneLine() {
        for (String[] args : List.of(new String[] {"--events", "0"}, new String[] {"--variant", "retry-harder"},
                new String[] {"--scenario", "nope"}, new String[] {"--server", "ftp://x"}, new String[] {"--bogus"},
                new String[] {"--seed"})) {
            Run run = reproduce(args);
            assertEquals(2, run.exit(), String.join(" ", args));
            assertEquals(1, run.err().lines().count(), run.err());
            assertTrue(run.out().isEmpty());
        }
    }
}
