package dev.idempotent.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.docs.TestResults.Status;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A renamed variant is only worth handing out if it is the same exercise: for several numbers, the variant
 * {@link PacketVariant} writes must fail closed exactly as the packet does, take its renamed reference patch
 * strictly, say nothing about its origin, and share no name with the original it was made from.
 */
class VariantPacketTest {

    @TempDir
    Path temp;

    @ParameterizedTest(name = "seat-grant variant {0}")
    @ValueSource(ints = {0, 1, 2})
    void aSeatGrantVariantFailsClosedLikeThePacket(int number) {
        Path out = temp.resolve("sg" + number);
        Map<String, String> names = PacketVariant.write(ProjectRoot.packet("seat-grant"), "seat-grant", number, out);
        assertNothingOriginalIn(out.resolve("starter"), List.of("dev.idempotent", "dev/idempotent",
                "AgentSeatGrantWorker", "SeatEvent", "GrantBody", "postGrant", "handleSeatRequested", "seatsUri"));
        assertEquals(List.of(), StarterSilencePacketTest.leaks(out.resolve("starter")));

        String pkg = names.get("dev.idempotent.seatgrant.worker.fixture");
        String smoke = pkg + "." + names.get("AgentSeatGrantWorkerSmokeTest");
        String outcomes = pkg + ".SeatGrantOutcomesTest";
        String signals = pkg + ".SeatGrantSignalsTest";
        try (StarterRun run = StarterRun.copyOf(out.resolve("starter"))) {
            FileTrees.copy(out.resolve("key-tests"), run.root().resolve("src/test/java"));
            TestResults bare = run.test(smoke, outcomes, signals);
            assertTrue(bare.allPassed(smoke), bare::summary);
            for (String failing : List.of(
                    "outcome1_201ExitsAfterOneAttemptAndRecordsReplayedFalse",
                    "outcome2_droppedThen409WithTheSameIdExitsWithoutAThirdCall",
                    "outcome3_400IsNotRetriedAndNotSleptOn",
                    "outcome4_503Then201RetriesOnceAndRecordsBothAttemptsUnderOneRequestId")) {
                assertEquals(Status.FAILED, bare.get(outcomes, PacketVariant.renamed(names, failing)).status(), bare::summary);
            }
            assertEquals(Status.PASSED, bare.get(outcomes,
                    "outcome5_fiveRetryableFailuresThrowExhaustedRetriesAndNeverSwallow").status(), bare::summary);
            assertEquals(Status.FAILED, bare.get(signals, "everyAttemptCarriesTheRequestIdAsItsKey").status(), bare::summary);

            run.applyPatch(out.resolve("reference.patch"));
            TestResults patched = run.test(smoke, outcomes, signals);
            assertTrue(patched.allPassed(smoke), patched::summary);
            assertTrue(patched.allPassed(outcomes), patched::summary);
            assertEquals(5, patched.of(outcomes).size(), patched::summary);
            assertTrue(patched.allPassed(signals), patched::summary);
        }
    }

    @ParameterizedTest(name = "fetch-client variant {0}")
    @ValueSource(ints = {0, 1, 2})
    void aFetchClientVariantFailsClosedLikeThePacket(int number) {
        Path out = temp.resolve("fc" + number);
        Map<String, String> names = PacketVariant.write(ProjectRoot.packet("fetch-client"), "fetch-client", number, out);
        assertNothingOriginalIn(out.resolve("starter"), List.of("dev.idempotent", "dev/idempotent", "FetchClient",
                "FetchException", "JsonFetcher", "Sleeper", "fetchJson"));
        assertEquals(List.of(), StarterSilencePacketTest.leaks(out.resolve("starter")));
        String prompt = read(out.resolve("PROMPT.md"));
        assertTrue(prompt.contains("Retry HTTP 429 and " + names.get("503")), prompt);
        assertNotEquals("503", names.get("503"));

        String pkg = names.get("dev.idempotent.fetch");
        String contract = pkg + "." + names.get("FetchClientContractTest");
        String retry = pkg + "." + names.get("FetchClientRetryTest");
        String gates = pkg + ".RetryGatesTest";
        String secret = pkg + ".SecretUrlTest";
        try (StarterRun run = StarterRun.copyOf(out.resolve("starter"))) {
            TestResults bare = run.test(contract, retry);
            assertTrue(bare.allPassed(contract), bare::summary);
            assertEquals(Status.FAILED, bare.get(retry, PacketVariant.renamed(names, "retries503ThenSucceeds")).status(),
                    bare::summary);
            assertEquals(Status.PASSED, bare.get(retry, "doesNotRetry404").status(), bare::summary);

            run.applyPatch(out.resolve("reference.patch"));
            FileTrees.copy(out.resolve("interviewer-tests"), run.root().resolve("src/test/java"));
            TestResults patched = run.test(contract, retry, gates, secret);
            for (String cls : List.of(contract, retry, gates, secret)) {
                assertTrue(patched.allPassed(cls), patched::summary);
            }
        }
    }

    private static void assertNothingOriginalIn(Path starter, List<String> originals) {
        try (Stream<Path> files = Files.walk(starter)) {
            for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                String text = read(file) + "\n" + starter.relativize(file);
                for (String original : originals) {
                    assertFalse(text.matches("(?s).*(?<![A-Za-z0-9_])" + java.util.regex.Pattern.quote(original)
                            + "(?![A-Za-z0-9_]).*"), file + " still says " + original);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
