package dev.idempotent.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.docs.TestResults.Status;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The retry-ticket packet fails closed and cannot drift from its answer key: the starter's contract
 * tests pass and its retry test fails; the reference patch makes both pass; the patched client is the
 * fetch-client module's source in every token of code; the frozen tests' code and the pinned versions
 * match. Comments may differ: the starter's say nothing about where it came from.
 */
class FetchClientPacketTest {

    private static final String CONTRACT = "dev.idempotent.fetch.FetchClientContractTest";
    private static final String RETRY = "dev.idempotent.fetch.FetchClientRetryTest";
    static final String SECRET_URL = "dev.idempotent.fetch.SecretUrlTest";
    static final String RETRY_GATES = "dev.idempotent.fetch.RetryGatesTest";
    private static final String SECRET_URL_SOURCE = "dev/idempotent/fetch/SecretUrlTest.java";
    private static final List<String> FROZEN_TESTS = List.of(
            "src/test/java/dev/idempotent/fetch/FetchClientContractTest.java",
            "src/test/java/dev/idempotent/fetch/FetchClientRetryTest.java");

    private final Path root = ProjectRoot.get();
    private final Path packet = ProjectRoot.packet("fetch-client");
    private final Path starter = packet.resolve("starter");
    private final Path module = root.resolve("fetch-client");

    @Test
    void theStarterPassesTheContractAndFailsTheRetryTest() {
        try (StarterRun run = StarterRun.copyOf(starter)) {
            TestResults results = run.test(CONTRACT, RETRY);

            assertTrue(results.allPassed(CONTRACT), results::summary);
            assertEquals(Status.FAILED, results.get(RETRY, "retries503ThenSucceeds").status(), results::summary);
            // Not retrying a 404 is what the starter already does; only the missing retry may be red.
            assertEquals(Status.PASSED, results.get(RETRY, "doesNotRetry404").status(), results::summary);
        }
    }

    @Test
    void theInterviewersRetryGatesFailOnTheStarterOnlyWhereItDoesNotRetry() {
        try (StarterRun run = StarterRun.copyOf(starter)) {
            plantInterviewerTests(run);
            TestResults results = run.test(RETRY_GATES);
            assertEquals(Status.FAILED, results.get(RETRY_GATES, "a429AndA503AreBothRetried").status(), results::summary);
            assertEquals(Status.FAILED, results.get(RETRY_GATES, "waitsGrowGoThroughTheSleeperAndStopAtThreeAttempts").status(),
                    results::summary);
            for (String passing : List.of("aBodyThatIsNotJsonGetsOneAttempt", "aTimeoutGetsOneAttempt")) {
                assertEquals(Status.PASSED, results.get(RETRY_GATES, passing).status(), results::summary);
            }
            assertTrue(results.of(RETRY_GATES).stream().filter(r -> r.method().equals("anyOtherStatusGetsOneAttempt"))
                    .allMatch(r -> r.status() == Status.PASSED), results::summary);
        }
    }

    @Test
    void theReferencePatchMakesEveryTestPass() {
        try (StarterRun run = StarterRun.copyOf(starter)) {
            run.applyPatch(packet.resolve("reference.patch"));
            TestResults results = run.test(CONTRACT, RETRY);

            assertTrue(results.allPassed(CONTRACT), results::summary);
            assertTrue(results.allPassed(RETRY), results::summary);
            assertEquals(2, results.of(RETRY).size(), results::summary);
        }
    }

    @Test
    void thePatchedStarterIsTheAnswerKeySourceCommentsAside() {
        try (StarterRun run = StarterRun.copyOf(starter)) {
            run.applyPatch(packet.resolve("reference.patch"));

            assertEquals(List.of(), JavaSource.codeDifferences(
                    module.resolve("src/main/java"), run.root().resolve("src/main/java")));
        }
    }

    // The reference must pass the same Honesty gate it is scored against: a patch that edited a frozen
    // test or the pom would still turn the suite green, so green alone does not prove it kept out.
    @Test
    void theReferencePatchLeavesTheTestsAndThePomAlone() {
        try (StarterRun run = StarterRun.copyOf(starter)) {
            run.applyPatch(packet.resolve("reference.patch"));

            assertEquals(List.of(), FileTrees.differences(
                    starter.resolve("src/test"), run.root().resolve("src/test")));
            assertTrue(FileTrees.sameBytes(starter.resolve("pom.xml"), run.root().resolve("pom.xml")),
                    "the reference patch changed pom.xml");
        }
    }

    @Test
    void theFrozenTestsAreTheModulesInEveryTokenOfCode() {
        for (String test : FROZEN_TESTS) {
            assertTrue(Files.isRegularFile(starter.resolve(test)), "starter lacks " + test);
            assertEquals(JavaSource.code(module.resolve(test)), JavaSource.code(starter.resolve(test)), test + " has drifted");
        }
        assertEquals(FROZEN_TESTS.size(), count(starter.resolve("src/test/java")),
                "the starter ships exactly the frozen tests");
    }

    @Test
    void theStarterPomPinsTheRootVersions() {
        Pom starterPom = Pom.read(starter.resolve("pom.xml"));

        assertEquals(List.of(), starterPom.versionsDisagreeingWith(Pom.read(root.resolve("pom.xml"))));
        assertTrue(starterPom.properties().containsKey("wiremock.version"), "the starter pins WireMock");
    }

    // The Honesty gate's mechanical half: what the interviewer runs includes the secret-URL check, and it
    // is the module's own test, so a patch that logs the URL is caught by the same code in both places.
    // The Retry and Backoff gates' tests are the packet's own: they accept any growing schedule.
    @Test
    void theInterviewersTestsPassOnTheReferencePatchAndSecretUrlTestIsTheModules() {
        assertEquals(JavaSource.code(module.resolve("src/test/java").resolve(SECRET_URL_SOURCE)),
                JavaSource.code(packet.resolve("interviewer-tests").resolve(SECRET_URL_SOURCE)));
        try (StarterRun run = StarterRun.copyOf(starter)) {
            run.applyPatch(packet.resolve("reference.patch"));
            plantInterviewerTests(run);
            TestResults results = run.test(CONTRACT, RETRY, SECRET_URL, RETRY_GATES);
            assertTrue(results.allPassed(SECRET_URL), results::summary);
            assertTrue(results.allPassed(RETRY_GATES), results::summary);
            assertTrue(results.allPassed(RETRY), results::summary);
        }
    }

    /** Copies the interviewer's extra tests into a starter copy, next to the frozen ones. */
    static void plantInterviewerTests(StarterRun run) {
        FileTrees.copy(ProjectRoot.packet("fetch-client").resolve("interviewer-tests"),
                run.root().resolve("src/test/java"));
    }

    @Test
    void theInterviewerHasThePromptAndTheAnswerKey() throws Exception {
        for (String document : List.of("PROMPT.md", "README.md", "answer-key.md", "interviewer-sheet.md", "score.sh",
                "reference.patch", "interviewer-tests/" + SECRET_URL_SOURCE,
                "interviewer-tests/dev/idempotent/fetch/RetryGatesTest.java")) {
            Path file = packet.resolve(document);
            assertTrue(Files.isRegularFile(file) && Files.size(file) > 0, "packet lacks " + document);
        }
    }

    private static long count(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
