package dev.idempotent.seatgrant.server.grade;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The project's own workers, graded through {@code seat-grant-worker deliver} as any other language would be: the
 * answer key and the minimal patch pass; the fixture and each variant fail, on the check that names its defect.
 */
class GradeLabWorkersTest {

    private static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(60);

    private static GradeReport grade(String variant, String... only) {
        return new Grader(Workers.lab(variant), DELIVERY_TIMEOUT).grade(Set.of(only));
    }

    @Test
    void theAnswerKeyPassesEveryCheckOfTheCatalogue() {
        GradeReport report = grade("answer-key");
        assertEquals(Grader.catalogue().size(), report.checks().size());
        for (CheckResult check : report.checks()) {
            assertTrue(check.passed(), check.id() + ": " + check.evidence());
        }
        assertEquals(0, report.duplicates());
        assertEquals(8, report.sum());
        assertTrue(report.pass());
        // Evidence is read from the journal: the held-open check saw the retry carry the same key.
        assertTrue(report.check("committed-then-held-open").evidence().contains("the requestId on all 2"),
                report.check("committed-then-held-open").evidence());
    }

    @Test
    void theMinimalPatchPassesWithTheDefectsItKeeps() {
        GradeReport report = grade("minimal-patch");
        assertTrue(report.pass(), ReportWriter.table(report));
        assertEquals(0, report.duplicates());
        // What the minimal patch does not fix, the grader sees: no request timeout, Retry-After ignored, and an
        // in-progress 409 read as a replay. It keeps the base URL's path and logs no URL, so the leak check passes.
        assertFalse(report.check("committed-then-held-open").passed());
        assertTrue(report.check("committed-then-held-open").evidence().startsWith("no request timeout"),
                report.check("committed-then-held-open").evidence());
        assertFalse(report.check("retry-after-honoured").passed());
        assertFalse(report.check("in-progress-409-retried").passed());
        assertTrue(report.check("no-url-in-logs").passed(), report.check("no-url-in-logs").evidence());
        assertTrue(report.check("twin-deliveries").passed(), report.check("twin-deliveries").evidence());
        assertTrue(report.check("redelivery-after-nack").passed(), report.check("redelivery-after-nack").evidence());
    }

    @Test
    void theFixtureFailsWithDuplicateSeats() {
        GradeReport report = grade("fixture", "seed-1-201-once", "committed-then-504");
        assertFalse(report.check("seed-1-201-once").passed());
        assertTrue(report.check("seed-1-201-once").evidence().contains("no Idempotency-Key"),
                report.check("seed-1-201-once").evidence());
        assertFalse(report.check("committed-then-504").passed());
        assertTrue(report.check("committed-then-504").evidence().contains("seats: 2"),
                report.check("committed-then-504").evidence());
        // A duplicate fails the worker whatever the other checks would say.
        assertEquals(1, report.duplicates());
        assertEquals(0, report.signals().get(Signal.IDEMPOTENCY));
        assertFalse(report.pass());
    }

    @Test
    void localMapFailsOnRedelivery() {
        GradeReport report = grade("local-map", "redelivery-after-nack");
        CheckResult redelivery = report.check("redelivery-after-nack");
        assertFalse(redelivery.passed());
        assertTrue(redelivery.evidence().contains("the redelivery wrote a second seat"), redelivery.evidence());
        assertEquals(1, report.duplicates());
        assertFalse(report.pass());
    }

    @Test
    void checkThenPostSurvivesARedeliveryButNotTwins() {
        GradeReport report = grade("check-then-post", "twin-deliveries", "redelivery-after-nack");
        CheckResult twins = report.check("twin-deliveries");
        assertFalse(twins.passed());
        assertTrue(twins.evidence().contains("wrote 2 seats"), twins.evidence());
        // One at a time, looking first works: its defect is the race, and only the twins show it.
        assertTrue(report.check("redelivery-after-nack").passed(), report.check("redelivery-after-nack").evidence());
        assertEquals(1, report.duplicates());
        assertFalse(report.pass());
    }

    @Test
    void conflictIsFailureFailsOnTheReplayAndSoOnTheLostAnswers() {
        // The held-open check is left out only for time: it fails too, after three 10 s hangs.
        GradeReport report = grade("409-is-failure", "seed-2-reset-then-replay", "committed-then-504",
                "committed-then-close");
        CheckResult replay = report.check("seed-2-reset-then-replay");
        assertFalse(replay.passed());
        assertTrue(replay.evidence().contains("409 replay"), replay.evidence());
        assertTrue(report.checks().stream().noneMatch(CheckResult::passed), ReportWriter.table(report));
        // Never a second seat: the key works. Timeout semantics at 0 fails it all the same.
        assertEquals(0, report.duplicates());
        assertEquals(0, report.signals().get(Signal.TIMEOUT));
        assertFalse(report.pass());
    }
}
