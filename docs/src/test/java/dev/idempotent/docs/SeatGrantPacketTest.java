package dev.idempotent.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.docs.TestResults.Status;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The seat-grant packet fails closed and cannot drift from the module it was cut from: the starter's
 * fixture is the module's fixture in every token of code (comments may differ: the starter's say nothing
 * about where it came from); it compiles and its smoke test passes; the interviewer's
 * outcome tests fail on it exactly where the seed says the fixture is wrong; reference.patch turns it into
 * the module's minimal-patch source (all but the package line, comments aside), after which all five
 * outcomes pass, as they do for differently written correct patches; the
 * starter pom pins the root's versions.
 *
 * <p>Why "all but the package line": the module keeps the fixture and the patched file side by side (the
 * conformance suite and the lab drive both in one JVM), so they live in sibling packages. The candidate's
 * starter has only the fixture's package, and the patch never touches the package line, so a candidate's
 * {@code patch -p1} result still compiles. The check swaps that one line and then compares every byte.
 */
class SeatGrantPacketTest {

    private static final String SMOKE = "dev.idempotent.seatgrant.worker.fixture.AgentSeatGrantWorkerSmokeTest";
    private static final String OUTCOMES = "dev.idempotent.seatgrant.worker.fixture.SeatGrantOutcomesTest";
    static final String SIGNALS = "dev.idempotent.seatgrant.worker.fixture.SeatGrantSignalsTest";
    private static final String FIXTURE = "src/main/java/dev/idempotent/seatgrant/worker/fixture/AgentSeatGrantWorker.java";
    private static final String PATCHED = "src/main/java/dev/idempotent/seatgrant/worker/minimalpatch/AgentSeatGrantWorker.java";
    private static final String RUN_ONCE_PROBE = "dev.idempotent.seatgrant.worker.fixture.RunOnceProbeTest";
    private static final String OUTCOMES_SOURCE = "dev/idempotent/seatgrant/worker/fixture/SeatGrantOutcomesTest.java";

    private final Path root = ProjectRoot.get();
    private final Path packet = ProjectRoot.packet("seat-grant");
    private final Path starter = packet.resolve("starter");
    private final Path module = root.resolve("seat-grant-worker").resolve("lab");

    @Test
    void theStarterFixtureIsTheModuleFixtureCommentsAside() {
        assertEquals(JavaSource.code(module.resolve(FIXTURE)), JavaSource.code(starter.resolve(FIXTURE)),
                "the starter's fixture has drifted from seat-grant-worker-lab's");
    }

    // The starter says nothing about where it came from; the module's copy still says what it is.
    @Test
    void theModulesFixtureKeepsItsInterviewMaterialLabel() throws IOException {
        String label = Files.readString(module.resolve("src/main/java/dev/idempotent/seatgrant/worker/fixture/package-info.java"),
                StandardCharsets.UTF_8);
        assertTrue(label.toLowerCase(java.util.Locale.ROOT).contains("interview material"), label);
    }

    @Test
    void theStarterCompilesAndItsSmokeTestPasses() {
        try (StarterRun run = StarterRun.copyOf(starter)) {
            TestResults results = run.test(SMOKE);
            assertTrue(results.allPassed(SMOKE), results::summary);
        }
    }

    @Test
    void theBareFixtureFailsTheOutcomesItIsMeantToFail() {
        try (StarterRun run = withOutcomeTests()) {
            TestResults results = run.test(OUTCOMES, SIGNALS);
            // 1 and 4: no structured event; 2: 409 read as an error and retried; 3: a 400 retried and slept on.
            for (String failing : List.of(
                    "outcome1_201ExitsAfterOneAttemptAndRecordsReplayedFalse",
                    "outcome2_droppedThen409WithTheSameIdExitsWithoutAThirdCall",
                    "outcome3_400IsNotRetriedAndNotSleptOn",
                    "outcome4_503Then201RetriesOnceAndRecordsBothAttemptsUnderOneRequestId")) {
                assertEquals(Status.FAILED, results.get(OUTCOMES, failing).status(), results::summary);
            }
            // No key, 409 an error, every client error retried: the signal probes say so too.
            for (String failing : List.of("everyAttemptCarriesTheRequestIdAsItsKey", "a409IsASuccessAfterOnePost")) {
                assertEquals(Status.FAILED, results.get(SIGNALS, failing).status(), results::summary);
            }
            assertTrue(results.of(SIGNALS).stream().filter(r -> r.method().equals("aClientErrorStopsAtOnce"))
                    .allMatch(r -> r.status() == Status.FAILED), results::summary);
            // The fixture does throw after five attempts; the seed's outcome 5 is not where it breaks.
            assertEquals(Status.PASSED,
                    results.get(OUTCOMES, "outcome5_fiveRetryableFailuresThrowExhaustedRetriesAndNeverSwallow").status(),
                    results::summary);
        }
    }

    @Test
    void theReferencePatchPassesAllFiveOutcomes() {
        try (StarterRun run = withOutcomeTests()) {
            run.applyPatch(packet.resolve("reference.patch"));
            TestResults results = run.test(SMOKE, OUTCOMES, SIGNALS);
            assertTrue(results.allPassed(SMOKE), results::summary);
            assertTrue(results.allPassed(OUTCOMES), results::summary);
            assertEquals(5, results.of(OUTCOMES).size(), results::summary);
            assertTrue(results.allPassed(SIGNALS), results::summary);
        }
    }

    /**
     * The key tests score the idea, not the minimal patch's spelling of it: each of these correct patches
     * logs differently (MDC; key-values with {@code replayed} and a 0-based attempt; a JSON message with
     * its own exception types; a JSON line on standard output) and each passes all five outcomes.
     */
    @ParameterizedTest
    @ValueSource(strings = {"mdc", "replayed-zero-based", "own-exception", "stdout-json"})
    void everyAlternativeCorrectPatchPassesAllFiveOutcomes(String alternative) {
        try (StarterRun run = withOutcomeTests()) {
            run.applyPatch(ProjectRoot.get().resolve("docs/src/test/resources/packets/seat-grant/alternatives")
                    .resolve(alternative + ".patch"));
            TestResults results = run.test(SMOKE, OUTCOMES, SIGNALS);
            assertTrue(results.allPassed(OUTCOMES), results::summary);
            assertTrue(results.allPassed(SIGNALS), results::summary);
            assertEquals(5, results.of(OUTCOMES).size(), results::summary);
            assertTrue(results.allPassed(SMOKE), results::summary);
        }
    }

    /**
     * The starter's one-delivery entry point speaks the grading contract (event on stdin, SEATS_BASE_URL,
     * exit 0 ack, 3 reject, other redeliver) and keeps doing so once a candidate's patch is applied; here the
     * reference patch, so a 400 ends the delivery at once instead of after five sleeps.
     */
    @Test
    void theEntryPointSpeaksTheGradeContract() {
        try (StarterRun run = StarterRun.copyOf(starter)) {
            run.applyPatch(packet.resolve("reference.patch"));
            FileTrees.copy(root.resolve("docs/src/test/resources/packets/seat-grant/probes"), run.root().resolve("src/test/java"));
            TestResults results = run.test(RUN_ONCE_PROBE);
            assertTrue(results.allPassed(RUN_ONCE_PROBE), results::summary);
            assertEquals(5, results.of(RUN_ONCE_PROBE).size(), results::summary);
        }
    }

    @Test
    void thePatchedStarterIsTheModulesMinimalPatchButForThePackageLine() throws IOException {
        try (StarterRun run = StarterRun.copyOf(starter)) {
            run.applyPatch(packet.resolve("reference.patch"));
            String patched = Files.readString(run.root().resolve(FIXTURE), StandardCharsets.UTF_8);
            String expected = Files.readString(module.resolve(PATCHED), StandardCharsets.UTF_8)
                    .replace("package dev.idempotent.seatgrant.worker.minimalpatch;",
                            "package dev.idempotent.seatgrant.worker.fixture;");
            assertTrue(expected.contains("package dev.idempotent.seatgrant.worker.fixture;"), "package line not found");
            assertEquals(JavaSource.code(expected), JavaSource.code(patched));
        }
    }

    @Test
    void theStarterPomPinsTheRootVersions() {
        Pom starterPom = Pom.read(starter.resolve("pom.xml"));
        assertEquals(List.of(), starterPom.versionsDisagreeingWith(Pom.read(root.resolve("pom.xml"))));
        for (String pinned : List.of("jackson.version", "slf4j.version", "logback.version", "wiremock.version")) {
            assertTrue(starterPom.properties().containsKey(pinned), "the starter pins " + pinned);
        }
    }

    @Test
    void theInterviewerHasEveryDocument() throws IOException {
        for (String document : List.of("PROMPT.md", "README.md", "rubric.md", "answer-key.md", "failure-modes.md",
                "interviewer-sheet.md", "score.sh", "reference.patch", "key-tests/" + OUTCOMES_SOURCE,
                "key-tests/dev/idempotent/seatgrant/worker/fixture/SeatGrantSignalsTest.java")) {
            Path file = packet.resolve(document);
            assertTrue(Files.isRegularFile(file) && Files.size(file) > 0, "packet lacks " + document);
        }
        assertTrue(Files.notExists(starter.resolve("src/test/java").resolve(OUTCOMES_SOURCE)),
                "the interviewer's outcome tests must not ship in the starter");
    }

    /** A starter copy with the interviewer's key tests planted next to the candidate's smoke test. */
    private StarterRun withOutcomeTests() {
        StarterRun run = StarterRun.copyOf(starter);
        try {
            plantKeyTests(run);
            return run;
        } catch (RuntimeException e) {
            run.close();
            throw e;
        }
    }

    /** Copies every key test (the outcomes and the signal probes) into a starter copy's test sources. */
    static void plantKeyTests(StarterRun run) {
        FileTrees.copy(ProjectRoot.packet("seat-grant").resolve("key-tests"), run.root().resolve("src/test/java"));
    }
}
