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
        assertEquals(5, five.sum());
        assertTrue(five.pass());
        // Every other signal perfect, timeouts at 0: fails, as the rubric's non-zero rule says.
        GradeReport noTimeouts = GradeReport.of(allPassingExcept("seed-2-reset-then-replay", "committed-then-504",
                "committed-then-close"));
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
    void anyDuplicateMakesIdempotencyZeroAndFailsTheWorker() {
        List<CheckResult> results = new ArrayList<>(allPassingExcept());
        CheckResult twins = results.stream().filter(c -> c.id().equals("twin-deliveries")).findFirst().orElseThrow();
        results.set(results.indexOf(twins), new CheckResult(twins.id(), twins.signal(), false, "2 seats", 1));
        GradeReport report = GradeReport.of(results);
        assertEquals(1, report.duplicates());
        assertEquals(0, report.signals().get(Signal.IDEMPOTENCY), "3 of 4 would be 1 without the duplicate");
        assertEquals(6, report.sum());
        assertFalse(report.pass());
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
        assertEquals(List.of("checks", "signals", "duplicates", "pass"), names(json));
        assertEquals(List.of("id", "signal", "passed", "evidence"), names(json.get("checks").get(0)));
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
