package dev.idempotent.seatgrant.server.grade;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Evidence that is true to the journal, read by each request's first byte and the moment its answer was written:
 * attempts in arrival order, a resend before the lost answer told apart from one after it, and a server too slow
 * to judge by reported as such. The Python test worker, with the bus's waits recorded rather than slept.
 */
class GradeEvidenceTest {

    private static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(30);

    @BeforeEach
    void python() {
        assumeTrue(Workers.installed("python3"), "python3 is not installed: skipping the Python worker");
    }

    private static CheckResult grade(String check, String... args) {
        List<Duration> waits = new java.util.concurrent.CopyOnWriteArrayList<>();
        return new Grader(Workers.python(args), DELIVERY_TIMEOUT, waits::add).grade(Set.of(check)).check(check);
    }

    @Test
    void aResendBeforeTheLostAnswerWasWrittenIsToldApartAndTheAttemptsAreInArrivalOrder() {
        // Its 0.4 s timeout fires before the gateway's 504 (1 s): sooner than the 504 could have been written. The
        // resend's 409 replay is answered, and so journaled, first; by their first bytes the 504's POST comes first.
        CheckResult check = grade("committed-then-504", "--request-timeout", "0.4");
        assertTrue(check.passed(), check.evidence());
        assertTrue(check.evidence().matches("resent within the delivery 0\\.\\d\\d s after the first POST, before a 504"
                + " after the commit could reach it \\(its own request timeout\\), and acked \\(409 replay\\) \\| delivery 1:"
                + " 504 after commit, 409 replay -> ack \\| .*"), check.evidence());
    }

    @Test
    void aResendAfterTheLostAnswerSaysSo() {
        CheckResult check = grade("committed-then-504");
        assertTrue(check.passed(), check.evidence());
        assertTrue(check.evidence().startsWith("resent within the delivery after a 504 after the commit, and acked"),
                check.evidence());
    }

    @Test
    void aFailureOnAServerThatWasTheSlowPartyIsTriedAgainThenReportedInconclusive() {
        // A client that sends its body 0.4 s after its headers makes every clean answer take that long from the
        // first byte; this one also nacks its 201, a failure the grader cannot blame on it with a server that slow.
        CheckResult check = grade("seed-1-201-once", "--trickle", "0.4", "--nack-success");
        assertEquals(Result.INCONCLUSIVE, check.result(), check.evidence());
        assertTrue(check.evidence().matches("the grader's own server was the slow party \\(a clean (201|409 replay) took 0\\.\\d\\d s"
                + " from its first byte to written, more than 250 ms\\), twice: not the worker's doing; grade again on a"
                + " less loaded machine \\| delivery 1: 201 -> nack \\(exit 1\\) \\| .*"), check.evidence());
    }

    @Test
    void aPassOnASlowServerStands() {
        CheckResult check = grade("seed-1-201-once", "--trickle", "0.4");
        assertEquals(Result.PASS, check.result(), check.evidence());
    }
}
