package dev.idempotent.seatgrant.server.grade;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker written to a generated handout is graded in the handout's names ({@code grade --handout}), and gets the
 * verdict the same worker written to the packet's names gets. The handout is made fresh here by the packet
 * generator ({@code docs/.../PacketVariant.java}, run as the single-file program it is), and the Python worker is
 * rewritten to its names: its variable, its event's fields, its route and its body's fields and role.
 */
class GradeHandoutTest {

    private static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(180);
    /** The held-open check's hold: well above the Python worker's 2 s request timeout, below the shipped 30 s. */
    private static final Duration HOLD = Duration.ofSeconds(12);
    /** One check per signal, as GradeOtherLanguagesTest grades the Python worker: 8 of 8 for a right one. */
    private static final Set<String> ONE_PER_SIGNAL = Set.of("committed-then-held-open", "twin-deliveries",
            "in-progress-409-retried", "no-url-in-logs");
    private static final Path GENERATOR = Path.of("..", "docs", "src", "test", "java", "dev", "idempotent", "docs",
            "PacketVariant.java");
    /** The packet's names the worker speaks, longest first so none is renamed inside another. */
    private static final List<String> WIRE_NAMES = List.of("SEATS_BASE_URL", "workspaceId", "requestId", "v1/seats",
            "userId", "member", "role");

    @TempDir
    static Path dir;

    private static HandoutNames names;
    private static Path interviewer;

    @BeforeAll
    static void makeAFreshHandout() throws Exception {
        assumeTrue(Workers.installed("python3"), "python3 is not installed: skipping the Python worker");
        String java = ProcessHandle.current().info().command().orElse("java");
        Path out = dir.resolve("handout");
        int number = ThreadLocalRandom.current().nextInt(1, 1_000_000);
        Process generator = new ProcessBuilder(java, GENERATOR.toString(), "seat-grant", String.valueOf(number),
                out.toString(), "--root", "..").redirectErrorStream(true).redirectOutput(dir.resolve("gen.log")
                .toFile()).start();
        assertTrue(generator.waitFor(120, TimeUnit.SECONDS), "the generator did not finish");
        assertEquals(0, generator.exitValue(), Files.readString(dir.resolve("gen.log")));
        interviewer = out.resolve("interviewer");
        names = HandoutNames.read(interviewer.resolve("mapping.tsv"));
    }

    @Test
    void aPythonWorkerWrittenToAFreshHandoutGetsTheVerdictsItsPacketNamedTwinGets() throws Exception {
        List<String> handoutWorker = handoutPython();
        String source = Files.readString(Path.of(handoutWorker.get(1)));
        for (String packetName : WIRE_NAMES) {
            if (!names.name(packetName).equals(packetName)) {
                assertFalse(Pattern.compile("\\b" + Pattern.quote(packetName) + "\\b").matcher(source).find(),
                        "the handout's worker still says " + packetName);
            }
        }

        GradeReport packet = Conclusive.grade(new Grader(Workers.python(), DELIVERY_TIMEOUT, HOLD), ONE_PER_SIGNAL);
        GradeReport handout = Conclusive.grade(new Grader(handoutWorker, DELIVERY_TIMEOUT, HOLD).speaking(names),
                ONE_PER_SIGNAL);
        assertEquals(Result.PASS, packet.verdict(), ReportWriter.table(packet));
        assertEquals(Result.PASS, handout.verdict(), ReportWriter.table(handout, names));
        assertEquals(8, handout.sum(), ReportWriter.table(handout, names));
        assertEquals(packet.signals(), handout.signals());

        List<String> keyless = new ArrayList<>(handoutWorker);
        keyless.add("--keyless");
        GradeReport packetKeyless = Conclusive.grade(new Grader(Workers.python("--keyless"), DELIVERY_TIMEOUT, HOLD),
                ONE_PER_SIGNAL);
        GradeReport handoutKeyless = Conclusive.grade(new Grader(keyless, DELIVERY_TIMEOUT, HOLD).speaking(names),
                ONE_PER_SIGNAL);
        assertEquals(Result.FAIL, packetKeyless.verdict(), ReportWriter.table(packetKeyless));
        assertEquals(Result.FAIL, handoutKeyless.verdict(), ReportWriter.table(handoutKeyless, names));
        assertEquals(packetKeyless.signals().get(Signal.IDEMPOTENCY), handoutKeyless.signals().get(Signal.IDEMPOTENCY));
        assertEquals(packetKeyless.safety().passed(), handoutKeyless.safety().passed());
    }

    @Test
    void theHandoutsWorkerGradedInThePacketsNamesNeverReachesTheApi() throws Exception {
        // Without --handout the grader speaks the packet's names: the handout's variable is never set, so the worker
        // stops at once, as the issue found it ("... is not set").
        List<String> handoutWorker = handoutPython();
        WorkerUnreachableException stopped = org.junit.jupiter.api.Assertions.assertThrows(
                WorkerUnreachableException.class,
                () -> new Grader(handoutWorker, DELIVERY_TIMEOUT).grade(Set.of("seed-1-201-once")));
        assertTrue(stopped.getMessage().contains(names.name("SEATS_BASE_URL") + " is not set"),
                stopped.getMessage());
    }

    /** The packet-named Python worker, its wire names rewritten to the handout's, as a command. */
    private static List<String> handoutPython() throws IOException {
        List<String> packet = Workers.python();
        Path target = dir.resolve("handout_worker.py");
        if (!Files.exists(target)) {
            String source = Files.readString(Path.of(packet.get(1)), StandardCharsets.UTF_8);
            for (String packetName : WIRE_NAMES) {
                Matcher m = Pattern.compile("\\b" + Pattern.quote(packetName) + "\\b").matcher(source);
                source = m.replaceAll(Matcher.quoteReplacement(names.name(packetName)));
            }
            Files.writeString(target, source, StandardCharsets.UTF_8);
        }
        return List.of(packet.get(0), target.toString());
    }
}
