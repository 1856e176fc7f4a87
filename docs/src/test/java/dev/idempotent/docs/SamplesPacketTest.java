package dev.idempotent.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.idempotent.docs.TestResults.Status;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The rubrics are tested: every scored sample under {@code docs/packets/<packet>/samples/<name>/} is applied to
 * its starter, the interviewer's tests run on the result, and each score the tests can observe must agree with
 * the sample's {@code expected.json}. What the tests cannot observe must be listed in its {@code humanOnly}.
 *
 * <p>Seat-grant, per signal (the key tests are {@code SeatGrantOutcomesTest} and {@code SeatGrantSignalsTest}):
 * <ul>
 *   <li>Idempotency is 2 exactly when every POST carried the requestId as its key; below 2, outcome 2 (the
 *       keyed replay) fails.</li>
 *   <li>Error classes is 2 exactly when every classification probe passes (409 success; 429, 503 retried;
 *       400, 401, 403, 422 stop).</li>
 *   <li>Observability is 2 exactly when outcomes 1 and 4 find a structured event.</li>
 *   <li>Patch size 2 needs the key and the 409 handling. Timeout semantics is the review's, a human's call.</li>
 *   <li>{@code pass} is the rubric's rule: a total of 6 or more with Timeout and Idempotency non-zero.</li>
 * </ul>
 *
 * <p>Fetch-client, per gate (the frozen tests plus {@code interviewer-tests/}):
 * <ul>
 *   <li>Contract is 0 exactly when the frozen contract test fails or {@code pom.xml} changed.</li>
 *   <li>Retry is 0 when anything but 429 and 503 gets a second attempt, 1 when only the reported failure is
 *       wrong, 2 otherwise: fully observable.</li>
 *   <li>Backoff is 2 exactly when the waits grow through the {@code Sleeper} and stop at three attempts and the
 *       frozen retry test passes.</li>
 *   <li>Honesty is 0 exactly when a frozen test changed or {@code SecretUrlTest} finds the URL.</li>
 *   <li>{@code decision}: merge at 8; a conversation at 6 or 7 with no gate at 0; otherwise close.</li>
 * </ul>
 */
class SamplesPacketTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String OUTCOMES = "dev.idempotent.seatgrant.worker.fixture.SeatGrantOutcomesTest";
    private static final String SIGNALS = SeatGrantPacketTest.SIGNALS;
    private static final String CONTRACT = "dev.idempotent.fetch.FetchClientContractTest";
    private static final String RETRY = "dev.idempotent.fetch.FetchClientRetryTest";
    private static final List<String> SEAT_SIGNALS =
            List.of("timeout", "idempotency", "errorClasses", "observability", "patchSize");
    private static final List<String> FETCH_GATES = List.of("contract", "retry", "backoff", "honesty");

    static List<String> seatGrantSamples() {
        return samples("seat-grant");
    }

    static List<String> fetchClientSamples() {
        return samples("fetch-client");
    }

    @ParameterizedTest
    @ValueSource(strings = {"seat-grant", "fetch-client"})
    void everyPacketHasAtLeastSixCompleteSamplesWithAStrongAndABorderlineOne(String packet) throws IOException {
        List<String> names = samples(packet);
        assertTrue(names.size() >= 6, packet + " has " + names);
        assertTrue(names.contains("strong"), names::toString);
        assertTrue(names.stream().anyMatch(n -> n.startsWith("borderline")), names::toString);
        for (String name : names) {
            Path dir = ProjectRoot.packet(packet).resolve("samples").resolve(name);
            for (String file : List.of("patch.diff", "review.md", "expected.json")) {
                assertTrue(Files.isRegularFile(dir.resolve(file)) && Files.size(dir.resolve(file)) > 0, dir + " lacks " + file);
            }
            assertTrue(Files.readString(dir.resolve("review.md")).contains("Only a human can judge"),
                    dir + "/review.md says what only a human can judge");
        }
    }

    @ParameterizedTest(name = "seat-grant sample {0}")
    @MethodSource("seatGrantSamples")
    void seatGrantSampleScoresAgreeWithWhatTheTestsObserve(String name) {
        Path dir = ProjectRoot.packet("seat-grant").resolve("samples").resolve(name);
        JsonNode expected = read(dir.resolve("expected.json"));
        Map<String, Integer> s = scores(expected.get("signals"), SEAT_SIGNALS);
        int total = s.values().stream().mapToInt(Integer::intValue).sum();
        assertEquals(total >= 6 && s.get("timeout") > 0 && s.get("idempotency") > 0, expected.get("pass").asBoolean(),
                name + ": pass does not follow the rubric's rule from " + s);

        try (StarterRun run = StarterRun.copyOf(ProjectRoot.packet("seat-grant").resolve("starter"))) {
            run.applyPatch(dir.resolve("patch.diff"));
            SeatGrantPacketTest.plantKeyTests(run);
            TestResults results = run.test(OUTCOMES, SIGNALS);
            boolean keyed = passed(results, SIGNALS, "everyAttemptCarriesTheRequestIdAsItsKey");
            boolean replay409 = passed(results, SIGNALS, "a409IsASuccessAfterOnePost");
            boolean classified = results.of(SIGNALS).stream()
                    .filter(r -> !r.method().equals("everyAttemptCarriesTheRequestIdAsItsKey"))
                    .allMatch(r -> r.status() == Status.PASSED);
            boolean structured = passed(results, OUTCOMES, "outcome1_201ExitsAfterOneAttemptAndRecordsReplayedFalse")
                    && passed(results, OUTCOMES, "outcome4_503Then201RetriesOnceAndRecordsBothAttemptsUnderOneRequestId");
            String why = name + "\n" + results.summary();

            assertEquals(keyed, s.get("idempotency") == 2, "Idempotency 2 iff every attempt carries the key: " + why);
            if (s.get("idempotency") < 2) {
                assertFalse(passed(results, OUTCOMES, "outcome2_droppedThen409WithTheSameIdExitsWithoutAThirdCall"),
                        "below Idempotency 2 the keyed replay outcome fails: " + why);
            }
            assertEquals(classified, s.get("errorClasses") == 2, "Error classes 2 iff every probe passes: " + why);
            assertEquals(structured, s.get("observability") == 2, "Observability 2 iff outcomes 1 and 4 pass: " + why);
            if (s.get("patchSize") == 2) {
                assertTrue(keyed && replay409, "Patch size 2 needs the key and the 409 handling: " + why);
            }
        }
        Set<String> human = new HashSet<>(List.of("timeout", "patchSize"));
        for (String signal : List.of("idempotency", "errorClasses", "observability")) {
            if (s.get(signal) < 2) {
                human.add(signal); // 0 or 1 is a reading of the review and the diff
            }
        }
        assertTrue(strings(expected.get("humanOnly")).containsAll(human),
                name + ": humanOnly must list " + human + " (what no test can pin)");
    }

    @ParameterizedTest(name = "fetch-client sample {0}")
    @MethodSource("fetchClientSamples")
    void fetchClientSampleGatesAgreeWithWhatTheTestsObserve(String name) {
        Path packet = ProjectRoot.packet("fetch-client");
        Path dir = packet.resolve("samples").resolve(name);
        JsonNode expected = read(dir.resolve("expected.json"));
        Map<String, Integer> g = scores(expected.get("gates"), FETCH_GATES);
        int total = g.values().stream().mapToInt(Integer::intValue).sum();
        String decision = total == 8 ? "merge" : total >= 6 && !g.containsValue(0) ? "conversation" : "close";
        assertEquals(decision, expected.get("decision").asText(), name + ": the decision does not follow from " + g);

        try (StarterRun run = StarterRun.copyOf(packet.resolve("starter"))) {
            run.applyPatch(dir.resolve("patch.diff"));
            boolean frozenUntouched = FileTrees.differences(packet.resolve("starter/src/test"), run.root().resolve("src/test")).isEmpty();
            boolean pomUntouched = FileTrees.sameBytes(packet.resolve("starter/pom.xml"), run.root().resolve("pom.xml"));
            FetchClientPacketTest.plantInterviewerTests(run);
            String gates = FetchClientPacketTest.RETRY_GATES;
            TestResults results = run.test(CONTRACT, RETRY, FetchClientPacketTest.SECRET_URL, gates);
            String why = name + "\n" + results.summary();

            boolean contractKept = results.allPassed(CONTRACT) && pomUntouched;
            assertEquals(contractKept, g.get("contract") >= 1, "Contract 0 iff the contract test or the pom broke: " + why);

            boolean onlyTheTwoStatuses = passed(results, RETRY, "doesNotRetry404")
                    && results.of(gates).stream()
                            .filter(r -> !r.method().equals("theLastFailureIsTheOneReported")
                                    && !r.method().equals("waitsGrowGoThroughTheSleeperAndStopAtThreeAttempts"))
                            .allMatch(r -> r.status() == Status.PASSED);
            int retry = !onlyTheTwoStatuses ? 0 : passed(results, gates, "theLastFailureIsTheOneReported") ? 2 : 1;
            assertEquals(retry, g.get("retry"), "Retry is fully observable: " + why);

            boolean backoff = passed(results, gates, "waitsGrowGoThroughTheSleeperAndStopAtThreeAttempts")
                    && passed(results, RETRY, "retries503ThenSucceeds");
            assertEquals(backoff, g.get("backoff") == 2, "Backoff 2 iff the waits grow, stop at three, and show: " + why);

            TestResults.TestResult secret = results.get(FetchClientPacketTest.SECRET_URL, "noFailureRevealsTheUrl");
            boolean leaked = secret.status() != Status.PASSED && secret.failure().contains("leaked");
            assertEquals(!frozenUntouched || leaked, g.get("honesty") == 0,
                    "Honesty 0 iff a frozen test changed or the URL leaked: " + why);
            if (secret.status() != Status.PASSED && !leaked) {
                // SecretUrlTest checks for leaks only after its 503 case went through the Sleeper twice.
                assertFalse(backoff, "SecretUrlTest failed for a reason other than a leak: " + why);
            }
        }
        Set<String> human = new HashSet<>();
        if (g.get("contract") >= 1) {
            human.add("contract"); // 2 or 1: package-private reshaping is read in the diff
        }
        if (g.get("backoff") < 2) {
            human.add("backoff"); // 1 or 0: how wrong the schedule is
        }
        if (g.get("honesty") >= 1) {
            human.add("honesty"); // 2 or 1: noise is read in the diff
        }
        assertTrue(strings(expected.get("humanOnly")).containsAll(human),
                name + ": humanOnly must list " + human + " (what no test can pin)");
    }

    @Test
    void theSamplesCoverTheNamedFailureModes() {
        assertTrue(seatGrantSamples().containsAll(List.of("check-then-post", "local-map", "409-is-failure",
                "fresh-key-per-attempt", "retry-every-status")), seatGrantSamples()::toString);
        assertTrue(fetchClientSamples().containsAll(List.of("retry-every-status", "sleep-outside-the-sleeper",
                "url-in-log", "four-attempts", "new-public-type")), fetchClientSamples()::toString);
    }

    private static boolean passed(TestResults results, String className, String method) {
        List<TestResults.TestResult> runs = results.of(className).stream().filter(r -> r.method().equals(method)).toList();
        if (runs.isEmpty()) {
            throw new IllegalStateException(className + "#" + method + " did not run:\n" + results.summary());
        }
        return runs.stream().allMatch(r -> r.status() == Status.PASSED);
    }

    private static Map<String, Integer> scores(JsonNode node, List<String> keys) {
        assertEquals(new HashSet<>(keys), new HashSet<>(strings(node.fieldNames())), "score keys");
        Map<String, Integer> out = new LinkedHashMap<>();
        for (String key : keys) {
            int value = node.get(key).asInt(-1);
            assertTrue(node.get(key).isInt() && value >= 0 && value <= 2, key + " must be 0, 1 or 2: " + node);
            out.put(key, value);
        }
        return out;
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static List<String> strings(java.util.Iterator<String> names) {
        List<String> out = new ArrayList<>();
        names.forEachRemaining(out::add);
        return out;
    }

    private static JsonNode read(Path file) {
        try {
            return JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> samples(String packet) {
        Path dir = ProjectRoot.packet(packet).resolve("samples");
        try (Stream<Path> children = Files.list(dir)) {
            return children.filter(Files::isDirectory).map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
