package dev.idempotent.seatgrant.server.grade;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.idempotent.seatgrant.server.Main;
import dev.idempotent.seatgrant.server.internal.cli.GradeCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code fake-server grade} as a command line: flags, exit codes, the list, the JSON. */
class GradeCommandTest {

    /** The token of a check's base path, as {@code Catalogue.basePath()} draws it. */
    private static final java.util.regex.Pattern TOKEN = java.util.regex.Pattern.compile("[0-9a-f]{24}");


    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int grade(String... args) {
        out.reset();
        err.reset();
        String[] all = new String[args.length + 1];
        all[0] = "grade";
        System.arraycopy(args, 0, all, 1, args.length);
        return Main.run(all, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void helpExplainsTheContractAndTheFlags() {
        assertEquals(0, grade("--help"));
        for (String expected : List.of("SEATS_BASE_URL", "--json", "--only", "--timeout-per-delivery", "--list",
                "--repeat N", "3 rejects", "2 s, then 4 s", "liveness gate", "safety gate", "outcome gate",
                "integrity gate", "default 60s", "--mapping FILE", "no admin API", "4 inconclusive")) {
            assertTrue(out().contains(expected), expected);
        }
        assertEquals(0, Main.run(new String[] {"--help"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)));
        assertTrue(out().contains("grade"), "the top-level usage lists grade");
    }

    @Test
    void listPrintsEveryCheckOnceWithItsSignal() {
        assertEquals(0, grade("--list"));
        List<String> lines = out().lines().toList();
        assertEquals(Grader.catalogue().size(), lines.size());
        for (int i = 0; i < lines.size(); i++) {
            Grader.CheckInfo check = Grader.catalogue().get(i);
            assertTrue(lines.get(i).startsWith(check.id() + " "), lines.get(i));
            assertTrue(lines.get(i).contains(check.signal().jsonName()), lines.get(i));
            assertTrue(check.id().matches("[a-z0-9]+(-[a-z0-9]+)*"), "kebab-case: " + check.id());
        }
        assertEquals(17, Grader.catalogue().size());
    }

    @Test
    void badCommandLinesExitTwoWithOneLineAndPrintNothing() {
        for (String[] args : List.of(
                new String[] {},
                new String[] {"--json"},
                new String[] {"--"},
                new String[] {"node", "worker.mjs"},
                new String[] {"--bogus", "--", "true"},
                new String[] {"--only", "twins-of-doom", "--", "true"},
                new String[] {"--only", "", "--", "true"},
                new String[] {"--only", "--", "true"},
                new String[] {"--timeout-per-delivery", "soon", "--", "true"},
                new String[] {"--timeout-per-delivery", "0s", "--", "true"},
                new String[] {"--timeout-per-delivery", "11m", "--", "true"},
                new String[] {"--timeout-per-delivery", "5", "--", "true"},
                new String[] {"--repeat", "0", "--", "true"},
                new String[] {"--repeat", "21", "--", "true"},
                new String[] {"--repeat", "two", "--", "true"})) {
            assertEquals(2, grade(args), String.join(" ", args));
            assertEquals(1, err().lines().count(), String.join(" ", args) + ": " + err());
            assertEquals("", out(), String.join(" ", args));
        }
    }

    @Test
    void anUnknownCheckPointsToTheListOnceAndNothingElse() {
        assertEquals(2, grade("--only", "nope", "--", "true"));
        assertEquals(List.of("fake-server grade: --only: no check called 'nope' (see fake-server grade --list)"),
                err().lines().toList());
        assertEquals(2, grade("--repeat", "0", "--", "true"));
        assertEquals(List.of("fake-server grade: --repeat must be a whole number from 1 to 20"
                + " (see fake-server grade --help)"), err().lines().toList());
    }

    @Test
    void aWorkerThatCannotBeStartedExitsTwoWithOneLine() {
        assertEquals(2, grade("--only", "seed-1-201-once", "--", "/nonexistent/seat-grant-worker"));
        assertEquals(1, err().lines().count(), err());
        assertTrue(err().contains("cannot start the worker"), err());
        assertEquals("", out());
    }

    @Test
    void aWorkerThatNeverReachesTheServerStopsTheGradingWithItsFirstStderrLine() {
        // A wrong jar path looks like this: the process starts, fails before any request, and says why on stderr.
        assertEquals(2, grade("--", "sh", "-c", "echo '  boom  ' >&2; echo second >&2; exit 1"));
        assertEquals(List.of("fake-server grade: the worker never reached the server in its first delivery (exit 1);"
                + " first line of its stderr: boom"), err().lines().toList());
        assertEquals("", out(), "no report: every check would have scored 0 for the same reason");
    }

    @Test
    void theStderrLineShownForAnUnreachedServerIsCutAndNeverNamesTheBaseUrl() {
        // Every check serves the API under a base path drawn per trial (a word, then a 24-hex-digit token), which the
        // line must not repeat.
        assertEquals(2, grade("--only", "no-url-in-logs", "--", "sh", "-c",
                "echo \"cannot reach $SEATS_BASE_URL/v1/seats at ${SEATS_BASE_URL#http://}:"
                        + " $(head -c 300 /dev/zero | tr '\\0' y)\" >&2; exit 7"));
        String line = err().strip();
        assertEquals(1, err().lines().count(), err());
        assertTrue(line.contains("(exit 7); first line of its stderr: cannot reach [SEATS_BASE_URL]/v1/seats at"
                + " [SEATS_BASE_URL]"), line);
        assertFalse(line.contains("127.0.0.1") || TOKEN.matcher(line).find(), line);
        String shown = line.substring(line.indexOf("stderr: ") + "stderr: ".length());
        assertEquals(203, shown.length(), "200 characters and an ellipsis: " + shown);
        assertTrue(shown.endsWith("yyy..."), shown);
    }

    @Test
    void jsonIsOneObjectAndAWorkerThatNeverPostsFails() throws Exception {
        // Reads its event, says so, does nothing, acknowledges: the laziest worker there is.
        int code = grade("--json", "--only", "seed-1-201-once,seed-3-400-not-retried", "--timeout-per-delivery", "20s",
                "--", "sh", "-c", "cat > /dev/null; echo 'nothing to do'; exit 0");
        assertEquals(1, code, err());
        List<String> lines = out().lines().toList();
        assertEquals(1, lines.size(), out());
        JsonNode json = new ObjectMapper().readTree(lines.get(0));
        assertEquals(List.of("checks", "signals", "duplicates", "gates", "pass", "verdict"), names(json));
        assertEquals(2, json.get("checks").size());
        for (JsonNode check : json.get("checks")) {
            assertFalse(check.get("passed").asBoolean(), check.toString());
            assertEquals("fail", check.get("result").asText());
            assertEquals(1, check.get("runs").asInt());
            assertEquals(0, check.get("passes").asInt());
            assertFalse(check.get("flaky").asBoolean());
            assertTrue(check.get("evidence").asText().startsWith("never POSTed"), check.toString());
            JsonNode delivery = check.get("deliveries").get(0);
            assertEquals(List.of("exit", "killed", "ms", "output", "outputTruncated"), names(delivery));
            assertEquals(0, delivery.get("exit").asInt());
            assertFalse(delivery.get("killed").asBoolean());
            assertEquals("nothing to do\n", delivery.get("output").asText());
            assertFalse(delivery.get("outputTruncated").asBoolean());
        }
        assertEquals("idempotency", json.get("checks").get(0).get("signal").asText());
        assertEquals("errorClasses", json.get("checks").get(1).get("signal").asText());
        assertEquals(0, json.get("duplicates").asInt());
        assertTrue(json.get("gates").get("safety").get("passed").asBoolean());
        assertTrue(json.get("gates").get("liveness").get("passed").asBoolean());
        // It acked an event it never granted: the outcome gate names the lost grant.
        assertFalse(json.get("gates").get("outcome").get("passed").asBoolean());
        assertTrue(json.get("gates").get("outcome").get("reason").asText().startsWith("seed-1-201-once: the event"
                + " (requestId "), json.get("gates").get("outcome").toString());
        assertTrue(json.get("gates").get("integrity").get("passed").asBoolean());
        assertFalse(json.get("pass").asBoolean());
        assertEquals("fail", json.get("verdict").asText());
    }

    @Test
    void theJsonKeepsEightKibOfEachDeliverysOutputWithTheBaseUrlRedacted() throws Exception {
        // Names the base URL, its host and port, and its token, then prints 20 KiB: the report keeps 8 KiB of it.
        int code = grade("--json", "--only", "no-url-in-logs", "--", "sh", "-c",
                "cat > /dev/null; echo \"at $SEATS_BASE_URL on ${SEATS_BASE_URL#http://}\"; head -c 20480 /dev/zero"
                        + " | tr '\\0' y; curl -s -o /dev/null -X POST \"$SEATS_BASE_URL/v1/seats\""
                        + " -H 'content-type: application/json' -d '{}'; exit 3");
        assertEquals(1, code, err());
        JsonNode check = new ObjectMapper().readTree(out()).get("checks").get(0);
        assertEquals(1, check.get("deliveries").size(), "a reject is not redelivered");
        for (JsonNode delivery : check.get("deliveries")) {
            String output = delivery.get("output").asText();
            assertTrue(output.startsWith("at [SEATS_BASE_URL] on [SEATS_BASE_URL]\nyyy"), output.substring(0, 80));
            assertFalse(output.contains("127.0.0.1") || TOKEN.matcher(output).find(), output.substring(0, 80));
            assertEquals(DeliveryResult.MAX_OUTPUT_BYTES, output.getBytes(StandardCharsets.UTF_8).length);
            assertTrue(delivery.get("outputTruncated").asBoolean());
            assertEquals(3, delivery.get("exit").asInt());
        }
        assertTrue(check.get("evidence").asText().contains("a log line names the base URL: at [SEATS_BASE_URL]"),
                check.get("evidence").asText());
    }

    @Test
    void repeatGradesFromFreshStateAndACheckThatPassesOnlySometimesFailsAsFlaky(@TempDir Path dir) throws Exception {
        assumeTrue(Workers.installed("python3"), "python3 is not installed: skipping the Python worker");
        // Ignores Retry-After in its first process and honours it in its second: one run fails, the other passes.
        List<String> args = new ArrayList<>(List.of("--json", "--repeat", "2", "--only", "retry-after-honoured", "--"));
        args.addAll(Workers.python("--flaky-retry-after", dir.resolve("runs").toString()));
        assertEquals(1, grade(args.toArray(String[]::new)), err());
        JsonNode check = new ObjectMapper().readTree(out()).get("checks").get(0);
        assertEquals("fail", check.get("result").asText());
        assertEquals(2, check.get("runs").asInt());
        assertEquals(1, check.get("passes").asInt());
        assertTrue(check.get("flaky").asBoolean());
        assertTrue(check.get("evidence").asText().matches("flaky: passed 1 of 2 runs; run \\d: retried 0\\.\\d\\d s"
                + " after a 429 that said Retry-After: 2 .*"), check.get("evidence").asText());
    }

    @Test
    void withoutTheFlagEachDeliveryMayRunSixtySeconds() throws Exception {
        // The grade tests pass shorter timeouts of their own; this is the one a user gets.
        assertEquals(Duration.ofSeconds(60), Grader.DEFAULT_TIMEOUT_PER_DELIVERY);
        assertEquals(Grader.DEFAULT_TIMEOUT_PER_DELIVERY, GradeCommand.parse(List.of("--", "true")).timeout());
        assertEquals(Duration.ofSeconds(90), GradeCommand.parse(List.of("--timeout-per-delivery", "90s", "--", "true"))
                .timeout());
    }

    @Test
    void aWorkerThatOutlivesTheDeliveryTimeoutFailsTheLivenessGateAndTheReportSaysWhere() throws Exception {
        int code = grade("--json", "--only", "seed-5-exhaustion-is-a-nack", "--timeout-per-delivery", "1s",
                "--", "sh", "-c", "cat > /dev/null; sleep 30");
        assertEquals(1, code, err());
        JsonNode json = new ObjectMapper().readTree(out());
        JsonNode check = json.get("checks").get(0);
        assertEquals("fail", check.get("result").asText());
        assertTrue(check.get("evidence").asText().contains("killed at the delivery timeout"), check.toString());
        assertEquals(1, check.get("deliveries").size(), "a killed delivery is not redelivered");
        assertTrue(check.get("deliveries").get(0).get("killed").asBoolean());
        assertTrue(check.get("deliveries").get(0).get("exit").isNull());
        JsonNode liveness = json.get("gates").get("liveness");
        assertFalse(liveness.get("passed").asBoolean());
        assertEquals("seed-5-exhaustion-is-a-nack: delivery 1 never ended: killed at the 1 s delivery timeout"
                + " without a single request", liveness.get("reason").asText());
        assertEquals("fail", json.get("verdict").asText());
    }

    @Test
    void noNamespaceFallsBackToProcessGroupsAndTheReportSaysSoOnce() {
        assertEquals(1, grade("--no-namespace", "--only", "seed-1-201-once", "--", "sh", "-c",
                "cat > /dev/null; exit 0"));
        assertEquals(1, out().lines().filter(l -> l.contains("containment")).count(), out());
        assertEquals("containment: process groups only", out().strip().lines().reduce((a, b) -> b).orElseThrow());
        // With --json, whose keys are fixed, it goes to stderr.
        assertEquals(1, grade("--json", "--no-namespace", "--only", "seed-1-201-once", "--", "sh", "-c",
                "cat > /dev/null; exit 0"));
        assertEquals("containment: process groups only", err().strip());
        assertFalse(out().contains("containment"), out());
    }

    @Test
    void handoutAndMappingTogetherAreAUsageError(@TempDir Path dir) {
        assertEquals(2, grade("--handout", dir.toString(), "--mapping", dir.resolve("mapping.tsv").toString(), "--",
                "true"));
        assertTrue(err().contains("give --handout DIR or --mapping FILE, not both"), err());
        assertEquals("", out());
    }

    @Test
    void aWorkerWrittenToAHandoutsNamesIsGradedInThemWithHandout(@TempDir Path dir) throws Exception {
        assumeTrue(Workers.installed("curl"), "curl is not installed: skipping the shell worker");
        Files.writeString(dir.resolve("mapping.tsv"), "# seat-grant handout, domain zqdomain. kind, packet, handout"
                + " (tab-separated).\ntoken\trequestId\tzqCaseNo\ntoken\tworkspaceId\tzqShop\ntoken\tuserId\tzqBuyer\n"
                + "token\trole\tzqWhy\ntoken\tmember\tzq_usual\ntoken\tseatId\tzqthingNo\n"
                + "token\tv1/seats\tv9/zq-things\ntoken\tSEATS_BASE_URL\tZQ_THINGS_ROOT\n");
        // Its event, route, body and variable are all the handout's; the body is the event less its id.
        String worker = "event=$(cat); id=$(printf '%s' \"$event\" | sed 's/.*\"zqCaseNo\":\"\\([^\"]*\\)\".*/\\1/');"
                + " body=$(printf '%s' \"$event\" | sed 's/\"zqCaseNo\":\"[^\"]*\",//');"
                + " status=$(curl -s -o /dev/null -w '%{http_code}' -X POST \"$ZQ_THINGS_ROOT/v9/zq-things\""
                + " -H 'content-type: application/json' -H \"idempotency-key: $id\" -d \"$body\");"
                + " echo \"zqCaseNo=$id status=$status\" >&2; [ \"$status\" = 201 ]";
        // One check: its own pass, the sum short of the verdict's.
        assertEquals(1, grade("--handout", dir.toString(), "--only", "seed-1-201-once", "--", "sh", "-c", worker),
                out() + err());
        assertTrue(out().lines().anyMatch(l -> l.startsWith("seed-1-201-once") && l.contains(" pass ")
                && l.contains("one POST with the zqCaseNo as its key, acked")), out());
        assertTrue(out().contains("safety gate: pass"), out());
        // The same worker graded in the packet's names never finds its variable, route or fields.
        assertEquals(2, grade("--only", "seed-1-201-once", "--", "sh", "-c", worker), out() + err());
    }

    @Test
    void aHandoutsMappingMakesTheReportSpeakTheHandoutsNamesAndKeepsIdsAndKeys(@TempDir Path dir) throws Exception {
        Path mapping = dir.resolve("mapping.tsv");
        // Names no handout template composes, so this test never collides with a real handout's vocabulary.
        Files.writeString(mapping, "# seat-grant handout, domain zqdomain. kind, packet, handout (tab-separated).\n"
                + "token\trequestId\tzqCaseNo\ntoken\trequestid\tzqcaseno\ntoken\tseatId\tzqthingNo\n"
                + "token\tv1/seats\tv9/zq-things\ntoken\tSEATS_BASE_URL\tZQ_THINGS_ROOT\n"
                + "literal\tsome words\tother words\n");
        // Acks without a request, then touches an admin path: the evidence and two gates have prose to translate.
        int code = grade("--json", "--mapping", mapping.toString(), "--only",
                "seed-1-201-once,requestid-in-every-attempt-log", "--", "bash", "-c",
                "cat > /dev/null; hp=${SEATS_BASE_URL#http://}; hp=${hp%%/*}; exec 3<>/dev/tcp/${hp%:*}/${hp##*:};"
                        + " printf 'GET /__admin/health HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\n\\r\\n' >&3;"
                        + " cat <&3 > /dev/null; exit 0");
        assertEquals(1, code, err());
        JsonNode json = new ObjectMapper().readTree(out());
        List<String> prose = new ArrayList<>();
        json.get("checks").forEach(c -> prose.add(c.get("evidence").asText()));
        json.get("gates").forEach(g -> prose.add(g.get("reason").asText()));
        String all = String.join("\n", prose);
        assertTrue(all.contains("zqthings: 0"), all);
        assertTrue(all.contains("the event (zqCaseNo "), all);
        assertTrue(all.contains("no zqthing exists"), all);
        assertTrue(all.contains("a worker touches /v9/zq-things and nothing else"), all);
        assertFalse(all.matches("(?s).*(?i)(seat|requestId).*"), all);
        // Ids and keys are the report's interface: unchanged.
        assertEquals("seed-1-201-once", json.get("checks").get(0).get("id").asText());
        assertEquals("requestid-in-every-attempt-log", json.get("checks").get(1).get("id").asText());
        assertTrue(json.get("gates").get("outcome").get("reason").asText().startsWith("seed-1-201-once: "),
                json.get("gates").toString());
        assertEquals(List.of("safety", "liveness", "outcome", "integrity"), names(json.get("gates")));
        // And the table speaks the same names.
        assertEquals(1, grade("--mapping", mapping.toString(), "--only", "seed-1-201-once", "--", "bash", "-c",
                "cat > /dev/null; exit 0"));
        assertTrue(out().contains("users left with more than one zqthing"), out());
        assertTrue(out().lines().anyMatch(l -> l.startsWith("seed-1-201-once ")), out());
    }

    @Test
    void aMappingThatIsNotAHandoutsExitsTwoWithOneLine(@TempDir Path dir) throws Exception {
        Path notOne = dir.resolve("mapping.tsv");
        Files.writeString(notOne, "requestId\tzqCaseNo\n");
        assertEquals(2, grade("--mapping", notOne.toString(), "--", "true"));
        assertEquals(List.of("fake-server grade: --mapping: cannot read it as a handout's mapping.tsv (not a handout"
                + " mapping (no header line))"), err().lines().toList());
        assertEquals(2, grade("--mapping", dir.resolve("absent.tsv").toString(), "--", "true"));
        assertEquals(List.of("fake-server grade: --mapping: cannot read it as a handout's mapping.tsv"
                + " (NoSuchFileException)"), err().lines().toList());
        assertEquals("", out());
    }

    private static List<String> names(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
