package dev.idempotent.seatgrant.server.grade;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.ArrayList;
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
 * The seed rubric's calibration, reproduced by grade: the Python test worker (src/test/workers/python) with one
 * defect at a time, each scored where the rubric scores it and nowhere else. One defect, one signal.
 *
 * <p>The grades start together in {@link #gradeAll()}, four at a time (a Python delivery costs little CPU; the
 * grades are mostly waiting), and each test reads its own.
 */
class GradeCalibrationTest {

    /** Generous: no correct delivery here runs long, and a starved machine must not turn a slow start into a kill. */
    private static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(180);
    /**
     * Short enough that a worker that never gives up is killed soon; long enough for every correct delivery (none
     * here takes 5 s). The report names the timeout it was given; the CLI's default of 60 s is GradeCommandTest's.
     */
    private static final Duration NEVER_ENDS_TIMEOUT = Duration.ofSeconds(15);
    /** The held-open check's hold here: the Python worker's 2 s timeout is as far from 12 s as from the shipped 30 s. */
    private static final Duration HOLD = Duration.ofSeconds(12);
    private static final int AT_ONCE = 4;
    private static final Set<String> IDEMPOTENCY_AND_ERROR_CLASSES = Grader.catalogue().stream()
            .filter(c -> c.signal() == Signal.IDEMPOTENCY || c.signal() == Signal.ERROR_CLASSES)
            .map(Grader.CheckInfo::id).collect(java.util.stream.Collectors.toSet());

    /**
     * @param busWaits whether the bus waits its real 2 s, then 4 s between a nack and the redelivery; no verdict here
     *                 hangs on them but the twins' of {@code nack-in-progress}, so the other grades skip them
     */
    private record Grade(List<String> args, Set<String> only, Duration timeout, boolean busWaits) {
        Grade(List<String> args, Set<String> only, Duration timeout) {
            this(args, only, timeout, false);
        }

        Grader grader() {
            List<String> command = Workers.python(args.toArray(String[]::new));
            return busWaits ? new Grader(command, timeout, HOLD) : new Grader(command, timeout, duration -> { }, HOLD);
        }
    }

    private static final Map<String, Grade> GRADES = new LinkedHashMap<>();
    private static final Map<String, CompletableFuture<GradeReport>> REPORTS = new LinkedHashMap<>();
    private static ExecutorService lanes;

    static {
        GRADES.put("never-give-up", new Grade(List.of("--never-give-up"), Set.of(), NEVER_ENDS_TIMEOUT));
        GRADES.put("no-request-timeout", new Grade(List.of("--no-request-timeout"), Set.of(), DELIVERY_TIMEOUT));
        GRADES.put("keyless", new Grade(List.of("--keyless"), Set.of(), DELIVERY_TIMEOUT));
        GRADES.put("answer-key", new Grade(List.of(), Set.of(), DELIVERY_TIMEOUT));
        GRADES.put("nack-in-progress", new Grade(List.of("--nack-in-progress"),
                Set.of("twin-deliveries", "in-progress-409-retried"), DELIVERY_TIMEOUT, true));
        GRADES.put("retry-every-error", new Grade(List.of("--retry-every-error"), IDEMPOTENCY_AND_ERROR_CLASSES,
                DELIVERY_TIMEOUT));
        GRADES.put("key-prefix", new Grade(List.of("--key-prefix", "seat-grant:"), IDEMPOTENCY_AND_ERROR_CLASSES,
                DELIVERY_TIMEOUT));
    }

    @BeforeAll
    static void gradeAll() {
        if (!Workers.installed("python3")) {
            return;
        }
        lanes = Executors.newFixedThreadPool(AT_ONCE);
        GRADES.forEach((name, grade) -> REPORTS.put(name, CompletableFuture.supplyAsync(
                () -> Conclusive.grade(grade.grader(), grade.only()), lanes)));
    }

    @AfterAll
    static void stopLanes() {
        if (lanes != null) {
            lanes.shutdownNow();
        }
    }

    private static GradeReport report(String name) {
        assumeTrue(Workers.installed("python3"), "python3 is not installed: skipping the calibration workers");
        return REPORTS.get(name).join();
    }

    private static void assertSignals(GradeReport report, int timeout, int idempotency, int errorClasses,
                                      int observability) {
        assertEquals(List.of(timeout, idempotency, errorClasses, observability), List.of(
                report.signals().get(Signal.TIMEOUT), report.signals().get(Signal.IDEMPOTENCY),
                report.signals().get(Signal.ERROR_CLASSES), report.signals().get(Signal.OBSERVABILITY)),
                ReportWriter.table(report));
    }

    @Test
    void perfectClassificationAndAStructuredEventButNoKeyFailsOnIdempotencyAndTimeouts() {
        GradeReport report = report("keyless");
        // Issue 34 moved Timeout semantics from 2 to 0: the rubric's column asks for acting on "a dropped response can
        // follow a durable write", and a resend without the key ignores exactly that. Its retries and its log stay
        // right, so Error classes and Observability stay 2; the verdict was and is FAIL.
        assertSignals(report, 0, 0, 2, 2);
        assertFalse(report.safety().passed(), report.safety().reason());
        assertEquals(Result.FAIL, report.verdict());
        CheckResult lost = report.check("committed-then-504");
        assertFalse(lost.passed(), lost.evidence());
        assertTrue(lost.evidence().startsWith("resent after a 504 after the commit without an Idempotency-Key"),
                lost.evidence());
        // The second seats of the other checks are charged to Idempotency only: those checks judge their own property.
        for (String id : List.of("requestid-in-every-attempt-log", "no-url-in-logs", "in-progress-409-retried")) {
            CheckResult check = report.check(id);
            assertTrue(check.passed(), id + ": " + check.evidence());
            assertTrue(check.evidence().endsWith("seats: 2"), id + ": " + check.evidence());
        }
        assertTrue(report.check("retry-after-honoured").passed(), report.check("retry-after-honoured").evidence());
        assertTrue(report.check("seed-1-201-once").evidence().startsWith("the POST carried no Idempotency-Key"),
                report.check("seed-1-201-once").evidence());
    }

    @Test
    void aKeyButEveryErrorRetriedLosesErrorClassesOnly() {
        GradeReport report = report("retry-every-error");
        // The rubric says at most 1: here 1, from 4 of 6 (the 400 and the 422 retried; the rest right).
        assertEquals(1, report.signals().get(Signal.ERROR_CLASSES), ReportWriter.table(report));
        assertEquals(2, report.signals().get(Signal.IDEMPOTENCY), ReportWriter.table(report));
        for (String id : List.of("seed-3-400-not-retried", "422-not-retried")) {
            assertTrue(report.check(id).evidence().startsWith("retried a 4"), report.check(id).evidence());
        }
        assertEquals(0, report.duplicates());
    }

    @Test
    void theAnswerKeyScoresTwoOnEverySignal() {
        GradeReport report = report("answer-key");
        assertSignals(report, 2, 2, 2, 2);
        assertEquals(Result.PASS, report.verdict());
        assertTrue(report.liveness().passed());
        assertTrue(report.safety().passed());
    }

    @Test
    void aWorkerWithNoRequestTimeoutFailsHeldOpenKeepsTimeoutOneAndPassesOnTheRest() {
        GradeReport report = report("no-request-timeout");
        CheckResult held = report.check("committed-then-held-open");
        assertFalse(held.passed());
        assertTrue(held.evidence().startsWith("no request timeout: waited 1"), held.evidence());
        assertTrue(held.evidence().contains(" for the held POST, until the server closed it at 12 s"), held.evidence());
        assertSignals(report, 1, 2, 2, 2);
        // Its delivery ended when the server closed the held connection: slow, but not a liveness failure.
        assertTrue(report.liveness().passed(), report.liveness().reason());
        assertEquals(Result.PASS, report.verdict());
    }

    @Test
    void aWorkerThatNeverGivesUpFailsTheLivenessGateWhateverItsSum() {
        GradeReport report = report("never-give-up");
        // Everything right but the outage: 7 of 8, a pass by the sum alone.
        assertSignals(report, 2, 2, 1, 2);
        assertFalse(report.liveness().passed());
        assertTrue(report.liveness().reason().matches("[a-z0-9-]+: delivery 1 never ended: killed at the "
                + NEVER_ENDS_TIMEOUT.toSeconds() + " s delivery timeout after \\d+ POSTs, the last \\(503\\) \\d+\\.\\d\\d s"
                + " before the kill"),
                report.liveness().reason());
        assertFalse(report.check("seed-5-exhaustion-is-a-nack").passed());
        assertEquals(Result.FAIL, report.verdict());
        assertTrue(ReportWriter.table(report).contains("; the liveness gate fails it"), ReportWriter.table(report));
    }

    @Test
    void aTwinThatNacksTheInProgress409IsRedeliveredAfterTheHoldAndOnlyErrorClassesPay() {
        GradeReport report = report("nack-in-progress");
        // The in-progress 409 a twin meets ends the hold (a request answered after it began), so the held POST commits
        // and the twin that nacked is redelivered 2 s later (GradeBusTest), finds the seat, and acks. (Which twin meets
        // the 409, if either does, is the race the twins are there to run.)
        CheckResult twins = report.check("twin-deliveries");
        assertTrue(twins.passed(), twins.evidence());
        if (twins.evidence().contains("nack (exit 1)")) {
            assertTrue(twins.evidence().contains("nack (exit 1), redelivered 2."), twins.evidence());
        }
        CheckResult inProgress = report.check("in-progress-409-retried");
        assertFalse(inProgress.passed());
        assertTrue(inProgress.evidence().startsWith("did not retry the in-progress 409 within the delivery"),
                inProgress.evidence());
        assertEquals(0, report.duplicates());
    }

    @Test
    void aStableKeyThatIsNotTheRequestIdIsIdempotencyOneWithTheTrueReason() {
        GradeReport report = report("key-prefix");
        assertEquals(1, report.signals().get(Signal.IDEMPOTENCY), ReportWriter.table(report));
        assertEquals(2, report.signals().get(Signal.ERROR_CLASSES), ReportWriter.table(report));
        assertEquals(0, report.duplicates());
        CheckResult once = report.check("seed-1-201-once");
        assertFalse(once.passed());
        assertTrue(once.evidence().startsWith("the Idempotency-Key is 'seat-grant:' + the requestId, not the requestId"
                + " itself: another producer of the same requestId (a second consumer, a replayed event) would not be"
                + " deduplicated against it"), once.evidence());
        List<String> failed = new ArrayList<>();
        report.checks().stream().filter(c -> !c.passed()).forEach(c -> failed.add(c.id()));
        assertEquals(List.of("seed-1-201-once"), failed, ReportWriter.table(report));
    }
}
