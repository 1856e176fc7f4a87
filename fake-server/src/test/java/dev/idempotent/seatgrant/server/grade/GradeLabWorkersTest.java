package dev.idempotent.seatgrant.server.grade;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The project's own workers, graded through {@code seat-grant-worker deliver} as any other language would be: the
 * answer key and the minimal patch pass; the fixture and each variant fail, on the check that names its defect.
 *
 * <p>Every delivery here starts a JVM, and most of a grade is waiting (holds, backoffs, the bus's redelivery
 * delays), so the six grades start together in {@link #gradeAll()}, two at a time, longest first; each test reads
 * its own. Each variant runs only the checks that show its defect.
 */
class GradeLabWorkersTest {

    /**
     * No lab worker runs for long (the minimal patch's longest delivery waits out the 10 s hang), so a generous
     * bound costs nothing, and a JVM started on a machine starved for CPU is not killed as if it never ended.
     */
    private static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(180);
    private static final int AT_ONCE = 2;

    /** Each grade this class makes, by variant, with the checks it runs (none: all of them); longest first. */
    private static final Map<String, List<String>> GRADES = new LinkedHashMap<>();
    private static final Map<String, CompletableFuture<GradeReport>> REPORTS = new LinkedHashMap<>();
    private static ExecutorService lanes;

    static {
        GRADES.put("minimal-patch", List.of());
        GRADES.put("answer-key", List.of());
        GRADES.put("409-is-failure", List.of("seed-2-reset-then-replay"));
        GRADES.put("check-then-post", List.of("twin-deliveries", "redelivery-after-nack"));
        GRADES.put("local-map", List.of("redelivery-after-nack"));
        GRADES.put("fixture", List.of("seed-1-201-once", "committed-then-504"));
    }

    @BeforeAll
    static void gradeAll() {
        lanes = Executors.newFixedThreadPool(AT_ONCE);
        GRADES.forEach((variant, only) -> REPORTS.put(variant, CompletableFuture.supplyAsync(
                () -> Conclusive.grade(new Grader(Workers.lab(variant), DELIVERY_TIMEOUT), Set.copyOf(only)), lanes)));
    }

    @AfterAll
    static void stopLanes() {
        lanes.shutdownNow();
    }

    private static GradeReport grade(String variant, String... only) {
        assertEquals(GRADES.get(variant), List.of(only), "the checks " + variant + " is graded on");
        return REPORTS.get(variant).join();
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
        // A 408 is "grant_failed" to it, so it nacks; the bus's redelivery resends with the key and replays.
        CheckResult timeout408 = report.check("committed-then-408");
        assertTrue(timeout408.passed(), timeout408.evidence());
        assertTrue(timeout408.evidence().startsWith("nacked after a 408 after the commit; the bus redelivered"),
                timeout408.evidence());
        assertEquals(1, report.signals().get(Signal.TIMEOUT), "4 of 5: held-open");
        assertEquals(1, report.signals().get(Signal.ERROR_CLASSES), "4 of 6: Retry-After, in-progress 409");
        assertEquals(6, report.sum());
    }

    @Test
    void theFixtureFailsOnTheSafetyGateNotOnTheTimeoutItHandles() {
        GradeReport report = grade("fixture", "seed-1-201-once", "committed-then-504");
        assertFalse(report.check("seed-1-201-once").passed());
        assertTrue(report.check("seed-1-201-once").evidence().contains("no Idempotency-Key"),
                report.check("seed-1-201-once").evidence());
        // It resends after a lost answer, which is what the timeout check asks; its missing key is Idempotency's.
        CheckResult lost = report.check("committed-then-504");
        assertTrue(lost.passed(), lost.evidence());
        assertTrue(lost.evidence().contains("keys: none on all 2 | seats: 2"), lost.evidence());
        assertEquals(1, report.duplicates());
        assertEquals(0, report.signals().get(Signal.IDEMPOTENCY));
        assertFalse(report.safety().passed());
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
        // The other timeout checks are left out only for time: each fails the same way, after three JVM deliveries.
        GradeReport report = grade("409-is-failure", "seed-2-reset-then-replay");
        CheckResult replay = report.check("seed-2-reset-then-replay");
        assertFalse(replay.passed());
        assertTrue(replay.evidence().startsWith("kept POSTing after the resend was answered (409 replay)"),
                replay.evidence());
        assertTrue(report.checks().stream().noneMatch(CheckResult::passed), ReportWriter.table(report));
        // Never a second seat: the key works. Timeout semantics at 0 fails it all the same.
        assertEquals(0, report.duplicates());
        assertEquals(0, report.signals().get(Signal.TIMEOUT));
        assertFalse(report.pass());
    }
}
