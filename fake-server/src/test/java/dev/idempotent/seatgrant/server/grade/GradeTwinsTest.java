package dev.idempotent.seatgrant.server.grade;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Twins that never overlap prove nothing, and the grader says so: inconclusive, neither a pass nor a failure. */
class GradeTwinsTest {

    @TempDir
    Path dir;

    @Test
    void twinsThatDoNotOverlapAreDeliveredAgainThenReportedInconclusive() throws Exception {
        assumeTrue(Workers.installed("curl"), "curl is not installed: skipping the shell worker");
        // The first twin to take the lock POSTs at once; the other waits 4 s, longer than the 3 s hold. Correct
        // otherwise: it sends the requestId as its key and acks a 201 or a 409 replay.
        String script = """
                event=$(cat)
                id=$(printf '%s' "$event" | sed 's/.*"requestId":"\\([^"]*\\)".*/\\1/')
                mkdir "$LOCKS/$id" 2>/dev/null || sleep 4
                status=$(curl -s -o /dev/null -w '%{http_code}' -X POST "$SEATS_BASE_URL/v1/seats" \\
                    -H 'content-type: application/json' -H "idempotency-key: $id" -d "$event")
                echo "requestId=$id status=$status" >&2
                [ "$status" = 201 ] || [ "$status" = 409 ]
                """;
        List<String> command = List.of("env", "LOCKS=" + dir, "sh", "-c", script);
        GradeReport report = new Grader(command, Duration.ofSeconds(30)).grade(Set.of("twin-deliveries"));
        CheckResult twins = report.check("twin-deliveries");
        assertFalse(twins.passed(), twins.evidence());
        assertEquals(Result.INCONCLUSIVE, twins.result(), twins.evidence());
        assertTrue(twins.evidence().contains("did not overlap"), twins.evidence());
        assertTrue(twins.evidence().contains("twice"), twins.evidence());
        assertTrue(twins.evidence().contains("seats: 1"), twins.evidence());
        // Each trial's event has its own requestId, so each took its own lock: two trials ran.
        try (Stream<Path> locks = Files.list(dir)) {
            assertEquals(2, locks.count());
        }
    }
}
