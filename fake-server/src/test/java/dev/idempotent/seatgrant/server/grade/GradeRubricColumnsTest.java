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
 * Each defect charged where the seed rubric's columns put it, and to no other signal: the Java calibration worker
 * (one defect per flag) graded on the checks that show it. Idempotency is the key on every POST; Error classes
 * the replay read as success and what is retried; Timeout semantics acting on "a dropped response can follow a
 * durable write" (a keyed resend or a lookup earns it, a keyless resend does not); Observability lines true to the
 * journal. Whether an event's end agrees with its seat is the outcome gate's, and a slow server never excuses an
 * early retry or an extra seat.
 *
 * <p>The grades start together in {@link #gradeAll()}, three at a time, and each test reads its own. The bus
 * redelivers a nacked event at once: no verdict here hangs on its 2 s and 4 s waits (GradeBusTest keeps those).
 */
class GradeRubricColumnsTest {

    private static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(120);
    private static final int AT_ONCE = 3;
    /** The bus's wait between a nack and the redelivery, skipped. */
    private static final Trial.Pauser NO_WAITS = duration -> { };

    private record Grade(List<String> command, Set<String> only, Grader grader) { }

    private static final Map<String, Grade> GRADES = new LinkedHashMap<>();
    private static final Map<String, CompletableFuture<GradeReport>> REPORTS = new LinkedHashMap<>();
    private static ExecutorService lanes;

    private static void add(String name, Set<String> only, String... flags) {
        List<String> command = Workers.calibration(flags);
        GRADES.put(name, new Grade(command, only, new Grader(command, DELIVERY_TIMEOUT, NO_WAITS)));
    }

    static {
        // The longest first: a 10 s request timeout against the shipped 30 s hold.
        add("ten-second-timeout", Set.of("committed-then-held-open"), "--request-timeout", "10");
        add("replay-is-failure", Set.of("seed-2-reset-then-replay", "twin-deliveries", "redelivery-after-nack",
                "replay-original-style", "in-progress-409-retried"), "--replay-is-failure");
        add("ack-every-failure", Set.of("seed-2-reset-then-replay", "committed-then-504", "seed-1-201-once",
                "redelivery-after-nack", "replay-original-style", "seed-3-400-not-retried"), "--ack-every-failure");
        add("lookup-before-resend", Set.of("seed-2-reset-then-replay", "committed-then-close", "committed-then-504",
                "replay-original-style"), "--lookup-before-resend");
        add("keyless", Set.of("seed-2-reset-then-replay", "committed-then-504"), "--keyless");
        add("ack-when-exhausted", Set.of("seed-5-exhaustion-is-a-nack"), "--ack-when-exhausted");
        add("fabricate-log", Set.of("requestid-in-every-attempt-log", "no-url-in-logs"), "--fabricate-log");
        add("honest-log", Set.of("requestid-in-every-attempt-log", "no-url-in-logs"));
        add("early-retry-slow-server", Set.of("retry-after-honoured"), "--retry-early", "--trickle", "0.4");
        add("keyless-twins-slow-server", Set.of("twin-deliveries"), "--keyless", "--trickle", "0.4");
        add("keyless-slow-server", Set.of("seed-1-201-once"), "--keyless", "--trickle", "0.4");
        // No request timeout, a 5 s hold and a 4 s delivery timeout: the check's deliveries get the hold on top.
        List<String> patient = Workers.calibration("--request-timeout", "0");
        GRADES.put("no-timeout-short-hold", new Grade(patient, Set.of("committed-then-held-open"),
                new Grader(patient, Duration.ofSeconds(4), NO_WAITS, Duration.ofSeconds(5))));
    }

    @BeforeAll
    static void gradeAll() {
        lanes = Executors.newFixedThreadPool(AT_ONCE);
        // Conclusive grades again only while a check is inconclusive, so a check that should fail outright and does
        // not still shows as inconclusive.
        GRADES.forEach((name, grade) -> REPORTS.put(name, CompletableFuture.supplyAsync(
                () -> Conclusive.grade(grade.grader(), grade.only()), lanes)));
    }

    @AfterAll
    static void stopLanes() {
        lanes.shutdownNow();
    }

    private static GradeReport report(String name) {
        return REPORTS.get(name).join();
    }

    private static int signal(GradeReport report, Signal signal) {
        return report.signals().get(signal);
    }

    @Test
    void readingTheReplayAsAFailureCostsErrorClassesAndTheOutcomeGateNotIdempotency() {
        GradeReport report = report("replay-is-failure");
        String table = ReportWriter.table(report);
        // The key was on all its POSTs and there is one seat: Idempotency is whole.
        assertEquals(2, signal(report, Signal.IDEMPOTENCY), table);
        // It resent the lost answer under its key: the timeout was read right.
        assertEquals(2, signal(report, Signal.TIMEOUT), table);
        assertEquals(0, signal(report, Signal.ERROR_CLASSES), table);
        assertTrue(report.check("in-progress-409-retried").evidence().startsWith("retried, but did not read the"
                + " answer that followed (409 replay) as success (reject)"),
                report.check("in-progress-409-retried").evidence());
        assertFalse(report.outcome().passed(), table);
        assertTrue(report.outcome().reason().matches("[a-z0-9-]+: the event \\(requestId [0-9a-f-]{36}\\) was never"
                + " acked, but its seat exists: the bus gave up on work that was done \\(.*reject\\)"),
                report.outcome().reason());
        assertEquals(Result.FAIL, report.verdict());
    }

    @Test
    void ackingEveryFailureCostsTimeoutAndTheOutcomeGateNotIdempotency() {
        GradeReport report = report("ack-every-failure");
        String table = ReportWriter.table(report);
        assertEquals(0, signal(report, Signal.TIMEOUT), table);
        assertTrue(report.check("committed-then-504").evidence().startsWith("acked after a 504 after the commit"
                + " without resending or looking"), report.check("committed-then-504").evidence());
        assertEquals(2, signal(report, Signal.IDEMPOTENCY), table);
        assertFalse(report.outcome().passed(), table);
        assertTrue(report.outcome().reason().startsWith("seed-3-400-not-retried: the event (requestId "),
                report.outcome().reason());
        assertTrue(report.outcome().reason().contains(") was acked, but no seat exists: the grant is lost (ack;"
                + " POSTs: 400)"), report.outcome().reason());
        assertEquals(Result.FAIL, report.verdict());
    }

    @Test
    void aLookupBeforeAKeyedResendPassesWhereAResendDoes() {
        GradeReport report = report("lookup-before-resend");
        for (CheckResult check : report.checks()) {
            assertTrue(check.passed(), check.id() + ": " + check.evidence());
        }
        assertTrue(report.check("seed-2-reset-then-replay").evidence().startsWith("looked the seat up instead of"
                + " resending after the reset"), report.check("seed-2-reset-then-replay").evidence());
        assertTrue(report.check("replay-original-style").evidence().startsWith("looked the seat up after the 502"),
                report.check("replay-original-style").evidence());
        assertEquals(2, signal(report, Signal.TIMEOUT));
        assertEquals(2, signal(report, Signal.IDEMPOTENCY));
        assertTrue(report.outcome().passed(), report.outcome().reason());
    }

    @Test
    void aKeylessResendAfterALostAnswerEarnsNoTimeoutCredit() {
        GradeReport report = report("keyless");
        assertEquals(0, signal(report, Signal.TIMEOUT), ReportWriter.table(report));
        assertTrue(report.check("committed-then-504").evidence().startsWith("resent after a 504 after the commit"
                + " without an Idempotency-Key and without looking first"), report.check("committed-then-504").evidence());
        assertFalse(report.safety().passed(), "the resends wrote second seats");
    }

    @Test
    void ackingAfterTheRetriesRunOutFailsTheOutcomeGate() {
        GradeReport report = report("ack-when-exhausted");
        assertFalse(report.check("seed-5-exhaustion-is-a-nack").passed());
        assertFalse(report.outcome().passed());
        assertTrue(report.outcome().reason().contains("was acked, but no seat exists: the grant is lost (ack; POSTs:"
                + " 503 x5)"), report.outcome().reason());
        assertTrue(ReportWriter.table(report).contains("outcome gate: FAIL: seed-5-exhaustion-is-a-nack"),
                ReportWriter.table(report));
    }

    @Test
    void aLogLineTheJournalContradictsCapsObservabilityAtOne() {
        GradeReport report = report("fabricate-log");
        assertEquals(1, signal(report, Signal.OBSERVABILITY), ReportWriter.table(report));
        CheckResult logged = report.check("requestid-in-every-attempt-log");
        assertTrue(logged.evidence().startsWith("a log line the journal contradicts names an Idempotency-Key no"
                + " request carried ('k-' + the requestId)"), logged.evidence());
        // The same worker, its log honest: every line counts, and Observability is whole.
        GradeReport honest = report("honest-log");
        assertEquals(2, signal(honest, Signal.OBSERVABILITY), ReportWriter.table(honest));
    }

    @Test
    void anEarlyRetryIsAFailureHoweverSlowTheServerWas() {
        CheckResult check = report("early-retry-slow-server").check("retry-after-honoured");
        assertEquals(Result.FAIL, check.result(), check.evidence());
        assertTrue(check.evidence().matches("retried 0\\.\\d\\d s after a 429 that said Retry-After: 2 \\| .*"),
                check.evidence());
    }

    @Test
    void twinsThatWroteTwoSeatsAreAFailureHoweverSlowTheServerWas() {
        CheckResult check = report("keyless-twins-slow-server").check("twin-deliveries");
        assertEquals(Result.FAIL, check.result(), check.evidence());
        // Two or three: the held twin's own timeout may resend it, keyless, before the hold ends.
        assertTrue(check.evidence().matches("two deliveries at once, \\d+\\.\\d\\d s apart, wrote [23] seats \\| .*"),
                check.evidence());
    }

    @Test
    void aPostWithoutTheKeyIsAFailureHoweverSlowTheServerWas() {
        // What the worker put in its headers is its own doing: a slow server cannot take the key off a POST.
        CheckResult check = report("keyless-slow-server").check("seed-1-201-once");
        assertEquals(Result.FAIL, check.result(), check.evidence());
        assertTrue(check.evidence().startsWith("the POST carried no Idempotency-Key"), check.evidence());
    }

    @Test
    void aTenSecondRequestTimeoutTimesOutOnItsOwnWellInsideTheThirtySecondHold() {
        CheckResult check = report("ten-second-timeout").check("committed-then-held-open");
        assertTrue(check.passed(), check.evidence());
        assertTrue(check.evidence().matches("timed out on its own 1\\d\\.\\d\\d s after the held POST arrived, before"
                + " the server's 30 s hold ended; resent within the delivery; acked \\| .*"), check.evidence());
    }

    @Test
    void aWorkerWithNoRequestTimeoutWaitsOutTheHoldAndItsDeliveryIsGivenTheHoldOnTop() {
        GradeReport report = report("no-timeout-short-hold");
        CheckResult check = report.check("committed-then-held-open");
        assertTrue(check.evidence().matches("no request timeout: waited [5-9]\\.\\d\\d s for the held POST, until the"
                + " server closed it at 5 s \\| .*"), check.evidence());
        // 4 s of delivery timeout would have killed it; the check's deliveries get the 5 s hold on top.
        assertTrue(report.liveness().passed(), report.liveness().reason());
    }
}
