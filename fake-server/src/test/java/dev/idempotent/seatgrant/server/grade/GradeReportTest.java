package dev.idempotent.seatgrant.server.grade;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The scoring rules, on hand-made results: no worker, no server. */
class GradeReportTest {

    private static CheckResult result(String id, Signal signal, boolean passed) {
        return new CheckResult(id, signal, passed, passed ? "fine" : "not fine", 0);
    }

    /** Every check of the catalogue, passing except the ids given. */
    private static List<CheckResult> allPassingExcept(String... failing) {
        List<String> fails = List.of(failing);
        List<CheckResult> results = new ArrayList<>();
        for (Grader.CheckInfo c : Grader.catalogue()) {
            results.add(result(c.id(), c.signal(), !fails.contains(c.id())));
        }
        return results;
    }

    @Test
    void aSignalIsTwoWhenAllPassOneWhenAtLeastHalfDoZeroOtherwise() {
        GradeReport report = GradeReport.of(List.of(
                result("a", Signal.TIMEOUT, true), result("b", Signal.TIMEOUT, true),
                result("c", Signal.IDEMPOTENCY, true), result("d", Signal.IDEMPOTENCY, false),
                result("e", Signal.ERROR_CLASSES, true), result("f", Signal.ERROR_CLASSES, false),
                result("g", Signal.ERROR_CLASSES, false),
                result("h", Signal.OBSERVABILITY, false)));
        assertEquals(2, report.signals().get(Signal.TIMEOUT));
        assertEquals(1, report.signals().get(Signal.IDEMPOTENCY), "one of two is half");
        assertEquals(0, report.signals().get(Signal.ERROR_CLASSES), "one of three is less than half");
        assertEquals(0, report.signals().get(Signal.OBSERVABILITY));
        assertEquals(3, report.sum());
        assertFalse(report.pass());
    }

    @Test
    void passNeedsTimeoutAndIdempotencyAtLeastOneAndASumOfFive() {
        assertTrue(GradeReport.of(allPassingExcept()).pass());
        // 1 + 2 + 1 + 1 = 5 with timeouts and idempotency non-zero: the lowest passing grade.
        GradeReport five = GradeReport.of(allPassingExcept("committed-then-held-open", "retry-after-honoured",
                "in-progress-409-retried", "no-url-in-logs"));
        assertEquals(1, five.signals().get(Signal.TIMEOUT), "4 of 5");
        assertEquals(5, five.sum());
        assertTrue(five.pass());
        // Every other signal perfect, timeouts at 0: fails, as the rubric's non-zero rule says.
        GradeReport noTimeouts = GradeReport.of(allPassingExcept("seed-2-reset-then-replay", "committed-then-504",
                "committed-then-close"));
        assertEquals(0, noTimeouts.signals().get(Signal.TIMEOUT), "2 of 5 is less than half");
        assertEquals(0, noTimeouts.signals().get(Signal.TIMEOUT));
        assertEquals(6, noTimeouts.sum());
        assertFalse(noTimeouts.pass());
        // 4 of 8 with both key signals non-zero: below the sum.
        GradeReport four = GradeReport.of(allPassingExcept("committed-then-held-open", "retry-after-honoured",
                "in-progress-409-retried", "no-url-in-logs", "twin-deliveries"));
        assertEquals(4, four.sum());
        assertFalse(four.pass());
    }

    @Test
    void withFiveTimeoutChecksASignalIsOneAtThreeOfFive() {
        assertEquals(5, Grader.catalogue().stream().filter(c -> c.signal() == Signal.TIMEOUT).count());
        assertEquals(1, GradeReport.of(allPassingExcept("committed-then-held-open", "committed-then-408"))
                .signals().get(Signal.TIMEOUT));
        assertEquals(0, GradeReport.of(allPassingExcept("committed-then-held-open", "committed-then-408",
                "committed-then-close")).signals().get(Signal.TIMEOUT));
    }

    @Test
    void anyDuplicateMakesIdempotencyZeroAndFailsTheWorker() {
        List<CheckResult> results = new ArrayList<>(allPassingExcept());
        CheckResult twins = results.stream().filter(c -> c.id().equals("twin-deliveries")).findFirst().orElseThrow();
        results.set(results.indexOf(twins), new CheckResult(twins.id(), twins.signal(), false, "2 seats", 1));
        GradeReport report = GradeReport.of(results);
        assertEquals(1, report.duplicates());
        assertEquals(0, report.signals().get(Signal.IDEMPOTENCY), "3 of 4 would be 1 without the duplicate");
        assertEquals(6, report.sum());
        assertFalse(report.pass());
        assertFalse(report.safety().passed());
        assertEquals("1 user ended with two seats or more: twin-deliveries", report.safety().reason());
        assertEquals(Result.FAIL, report.verdict());
    }

    @Test
    void aDeliveryThatNeverEndedFailsTheWorkerWhateverItsSum() {
        // tenacity's default stop_never: 7 of 8, and an outage that never became a nack.
        List<CheckResult> results = new ArrayList<>(allPassingExcept());
        CheckResult exhaustion = results.stream().filter(c -> c.id().equals("seed-5-exhaustion-is-a-nack")).findFirst()
                .orElseThrow();
        results.set(results.indexOf(exhaustion), new CheckResult(exhaustion.id(), exhaustion.signal(), Result.FAIL,
                "never gave up", 0, List.of(new DeliveryResult(null, true, 60_000, "", false)), 1, 0,
                "delivery 1 never ended: killed at the 60 s delivery timeout after 119 POSTs"));
        GradeReport report = GradeReport.of(results);
        assertEquals(7, report.sum());
        assertFalse(report.liveness().passed());
        assertEquals("seed-5-exhaustion-is-a-nack: delivery 1 never ended: killed at the 60 s delivery timeout after"
                + " 119 POSTs", report.liveness().reason());
        assertTrue(report.safety().passed());
        assertEquals(Result.FAIL, report.verdict());
        assertTrue(ReportWriter.table(report).contains("liveness gate: FAIL: seed-5-exhaustion-is-a-nack: delivery 1"
                + " never ended"), ReportWriter.table(report));
    }

    @Test
    void aRequestOutsideEveryDeliveryAnAckWithoutASeatAndATouchBesideTheApiEachFailAGateWhateverTheSum() {
        for (String gate : List.of("liveness", "outcome", "integrity")) {
            List<CheckResult> results = new ArrayList<>(allPassingExcept());
            CheckResult twins = results.stream().filter(c -> c.id().equals("twin-deliveries")).findFirst()
                    .orElseThrow();
            String finding = "what " + gate + " saw";
            results.set(results.indexOf(twins), new CheckResult(twins.id(), twins.signal(), Result.PASS, "fine", 0,
                    List.of(), 1, 1, null, gate.equals("liveness") ? finding : null,
                    gate.equals("outcome") ? finding : null, gate.equals("integrity") ? finding : null));
            GradeReport report = GradeReport.of(results);
            assertEquals(8, report.sum(), gate);
            assertEquals(Result.FAIL, report.verdict(), gate);
            Gate failed = switch (gate) {
                case "liveness" -> report.liveness();
                case "outcome" -> report.outcome();
                default -> report.integrity();
            };
            assertFalse(failed.passed(), gate);
            assertEquals("twin-deliveries: " + finding, failed.reason());
            assertTrue(report.safety().passed());
            assertTrue(ReportWriter.table(report).contains(gate + " gate: FAIL: twin-deliveries: " + finding),
                    ReportWriter.table(report));
            assertTrue(ReportWriter.table(report).contains("; the " + gate + " gate fails it"),
                    ReportWriter.table(report));
        }
    }

    @Test
    void inconclusiveChecksMakeTheVerdictInconclusiveOnlyWhenTheyDecideIt() {
        // Held-open and close failed. With the 408 check a pass, Timeout is 1 (3 of 5) and the worker passes; with it
        // a failure, Timeout is 0 (2 of 5) and the worker fails. The grader cannot tell which, so it says so.
        List<CheckResult> results = new ArrayList<>(allPassingExcept("committed-then-held-open", "committed-then-close"));
        replaceWithInconclusive(results, "committed-then-408");
        GradeReport decided = GradeReport.of(results);
        assertEquals(0, decided.signals().get(Signal.TIMEOUT), "an inconclusive check counts as not passed");
        assertEquals(Result.INCONCLUSIVE, decided.verdict());
        assertFalse(decided.pass());
        assertTrue(ReportWriter.table(decided).lines().anyMatch(l -> l.startsWith("committed-then-408")
                && l.contains("INCONCLUSIVE")), ReportWriter.table(decided));
        assertTrue(ReportWriter.table(decided).lines().anyMatch(l -> l.startsWith("INCONCLUSIVE:")));
        // The same inconclusive check beside a perfect catalogue: the worker passes whichever way it would have gone.
        List<CheckResult> passing = new ArrayList<>(allPassingExcept());
        replaceWithInconclusive(passing, "committed-then-408");
        assertEquals(Result.PASS, GradeReport.of(passing).verdict());
        // And beside a duplicate: the worker fails whichever way it would have gone.
        List<CheckResult> failing = new ArrayList<>(allPassingExcept("seed-1-201-once"));
        replaceWithInconclusive(failing, "committed-then-408");
        CheckResult twins = failing.stream().filter(c -> c.id().equals("twin-deliveries")).findFirst().orElseThrow();
        failing.set(failing.indexOf(twins), new CheckResult(twins.id(), twins.signal(), false, "3 seats", 1));
        assertEquals(Result.FAIL, GradeReport.of(failing).verdict());
    }

    @Test
    void aCheckThatPassesOnlySometimesFailsAndIsNamedFlaky() {
        CheckResult passed = result("retry-after-honoured", Signal.ERROR_CLASSES, true);
        CheckResult failed = new CheckResult("retry-after-honoured", Signal.ERROR_CLASSES, false,
                "retried 1.41 s after a 429 that said Retry-After: 2", 0);
        CheckResult merged = CheckResult.merge(List.of(passed, failed, passed));
        assertEquals(Result.FAIL, merged.result());
        assertTrue(merged.flaky());
        assertEquals(3, merged.runs());
        assertEquals(2, merged.passes());
        assertEquals("flaky: passed 2 of 3 runs; run 2: retried 1.41 s after a 429 that said Retry-After: 2",
                merged.evidence());
        CheckResult steady = CheckResult.merge(List.of(passed, passed, passed));
        assertEquals(Result.PASS, steady.result());
        assertFalse(steady.flaky());
        assertEquals(3, steady.passes());
        CheckResult never = CheckResult.merge(List.of(failed, failed));
        assertEquals(Result.FAIL, never.result());
        assertFalse(never.flaky(), "failing every time is a failure, not flakiness");
    }

    private static void replaceWithInconclusive(List<CheckResult> results, String id) {
        CheckResult c = results.stream().filter(r -> r.id().equals(id)).findFirst().orElseThrow();
        results.set(results.indexOf(c), new CheckResult(c.id(), c.signal(), Result.INCONCLUSIVE, "slow server", 0,
                List.of(), 1, 0, null));
    }

    @Test
    void aSignalWithNoCheckRunScoresZero() {
        GradeReport report = GradeReport.of(List.of(result("a", Signal.TIMEOUT, true)));
        assertEquals(2, report.signals().get(Signal.TIMEOUT));
        assertEquals(0, report.signals().get(Signal.IDEMPOTENCY));
        assertFalse(report.pass());
    }

    @Test
    void jsonHasExactlyTheIssuesFields() throws Exception {
        JsonNode json = new ObjectMapper().readTree(ReportWriter.json(GradeReport.of(allPassingExcept("no-url-in-logs"))));
        assertEquals(List.of("checks", "signals", "duplicates", "gates", "pass", "verdict"), names(json));
        assertEquals(List.of("id", "signal", "passed", "result", "runs", "passes", "flaky", "evidence", "deliveries"),
                names(json.get("checks").get(0)));
        assertEquals(List.of("safety", "liveness", "outcome", "integrity"), names(json.get("gates")));
        for (JsonNode gate : json.get("gates")) {
            assertEquals(List.of("passed", "reason"), names(gate));
            assertTrue(gate.get("passed").asBoolean(), gate.toString());
        }
        assertEquals("pass", json.get("verdict").asText());
        assertEquals(List.of("timeout", "idempotency", "errorClasses", "observability"), names(json.get("signals")));
        assertEquals(Grader.catalogue().size(), json.get("checks").size());
        JsonNode leak = json.get("checks").get(Grader.catalogue().size() - 1);
        assertEquals("no-url-in-logs", leak.get("id").asText());
        assertEquals("observability", leak.get("signal").asText());
        assertFalse(leak.get("passed").asBoolean());
        assertEquals(1, json.get("signals").get("observability").asInt());
        assertTrue(json.get("pass").asBoolean());
    }

    @Test
    void theTableNamesEverySignalAndLeavesPatchSizeToAHuman() {
        String table = ReportWriter.table(GradeReport.of(allPassingExcept("twin-deliveries")));
        for (Signal s : Signal.values()) {
            assertTrue(table.contains(s.title()), s.title());
        }
        assertTrue(table.contains("Patch size"));
        assertTrue(table.contains("needs a human"));
        assertTrue(table.lines().anyMatch(l -> l.startsWith("twin-deliveries") && l.contains("FAIL")), table);
        assertTrue(table.lines().anyMatch(l -> l.startsWith("PASS")), table);
    }

    private static List<String> names(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
