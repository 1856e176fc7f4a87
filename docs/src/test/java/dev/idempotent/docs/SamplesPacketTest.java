package dev.idempotent.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.idempotent.docs.TestResults.Status;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The rubrics are tested: every scored sample under {@code docs/packets/<packet>/samples/<name>/} is applied to
 * its starter, the interviewer's tests run on the result, and each score the tests can observe must agree with
 * the sample's {@code expected.json}. What the tests cannot observe must be listed in its {@code humanOnly}. Each
 * sample is replayed twice: on the packet's starter, and, translated, on a fresh handout's copy of the first
 * starter shape ({@code interviewer/samples/starter/}, a domain per sample, in turn), which is how an interviewer
 * replays it; the observable scores must not change.
 *
 * <p>Seat-grant, per signal (the key tests are {@code SeatGrantOutcomesTest} and {@code SeatGrantSignalsTest}):
 * <ul>
 *   <li>Idempotency is 2 exactly when every POST carried the requestId as its key; below 2, outcome 2 (the
 *       keyed replay) fails.</li>
 *   <li>Error classes is 2 exactly when every classification probe passes (409 success; 429, 503 retried;
 *       400, 401, 403, 422 stop).</li>
 *   <li>Observability is 2 exactly when outcomes 1 and 4 find a structured event and the success event keeps
 *       the seat id ({@code theSuccessEventNamesTheSeat}).</li>
 *   <li>Patch size 2 needs the key and the 409 handling. Timeout semantics is the review's, a human's call, but
 *       its 2 also needs a patch that resends with the key (the rubric's 2 cell).</li>
 *   <li>{@code pass} is the rubric's rule: a total of 6 or more with Timeout and Idempotency non-zero;
 *       {@code secondReader} is true exactly at a total of 6.</li>
 * </ul>
 *
 * <p>Fetch-client, per gate (the frozen tests plus {@code interviewer-tests/}):
 * <ul>
 *   <li>Contract is 0 exactly when the frozen contract test fails or {@code pom.xml} changed.</li>
 *   <li>Retry is 0 when anything but 429 and 503 gets a second attempt, 1 when only the reported failure is
 *       wrong, 2 otherwise: fully observable.</li>
 *   <li>Backoff is 2 exactly when the waits grow through the {@code Sleeper} and stop at three attempts and the
 *       frozen retry test passes.</li>
 *   <li>Honesty is 0 exactly when a frozen test changed or was deleted, or {@code SecretUrlTest} finds the URL
 *       (a test file the candidate added changes nothing).</li>
 *   <li>{@code total} is the gates' sum, capped at 5 when a frozen test (the contract or the retry test) is left
 *       red: the ticket requires both green, so such a hand-in is below the conversation band.</li>
 *   <li>{@code decision}: merge at a total of 8; a conversation at 6 or 7 with no gate at 0; otherwise close. The
 *       {@code recommendation} follows it: hire, the debrief decides, no hire; {@code secondReader} is true
 *       exactly at a total of 6.</li>
 * </ul>
 */
class SamplesPacketTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> SEAT_SIGNALS =
            List.of("timeout", "idempotency", "errorClasses", "observability", "patchSize");
    private static final List<String> FETCH_GATES = List.of("contract", "retry", "backoff", "honesty");
    /** The highest total a fetch-client hand-in can score while a frozen test it must turn green stays red. */
    private static final int REQUIRED_RED_CAP = 5;
    private static final Map<String, String> RECOMMENDATION =
            Map.of("merge", "hire", "conversation", "the debrief decides", "close", "no hire");
    /** What a candidate hands in besides the patch, in their own words, per packet. */
    private static final Map<String, String> HAND_IN = Map.of("seat-grant", "review.md", "fetch-client", "notes.md");

    /**
     * The handout each domain's replays use, by packet and domain: its secret names the domain only, so every
     * sample replayed in one domain gets the same handout, generated once (each case still writes its own copy).
     */
    private static final Map<String, PacketVariant.Handout> HANDOUTS = new ConcurrentHashMap<>();

    @TempDir
    Path temp;

    static Stream<Arguments> seatGrantSamples() {
        return replays("seat-grant");
    }

    static Stream<Arguments> fetchClientSamples() {
        return replays("fetch-client");
    }

    private static Stream<Arguments> replays(String packet) {
        List<String> names = samples(packet);
        List<PacketVariant.Domain> domains = PacketVariant.Spec.of(packet).domains();
        return IntStream.range(0, names.size()).boxed().flatMap(i -> Stream.of(
                Arguments.of(names.get(i), "packet"),
                Arguments.of(names.get(i), domains.get(i % domains.size()).id())));
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
            for (String file : List.of("patch.diff", HAND_IN.get(packet), "scoring.md", "expected.json")) {
                assertTrue(Files.isRegularFile(dir.resolve(file)) && Files.size(dir.resolve(file)) > 0, dir + " lacks " + file);
            }
            assertTrue(Files.readString(dir.resolve("scoring.md")).contains("Only a human can judge"),
                    dir + "/scoring.md says what only a human can judge");
            assertFalse(Files.readString(dir.resolve(HAND_IN.get(packet))).contains("Only a human can judge"),
                    dir + ": the hand-in is the candidate's, not the scorer's");
        }
    }

    /**
     * Calibration on the one signal only a human reads: two hand-ins with the same patch, whose reviews differ
     * only in what they say about the timeout, score the same on every signal but Timeout semantics, 1 and 2.
     */
    @Test
    void theTimeoutPairDiffersInTimeoutSemanticsAlone() throws IOException {
        Path samples = ProjectRoot.packet("seat-grant").resolve("samples");
        Path one = samples.resolve("timeout-1");
        Path two = samples.resolve("timeout-2");
        assertTrue(FileTrees.sameBytes(one.resolve("patch.diff"), two.resolve("patch.diff")), "the same patch");
        Map<String, Integer> first = scores(read(one.resolve("expected.json")).get("signals"), SEAT_SIGNALS);
        Map<String, Integer> second = scores(read(two.resolve("expected.json")).get("signals"), SEAT_SIGNALS);
        assertEquals(1, first.get("timeout"));
        assertEquals(2, second.get("timeout"));
        first.remove("timeout");
        second.remove("timeout");
        assertEquals(first, second, "every other signal scores the same");
        List<String> a = Files.readAllLines(one.resolve("review.md"));
        List<String> b = Files.readAllLines(two.resolve("review.md"));
        long different = IntStream.range(0, Math.max(a.size(), b.size()))
                .filter(i -> i >= a.size() || i >= b.size() || !a.get(i).equals(b.get(i))).count();
        assertTrue(different > 0 && different <= 4, "the reviews differ in a few lines only: " + different);
    }

    @ParameterizedTest(name = "seat-grant sample {0} on the {1}")
    @MethodSource("seatGrantSamples")
    void seatGrantSampleScoresAgreeWithWhatTheTestsObserve(String name, String where) {
        Path dir = ProjectRoot.packet("seat-grant").resolve("samples").resolve(name);
        JsonNode expected = read(dir.resolve("expected.json"));
        Map<String, Integer> s = scores(expected.get("signals"), SEAT_SIGNALS);
        int total = s.values().stream().mapToInt(Integer::intValue).sum();
        assertEquals(total >= 6 && s.get("timeout") > 0 && s.get("idempotency") > 0, expected.get("pass").asBoolean(),
                name + ": pass does not follow the rubric's rule from " + s);
        assertEquals(total == 6, expected.path("secondReader").asBoolean(), name + ": a second reader scores exactly 6");

        Replay replay = replay("seat-grant", name, where);
        String outcomes = replay.name("dev.idempotent.seatgrant.worker.fixture") + "." + replay.name("SeatGrantOutcomesTest");
        String signals = replay.name("dev.idempotent.seatgrant.worker.fixture") + "." + replay.name("SeatGrantSignalsTest");
        String namesTheSeat = replay.name("theSuccessEventNamesTheSeat");
        try (StarterRun run = StarterRun.copyOf(replay.starter())) {
            run.applyPatch(replay.patch());
            FileTrees.copy(replay.tests(), run.root().resolve("src/test/java"));
            TestResults results = run.test(outcomes, signals);
            boolean keyed = passed(results, signals, "everyAttemptCarriesTheRequestIdAsItsKey");
            boolean replay409 = passed(results, signals, "a409IsASuccessAfterOnePost");
            boolean classified = results.of(signals).stream()
                    .filter(r -> !r.method().equals("everyAttemptCarriesTheRequestIdAsItsKey")
                            && !r.method().equals(namesTheSeat))
                    .allMatch(r -> r.status() == Status.PASSED);
            boolean structured = passed(results, outcomes, "outcome1_201ExitsAfterOneAttemptAndRecordsReplayedFalse")
                    && passed(results, outcomes, "outcome4_503Then201RetriesOnceAndRecordsBothAttemptsUnderOneRequestId")
                    && passed(results, signals, namesTheSeat);
            String why = name + " on the " + where + "\n" + results.summary();

            assertEquals(keyed, s.get("idempotency") == 2, "Idempotency 2 iff every attempt carries the key: " + why);
            if (s.get("timeout") == 2) {
                // The rubric's 2 cell: the lost answer may follow a committed write, and the patch resends with the key.
                assertTrue(keyed, "Timeout semantics 2 needs a patch that resends with the key: " + why);
            }
            if (s.get("idempotency") < 2) {
                assertFalse(passed(results, outcomes, "outcome2_droppedThen409WithTheSameIdExitsWithoutAThirdCall"),
                        "below Idempotency 2 the keyed replay outcome fails: " + why);
            }
            assertEquals(classified, s.get("errorClasses") == 2, "Error classes 2 iff every probe passes: " + why);
            assertEquals(structured, s.get("observability") == 2,
                    "Observability 2 iff outcomes 1 and 4 pass and the success event names the seat: " + why);
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

    @ParameterizedTest(name = "fetch-client sample {0} on the {1}")
    @MethodSource("fetchClientSamples")
    void fetchClientSampleGatesAgreeWithWhatTheTestsObserve(String name, String where) {
        Path dir = ProjectRoot.packet("fetch-client").resolve("samples").resolve(name);
        JsonNode expected = read(dir.resolve("expected.json"));
        Map<String, Integer> g = scores(expected.get("gates"), FETCH_GATES);
        int sum = g.values().stream().mapToInt(Integer::intValue).sum();

        Replay replay = replay("fetch-client", name, where);
        String pkg = replay.name("dev.idempotent.fetch");
        String contract = pkg + "." + replay.name("FetchClientContractTest");
        String retry = pkg + "." + replay.name("FetchClientRetryTest");
        String gates = pkg + "." + replay.name("RetryGatesTest");
        String secretUrl = pkg + "." + replay.name("SecretUrlTest");
        try (StarterRun run = StarterRun.copyOf(replay.starter())) {
            run.applyPatch(replay.patch());
            boolean frozenKept = FileTrees.differences(replay.starter().resolve("src/test"), run.root().resolve("src/test"))
                    .stream().noneMatch(difference -> !difference.contains(": only in " + run.root()));
            boolean pomUntouched = FileTrees.sameBytes(replay.starter().resolve("pom.xml"), run.root().resolve("pom.xml"));
            FileTrees.copy(replay.tests(), run.root().resolve("src/test/java"));
            TestResults results = run.test(contract, retry, secretUrl, gates);
            String why = name + " on the " + where + "\n" + results.summary();

            // A frozen test the ticket requires green, left red, caps the total below the conversation band.
            boolean requiredRed = !results.allPassed(contract) || !results.allPassed(retry);
            int total = requiredRed ? Math.min(sum, REQUIRED_RED_CAP) : sum;
            assertEquals(total, expected.path("total").asInt(-1), name + ": the total of " + g
                    + (requiredRed ? ", capped at " + REQUIRED_RED_CAP + " with a required test red" : "") + ": " + why);
            String decision = total == 8 ? "merge" : total >= 6 && !g.containsValue(0) ? "conversation" : "close";
            assertEquals(decision, expected.get("decision").asText(), name + ": the decision does not follow from " + g);
            assertEquals(RECOMMENDATION.get(decision), expected.path("recommendation").asText(),
                    name + ": the recommendation follows the decision");
            assertEquals(total == 6, expected.path("secondReader").asBoolean(), name + ": a second reader scores exactly 6");

            boolean contractKept = results.allPassed(contract) && pomUntouched;
            assertEquals(contractKept, g.get("contract") >= 1, "Contract 0 iff the contract test or the pom broke: " + why);

            boolean onlyTheTwoStatuses = passed(results, retry, replay.name("doesNotRetry404"))
                    && results.of(gates).stream()
                            .filter(r -> !r.method().equals("theLastFailureIsTheOneReported")
                                    && !r.method().equals("waitsGrowGoThroughTheSleeperAndStopAtThreeAttempts"))
                            .allMatch(r -> r.status() == Status.PASSED);
            int retries = !onlyTheTwoStatuses ? 0 : passed(results, gates, "theLastFailureIsTheOneReported") ? 2 : 1;
            assertEquals(retries, g.get("retry"), "Retry is fully observable: " + why);

            boolean backoff = passed(results, gates, "waitsGrowGoThroughTheSleeperAndStopAtThreeAttempts")
                    && passed(results, retry, replay.name("retries503ThenSucceeds"));
            assertEquals(backoff, g.get("backoff") == 2, "Backoff 2 iff the waits grow, stop at three, and show: " + why);

            TestResults.TestResult secret = results.get(secretUrl, "noFailureRevealsTheUrl");
            boolean leaked = secret.status() != Status.PASSED && secret.failure().contains("leaked");
            assertEquals(!frozenKept || leaked, g.get("honesty") == 0,
                    "Honesty 0 iff a frozen test changed or the URL leaked: " + why);
            if (secret.status() != Status.PASSED && !leaked) {
                // SecretUrlTest counts the 503 case's waits through the Sleeper before it looks for leaks.
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

    /**
     * Where a sample is replayed: the packet itself, or a handout of one domain with the sample translated (the
     * patch from {@code interviewer/samples/}); {@link #name} maps one of the packet's names to the replay's.
     */
    private record Replay(Path starter, Path tests, Path patch, Map<String, String> names) {
        String name(String packetName) {
            return names.getOrDefault(packetName, packetName);
        }
    }

    private Replay replay(String packet, String sample, String where) {
        String tests = packet.equals("seat-grant") ? "key-tests" : "interviewer-tests";
        if (where.equals("packet")) {
            Path dir = ProjectRoot.packet(packet);
            return new Replay(dir.resolve("starter"), dir.resolve(tests),
                    dir.resolve("samples").resolve(sample).resolve("patch.diff"), Map.of());
        }
        PacketVariant.Handout handout = HANDOUTS.computeIfAbsent(packet + " " + where, key -> PacketVariant.generate(
                ProjectRoot.get(), packet, ("samples on " + where).getBytes(StandardCharsets.UTF_8), where));
        PacketVariant.writeTree(temp.resolve("handout"), handout.handout());
        PacketVariant.writeTree(temp.resolve("interviewer"), handout.interviewer());
        // The samples are written on the first shape, which interviewer/ keeps whatever the handout's shape.
        return new Replay(temp.resolve("interviewer").resolve(PacketVariant.SAMPLES_STARTER),
                temp.resolve("interviewer").resolve(tests),
                temp.resolve("interviewer/samples").resolve(sample + ".patch"), handout.mapping().tokens());
    }

    @Test
    void theSamplesCoverTheNamedFailureModes() {
        assertTrue(samples("seat-grant").containsAll(List.of("check-then-post", "local-map", "409-is-failure",
                "fresh-key-per-attempt", "retry-every-status", "timeout-1", "timeout-2")), samples("seat-grant")::toString);
        assertTrue(samples("fetch-client").containsAll(List.of("retry-every-status", "sleep-outside-the-sleeper",
                "url-in-log", "four-attempts", "new-public-type", "extra-test-file")), samples("fetch-client")::toString);
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
