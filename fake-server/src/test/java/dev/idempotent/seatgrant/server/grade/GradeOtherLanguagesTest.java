package dev.idempotent.seatgrant.server.grade;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Workers the grader was not written against, in two other languages (src/test/workers): each passes in its correct
 * form and fails on Idempotency in its broken form, a fresh key per attempt. A language whose runtime is not
 * installed is skipped, and the skip says which. And one Java worker built on another retry library, Failsafe.
 */
class GradeOtherLanguagesTest {

    /** Generous: no delivery here runs long, and a starved machine must not turn a slow start into a kill. */
    private static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(180);
    /** One check per signal: enough for a real verdict without the whole catalogue. */
    private static final Set<String> ONE_PER_SIGNAL = Set.of("committed-then-held-open", "twin-deliveries",
            "in-progress-409-retried", "no-url-in-logs");
    /** Lost answers, where a fresh key per attempt becomes a second seat. */
    private static final Set<String> LOST_ANSWERS = Set.of("committed-then-504", "redelivery-after-nack");

    private static GradeReport grade(List<String> command, Set<String> only) {
        return Conclusive.grade(new Grader(command, DELIVERY_TIMEOUT), only);
    }

    @Test
    void theJavaScriptWorkerPassesTheWholeCatalogue() {
        assumeTrue(Workers.installed("node"), "node is not installed: skipping the JavaScript worker");
        GradeReport report = grade(Workers.node(), Set.of());
        assertEquals(Grader.catalogue().size(), report.checks().size());
        for (CheckResult check : report.checks()) {
            assertTrue(check.passed(), check.id() + ": " + check.evidence());
        }
        assertTrue(report.pass());
    }

    @Test
    void theJavaScriptWorkerWithAFreshKeyPerAttemptFailsOnIdempotency() {
        assumeTrue(Workers.installed("node"), "node is not installed: skipping the JavaScript worker");
        assertFailsOnIdempotency(grade(Workers.node(Workers.FRESH_KEY_PER_ATTEMPT), LOST_ANSWERS));
    }

    @Test
    void thePythonWorkerPasses() {
        assumeTrue(Workers.installed("python3"), "python3 is not installed: skipping the Python worker");
        GradeReport report = grade(Workers.python(), ONE_PER_SIGNAL);
        for (CheckResult check : report.checks()) {
            assertTrue(check.passed(), check.id() + ": " + check.evidence());
        }
        assertEquals(8, report.sum());
        assertTrue(report.pass());
    }

    @Test
    void thePythonWorkerWithAFreshKeyPerAttemptFailsOnIdempotency() {
        assumeTrue(Workers.installed("python3"), "python3 is not installed: skipping the Python worker");
        assertFailsOnIdempotency(grade(Workers.python(Workers.FRESH_KEY_PER_ATTEMPT), LOST_ANSWERS));
    }

    @Test
    void aWorkerOnFailsafesRetryPolicyPassesOneCheckPerSignalAndRetryAfter() {
        Set<String> only = new java.util.HashSet<>(ONE_PER_SIGNAL);
        only.add("retry-after-honoured");
        GradeReport report = grade(Workers.failsafe(), only);
        for (CheckResult check : report.checks()) {
            assertTrue(check.passed(), check.id() + ": " + check.evidence());
        }
        assertEquals(Result.PASS, report.verdict(), ReportWriter.table(report));
    }

    private static void assertFailsOnIdempotency(GradeReport report) {
        String table = ReportWriter.table(report);
        assertTrue(report.duplicates() >= 1, table);
        assertEquals(0, report.signals().get(Signal.IDEMPOTENCY), table);
        assertFalse(report.safety().passed(), table);
        assertFalse(report.pass());
        assertFalse(report.check("redelivery-after-nack").passed(), table);
        // Issue 34 moved this check: a resend under a new key ignores the commit, so it earns no Timeout credit (it
        // passed before, as "resending a lost answer is right"). The second seat it wrote is still Idempotency's and
        // the safety gate's; the journal shows the keys.
        CheckResult lost = report.check("committed-then-504");
        assertFalse(lost.passed(), lost.evidence());
        assertTrue(lost.evidence().startsWith("resent after a 504 after the commit under a new key"), lost.evidence());
        assertTrue(lost.evidence().contains("seats: 2"), lost.evidence());
        assertFalse(lost.evidence().contains("the requestId on all"), lost.evidence());
    }
}
