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
 * <p>Every delivery here starts a JVM, which is most of the class's time on a small machine, so the six grades start
 * together in {@link #gradeAll()}, two at a time, longest first; each test reads its own. Each variant runs only the
 * checks that show its defect, and the bus redelivers a nacked event at once: no verdict here hangs on its 2 s and
 * 4 s waits (GradeBusTest and GradeCalibrationTest keep those).
 */
class GradeLabWorkersTest {

    /**
     * No lab worker runs for long (the minimal patch's longest delivery waits out the 10 s hang), so a generous
     * bound costs nothing, and a JVM started on a machine starved for CPU is not killed as if it never ended.
     */
    private static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(180);
    /**
     * The held-open check's hold here: the shipped 30 s is there so that no usual request timeout sits on its
     * boundary; the lab workers' timeouts are 5 s (the answer key) or none (the minimal patch), which 12 s tells
     * apart as well, and the minimal patch need not wait 30 s.
     */
    private static final Duration HOLD = Duration.ofSeconds(12);
    private static final int AT_ONCE = 2;
    /** The bus's wait between a nack and the redelivery, skipped. */
    private static final Trial.Pauser NO_WAITS = duration -> { };

    /** Each grade this class makes, by variant, with the checks it runs (none: all of them); longest first. */
    private static final Map<String, List<String>> GRADES = new LinkedHashMap<>();
    private static final Map<String, CompletableFuture<GradeReport>> REPORTS = new LinkedHashMap<>();
    private static ExecutorService lanes;

    static {
        GRADES.put("minimal-patch", List.of());
        GRADES.put("answer-key", List.of());
        GRADES.put("409-is-failure", List.of("seed-2-reset-then-replay", "in-progress-409-retried"));
        GRADES.put("check-then-post", List.of("twin-deliveries", "redelivery-after-nack"));
        GRADES.put("local-map", List.of("redelivery-after-nack"));
        GRADES.put("fixture", List.of("seed-1-201-once", "committed-then-504"));
    }

    @BeforeAll
    static void gradeAll() {
        lanes = Executors.newFixedThreadPool(AT_ONCE);
        GRADES.forEach((variant, only) -> REPORTS.put(variant, CompletableFuture.supplyAsync(
                () -> Conclusive.grade(new Grader(Workers.lab(variant), DELIVERY_TIMEOUT, NO_WAITS, HOLD), Set.copyOf(only)),
                lanes)));
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
        assertTrue(report.outcome().passed() && report.integrity().passed() && report.liveness().passed(),
                ReportWriter.table(report));
        // Evidence is read from the journal: the held-open check saw the retry carry the same key.
        assertTrue(report.check("committed-then-held-open").evidence().contains("the requestId on all 2"),
                report.check("committed-then-held-open").evidence());
    }

    @Test
    void theMinimalPatchPassesWithTheDefectsItKeeps() {
        // Unchanged by issue 34: it keeps the key on every POST, and every event's end agrees with its seat.
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
    void theFixtureFailsOnTheSafetyGateAndItsKeylessResendEarnsNoTimeoutCredit() {
        GradeReport report = grade("fixture", "seed-1-201-once", "committed-then-504");
        assertFalse(report.check("seed-1-201-once").passed());
        assertTrue(report.check("seed-1-201-once").evidence().contains("no Idempotency-Key"),
                report.check("seed-1-201-once").evidence());
        // Issue 34 moved this signal: a resend without the key ignores the commit, the rubric's Timeout column read
        // literally, so it no longer earns Timeout credit (it passed here before). The verdict was and is FAIL.
        CheckResult lost = report.check("committed-then-504");
        assertFalse(lost.passed(), lost.evidence());
        assertTrue(lost.evidence().startsWith("resent after a 504 after the commit without an Idempotency-Key"),
                lost.evidence());
        assertTrue(lost.evidence().contains("keys: none on all 2 | seats: 2"), lost.evidence());
        assertEquals(0, report.signals().get(Signal.TIMEOUT));
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
    void conflictIsFailureLosesErrorClassesAndFailsTheOutcomeGate() {
        GradeReport report = grade("409-is-failure", "seed-2-reset-then-replay", "in-progress-409-retried");
        // Issue 34 moved its signals: it resends the lost answer under its key, which is what Timeout semantics asks
        // (seed-2 failed here before, for the POSTs after the replay); reading the replay as a failure is Error
        // classes'. The verdict was and is FAIL: the event's seat exists, and the bus was told to give up on it.
        CheckResult replay = report.check("seed-2-reset-then-replay");
        assertTrue(replay.passed(), replay.evidence());
        assertTrue(replay.evidence().startsWith("resent within the delivery after the reset"), replay.evidence());
        assertEquals(2, report.signals().get(Signal.TIMEOUT));
        CheckResult inProgress = report.check("in-progress-409-retried");
        assertFalse(inProgress.passed());
        assertTrue(inProgress.evidence().startsWith("retried, but did not read the answer that followed (409 replay)"
                + " as success"), inProgress.evidence());
        assertEquals(0, report.signals().get(Signal.ERROR_CLASSES));
        // Never a second seat: the key works.
        assertEquals(0, report.duplicates());
        assertFalse(report.outcome().passed(), ReportWriter.table(report));
        assertTrue(report.outcome().reason().contains("was never acked, but its seat exists"),
                report.outcome().reason());
        assertFalse(report.pass());
    }
}
