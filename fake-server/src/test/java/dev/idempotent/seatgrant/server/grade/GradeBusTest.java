package dev.idempotent.seatgrant.server.grade;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The grader as an at-least-once bus: it waits 2 s, then 4 s before redelivering a nacked event, as brokers back
 * off, and redelivers after a lost ack too where a check needs a redelivery. The waits are recorded, not slept.
 */
class GradeBusTest {

    /** A shell worker that POSTs the event with its requestId as the key, prints the status, and exits with $1. */
    private static List<String> curlWorker(int exit) {
        String script = """
                event=$(cat)
                id=$(printf '%s' "$event" | sed 's/.*"requestId":"\\([^"]*\\)".*/\\1/')
                status=$(curl -s -o /dev/null -w '%{http_code}' -X POST "$SEATS_BASE_URL/v1/seats" \\
                    -H 'content-type: application/json' -H "idempotency-key: $id" -d "$event")
                echo "requestId=$id status=$status"
                exit $0
                """;
        return List.of("sh", "-c", script, String.valueOf(exit));
    }

    @Test
    void aNackIsRedeliveredAfterTwoSecondsThenFour() {
        assumeTrue(Workers.installed("curl"), "curl is not installed: skipping the shell worker");
        List<Duration> waits = new CopyOnWriteArrayList<>();
        GradeReport report = new Grader(curlWorker(1), Duration.ofSeconds(30), waits::add)
                .grade(Set.of("seed-3-400-not-retried"));
        assertEquals(List.of(Duration.ofSeconds(2), Duration.ofSeconds(4)), waits);
        CheckResult check = report.check("seed-3-400-not-retried");
        assertEquals(3, check.deliveries().size(), check.evidence());
        assertTrue(check.passed(), check.evidence());
        assertTrue(check.evidence().contains("nacked each time"), check.evidence());
    }

    @Test
    void anAckedFirstDeliveryIsRedeliveredAllTheSameWhereTheCheckNeedsARedelivery() {
        assumeTrue(Workers.installed("curl"), "curl is not installed: skipping the shell worker");
        // Acks whatever it gets: a silent ack of the 504 (seed-5's defect, not this check's).
        List<Duration> waits = new CopyOnWriteArrayList<>();
        GradeReport report = new Grader(curlWorker(0), Duration.ofSeconds(30), waits::add)
                .grade(Set.of("redelivery-after-nack"));
        CheckResult check = report.check("redelivery-after-nack");
        assertEquals(List.of(Duration.ofSeconds(2)), waits);
        assertEquals(2, check.deliveries().size(), check.evidence());
        assertTrue(check.passed(), check.evidence());
        assertTrue(check.evidence().startsWith("ack on delivery 1 (redelivered all the same, as a bus does when an ack"
                + " is lost)"), check.evidence());
        assertTrue(check.evidence().contains("delivery 1: 504 after commit -> ack | redelivered "), check.evidence());
        assertTrue(check.evidence().contains(" later: 409 replay -> ack"), check.evidence());
    }
}
