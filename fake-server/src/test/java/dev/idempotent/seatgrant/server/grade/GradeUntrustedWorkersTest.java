package dev.idempotent.seatgrant.server.grade;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.seatgrant.server.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worker is code the grader does not trust: it cannot reach the admin API of the servers it is graded on, cannot
 * tell a grade from its event, and cannot outlive its delivery unseen. Workers here are the Java calibration worker
 * and bash scripts (bash's own {@code /dev/tcp}, so nothing else need be installed).
 */
class GradeUntrustedWorkersTest {

    private static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(120);

    @TempDir
    Path dir;

    @Test
    void aWorkerThatResetsTheServerThroughTheAdminApiFailsTheIntegrityGateAndResetsNothing() {
        GradeReport report = Conclusive.grade(new Grader(Workers.calibration("--admin-reset"), DELIVERY_TIMEOUT),
                Set.of("seed-1-201-once"));
        assertFalse(report.integrity().passed(), report.integrity().reason());
        assertEquals("seed-1-201-once: 3 requests beside the seat API, the first GET /__admin/ledger (404); a worker"
                + " touches /v1/seats and nothing else", report.integrity().reason());
        // The reset was refused, so the seat it wanted gone is still there, and the facts say so.
        assertTrue(report.check("seed-1-201-once").evidence().endsWith("seats: 1"),
                report.check("seed-1-201-once").evidence());
        assertEquals(Result.FAIL, report.verdict());
        assertTrue(ReportWriter.table(report).contains("integrity gate: FAIL: seed-1-201-once"),
                ReportWriter.table(report));
    }

    @Test
    void aWorkerThatBehavesOnlyWhenTheAdminApiAnswersMeetsNoAdminApiAndFails() {
        GradeReport report = Conclusive.grade(new Grader(Workers.calibration("--admin-probe"), DELIVERY_TIMEOUT),
                Set.of("seed-1-201-once", "committed-then-504"));
        assertTrue(report.integrity().reason().contains("the first GET /__admin/health (404)"),
                report.integrity().reason());
        // Not seeing an admin API, it took its other path: keyless, acking whatever happened.
        assertTrue(report.check("seed-1-201-once").evidence().startsWith("the POST carried no Idempotency-Key"),
                report.check("seed-1-201-once").evidence());
        assertFalse(report.check("committed-then-504").passed(), report.check("committed-then-504").evidence());
        assertEquals(Result.FAIL, report.verdict());
    }

    @Test
    void theEventCarriesIdsInTheShapeRealOnesHaveDrawnPerRun() throws Exception {
        // Prints its event and acks: nothing in it may say "grade".
        List<String> echo = List.of("bash", "-c", "cat; echo; exit 0");
        Grader grader = new Grader(echo, DELIVERY_TIMEOUT);
        String first = grader.grade(Set.of("seed-1-201-once")).check("seed-1-201-once").deliveries().get(0).output();
        String second = grader.grade(Set.of("seed-1-201-once")).check("seed-1-201-once").deliveries().get(0).output();
        for (String event : List.of(first, second)) {
            assertFalse(event.toLowerCase(java.util.Locale.ROOT).contains("grade"), event);
            assertTrue(event.matches("(?s)\\{\"requestId\":\"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}\","
                    + "\"workspaceId\":\"ws_[0-9A-Za-z]{16}\",\"userId\":\"usr_[0-9A-Za-z]{16}\",\"role\":\"member\"}\\s*"),
                    event);
        }
        assertFalse(first.equals(second), "each run draws its own ids");
    }

    @Test
    void whatADeliveryLeftRunningInItsSessionIsKilledWhenItEnds() throws Exception {
        // A double fork: the sleeper is no longer the worker's descendant once the worker exits, and the worker acks
        // at once. Today's grader killed descendants only at a timeout, and left this one for 300 s. This is the
        // fallback's sweep (no namespace), whose PIDs are the host's; GradeContainmentTest has the namespace's.
        Path pid = dir.resolve("pid");
        List<String> worker = List.of("bash", "-c", "cat > /dev/null; ( sleep 300 & echo $! > '" + pid + "' ); exit 0");
        new Grader(worker, DELIVERY_TIMEOUT).withoutNamespace().grade(Set.of("seed-1-201-once"));
        assertTrue(Files.exists(pid));
        long sleeper = Long.parseLong(Files.readString(pid).strip());
        Await.until(Duration.ofSeconds(10), "the detached sleeper to be gone",
                () -> ProcessHandle.of(sleeper).map(p -> !p.isAlive()).orElse(true));
    }

    @Test
    void aRequestFromAProcessThatLeftItsSessionFailsLivenessAndCountsForNothing() throws Exception {
        // Without a namespace (where none can be made, or --no-namespace), the liveness gate is what is left.
        // Each delivery starts a child in a session of its own (which no sweep of the delivery's session finds) and
        // nacks at once; the child POSTs, with the key, only once the bus is between deliveries: the bus's wait
        // releases it and lasts until its POST is answered. Delivery 3's child is never released; it is told to stop.
        String late = """
                echo escaped > "$MARK"
                for i in $(seq 600); do [ -e "$MARK.go" ] || [ -e "$MARK.stop" ] && break; sleep 0.05; done
                [ -e "$MARK.go" ] || exit 0
                hp=${SEATS_BASE_URL#http://}; hp=${hp%%/*}
                exec 3<>"/dev/tcp/${hp%:*}/${hp##*:}" || exit 0
                printf 'POST /v1/seats HTTP/1.1\\r\\nHost: %s\\r\\nIdempotency-Key: %s\\r\\nContent-Type: application/json\\r\\nContent-Length: %s\\r\\nConnection: close\\r\\n\\r\\n%s' \\
                    "$hp" "$ID" "${#EVENT}" "$EVENT" >&3
                timeout 10 cat <&3 > /dev/null
                : > "$MARK.posted"
                """;
        // The worker waits until its child is in its own session, or the sweep at the delivery's end would catch it.
        // It reaches the server itself too, with a lookup (no POST), so the grading is not stopped as if it never did.
        String worker = """
                EVENT=$(cat)
                ID=$(printf '%s' "$EVENT" | sed 's/.*"requestId":"\\([^"]*\\)".*/\\1/')
                MARK=$(mktemp -u -p "$MARKS" mark-XXXXXXXX)
                export EVENT ID MARK
                setsid bash -c "$LATE" < /dev/null > /dev/null 2>&1 &
                for i in $(seq 200); do [ -s "$MARK" ] && break; sleep 0.05; done
                hp=${SEATS_BASE_URL#http://}; hp=${hp%%/*}
                exec 3<>"/dev/tcp/${hp%:*}/${hp##*:}" || exit 1
                printf 'GET /v1/seats/%s HTTP/1.1\\r\\nHost: %s\\r\\nConnection: close\\r\\n\\r\\n' "$ID" "$hp" >&3
                timeout 10 cat <&3 > /dev/null
                exit 1
                """;
        List<String> command = List.of("env", "LATE=" + late, "MARKS=" + dir, "bash", "-c", worker);
        List<Duration> waits = new CopyOnWriteArrayList<>();
        Trial.Pauser releaseTheEscapedChild = duration -> {
            waits.add(duration);
            List<Path> released = signalWaitingChildren(".go");
            Await.until(Duration.ofSeconds(30), "the escaped child's POST to be answered",
                    () -> released.stream().allMatch(mark -> Files.exists(Path.of(mark + ".posted"))));
        };
        GradeReport report;
        try {
            report = new Grader(command, DELIVERY_TIMEOUT, releaseTheEscapedChild).withoutNamespace()
                    .grade(Set.of("redelivery-after-nack"));
        } finally {
            signalWaitingChildren(".stop");
        }
        assertEquals(List.of(Duration.ofSeconds(2), Duration.ofSeconds(4)), waits, "the bus asked for its usual waits");
        assertFalse(report.liveness().passed(), report.liveness().reason());
        // Delivery 1's child and delivery 2's, each released between two deliveries.
        assertTrue(report.liveness().reason().matches("redelivery-after-nack: 2 requests while no delivery ran, the"
                + " first POST /v1/seats \\(\\d{3}\\) between two deliveries; a worker must not outlive its"
                + " delivery"), report.liveness().reason());
        // The POST that wrote the seat came from no delivery: the check does not count it.
        CheckResult check = report.check("redelivery-after-nack");
        assertFalse(check.passed(), check.evidence());
        assertTrue(check.evidence().startsWith("never POSTed"), check.evidence());
        assertEquals(Result.FAIL, report.verdict());
    }

    /** Signals each escaped child not yet released or stopped (a file beside its mark); returns their marks. */
    private List<Path> signalWaitingChildren(String signal) {
        List<Path> signalled = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path mark : files.filter(f -> f.getFileName().toString().matches("mark-[^.]+")).toList()) {
                if (!Files.exists(Path.of(mark + ".go")) && !Files.exists(Path.of(mark + ".stop"))) {
                    Files.createFile(Path.of(mark + signal));
                    signalled.add(mark);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return signalled;
    }

    @Test
    void aWorkerThatLogsTheBaseUrlWhereverNoCheckLookedForItOnceFailsNoUrlInLogsNamingTheLine() {
        // The cheat that passed once: the full SEATS_BASE_URL in every line, except where the URL held /t/, which only
        // no-url-in-logs's did. Every check's base path is now drawn alike, so no check can be told apart by its URL.
        GradeReport report = Conclusive.grade(new Grader(Workers.calibration("--log-url-unless-token"),
                DELIVERY_TIMEOUT), Set.of("requestid-in-every-attempt-log", "no-url-in-logs"));
        CheckResult noUrl = report.check("no-url-in-logs");
        assertEquals(Result.FAIL, noUrl.result(), noUrl.evidence());
        assertTrue(noUrl.evidence().startsWith("a log line names the base URL: {\"event\":\"seat.grant.attempt\","
                + "\"requestId\":\""), noUrl.evidence());
        assertTrue(noUrl.evidence().contains(",\"url\":\"[SEATS_BASE_URL]\"}"), noUrl.evidence());
        assertTrue(report.check("requestid-in-every-attempt-log").passed(),
                report.check("requestid-in-every-attempt-log").evidence());
        assertEquals(1, report.signals().get(Signal.OBSERVABILITY));
    }

    @Test
    void theBaseUrlLoggedInAnotherChecksDeliveryFailsNoUrlInLogsAndNamesThatCheck() {
        // It logs the URL only on a 504, which only committed-then-504 answers: no-url-in-logs's own deliveries are
        // clean, and the rule is judged over every delivery of the grade.
        GradeReport report = Conclusive.grade(new Grader(Workers.calibration("--log-url-on-504"), DELIVERY_TIMEOUT),
                Set.of("committed-then-504", "no-url-in-logs"));
        CheckResult noUrl = report.check("no-url-in-logs");
        assertEquals(Result.FAIL, noUrl.result(), noUrl.evidence());
        assertTrue(noUrl.evidence().startsWith("in committed-then-504, a log line names the base URL: {"),
                noUrl.evidence());
        assertTrue(noUrl.evidence().contains("\"status\":504,\"url\":\"[SEATS_BASE_URL]\"}"), noUrl.evidence());
        assertTrue(report.check("committed-then-504").passed(), report.check("committed-then-504").evidence());
    }
}
