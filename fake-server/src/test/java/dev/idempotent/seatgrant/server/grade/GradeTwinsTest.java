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

/**
 * The twins' hold ends on an event, not a time: the first POST waits for the other twin's request however late it
 * starts; a twin that comes only after the hold has ended proves nothing, and the grader says so.
 */
class GradeTwinsTest {

    private static final Trial.Pauser NO_WAITS = duration -> { };

    @TempDir
    Path dir;

    @Test
    void aTwinThatStartsLateIsStillRacedAgainstTheHeldPost() throws Exception {
        assumeTrue(Workers.installed("curl"), "curl is not installed: skipping the shell worker");
        // The twin that takes the lock POSTs at once; the other first waits until the first POST is on its way (its
        // marker), then a second more, as a slow machine would start it. Correct otherwise: the requestId as its
        // key, a 201 or a 409 (replay or in progress) acked.
        String script = """
                event=$(cat)
                id=$(printf '%s' "$event" | sed 's/.*"requestId":"\\([^"]*\\)".*/\\1/')
                if ! mkdir "$LOCKS/$id" 2>/dev/null; then
                    while [ ! -e "$LOCKS/$id/posting" ]; do sleep 0.05; done
                    sleep 1
                else
                    touch "$LOCKS/$id/posting"
                fi
                status=$(curl -s -o /dev/null -w '%{http_code}' -X POST "$SEATS_BASE_URL/v1/seats" \\
                    -H 'content-type: application/json' -H "idempotency-key: $id" -d "$event")
                echo "requestId=$id status=$status" >&2
                [ "$status" = 201 ] || [ "$status" = 409 ]
                """;
        List<String> command = List.of("env", "LOCKS=" + dir, "sh", "-c", script);
        GradeReport report = new Grader(command, Duration.ofSeconds(60), NO_WAITS).grade(Set.of("twin-deliveries"));
        CheckResult twins = report.check("twin-deliveries");
        assertEquals(Result.PASS, twins.result(), twins.evidence());
        assertTrue(twins.evidence().contains("the first POST held until the other twin's request was answered"),
                twins.evidence());
        // The late twin met the held key (409 in progress), not a seat already written: the race was run.
        assertTrue(twins.evidence().contains("409 in progress"), twins.evidence());
        assertTrue(twins.evidence().contains("seats: 1"), twins.evidence());
    }

    @Test
    void aTwinThatComesOnlyAfterTheHoldEndedIsDeliveredAgainThenReportedInconclusive() throws Exception {
        assumeTrue(Workers.installed("curl"), "curl is not installed: skipping the shell worker");
        // The twin that takes the lock POSTs and marks when its answer came; the other waits for that mark, which
        // comes only once the hold's bound (1 s here) has ended it, then looks the seat up and acks what it finds.
        String script = """
                event=$(cat)
                id=$(printf '%s' "$event" | sed 's/.*"requestId":"\\([^"]*\\)".*/\\1/')
                user=$(printf '%s' "$event" | sed 's/.*"userId":"\\([^"]*\\)".*/\\1/')
                if mkdir "$LOCKS/$id" 2>/dev/null; then
                    status=$(curl -s -o /dev/null -w '%{http_code}' -X POST "$SEATS_BASE_URL/v1/seats" \\
                        -H 'content-type: application/json' -H "idempotency-key: $id" -d "$event")
                    echo "requestId=$id status=$status" >&2
                    touch "$LOCKS/$id/answered"
                    [ "$status" = 201 ] || [ "$status" = 409 ]
                    exit
                fi
                while [ ! -e "$LOCKS/$id/answered" ]; do sleep 0.05; done
                found=$(curl -s "$SEATS_BASE_URL/v1/seats?userId=$user")
                echo "requestId=$id looked up" >&2
                case "$found" in *'"id"'*) exit 0 ;; *) exit 1 ;; esac
                """;
        List<String> command = List.of("env", "LOCKS=" + dir, "sh", "-c", script);
        GradeReport report = new Grader(command, Duration.ofSeconds(60), NO_WAITS, Catalogue.HOLD,
                Duration.ofSeconds(1)).grade(Set.of("twin-deliveries"));
        CheckResult twins = report.check("twin-deliveries");
        assertFalse(twins.passed(), twins.evidence());
        assertEquals(Result.INCONCLUSIVE, twins.result(), twins.evidence());
        assertTrue(twins.evidence().contains("the other twin came late: the first POST's hold ended because its"
                + " bound ran out"), twins.evidence());
        assertTrue(twins.evidence().contains("twice"), twins.evidence());
        assertTrue(twins.evidence().contains("seats: 1"), twins.evidence());
        // Each trial's event has its own requestId, so each took its own lock: two trials ran.
        try (Stream<Path> locks = Files.list(dir)) {
            assertEquals(2, locks.count());
        }
    }
}
