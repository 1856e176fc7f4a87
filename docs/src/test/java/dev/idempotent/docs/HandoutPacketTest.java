package dev.idempotent.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.docs.PacketVariant.Handout;
import dev.idempotent.docs.TestResults.Status;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A handout is worth handing out only if it is the packet's exercise: for every domain of each packet, its
 * starter compiles, fails its key tests exactly where the packet's starter fails them, takes its own reference
 * patch strictly and then passes them all, and says nothing about where it came from; its names turn back into
 * the packet's; and the command line does what the docs say, from a plain {@code java} launch too.
 */
class HandoutPacketTest {

    private static final List<String> BARE_FAILURES = List.of(
            "outcome1_201ExitsAfterOneAttemptAndRecordsReplayedFalse",
            "outcome2_droppedThen409WithTheSameIdExitsWithoutAThirdCall",
            "outcome3_400IsNotRetriedAndNotSleptOn",
            "outcome4_503Then201RetriesOnceAndRecordsBothAttemptsUnderOneRequestId");

    @TempDir
    Path temp;

    static Stream<String> seatGrantDomains() {
        return PacketVariant.Spec.of("seat-grant").domains().stream().map(PacketVariant.Domain::id);
    }

    static Stream<String> fetchClientDomains() {
        return PacketVariant.Spec.of("fetch-client").domains().stream().map(PacketVariant.Domain::id);
    }

    /** A handout of {@code domain}, written under the temporary folder. */
    private Handout handout(String packet, String domain) {
        Handout handout = PacketVariant.generate(ProjectRoot.get(), packet, ("build " + domain).getBytes(StandardCharsets.UTF_8),
                domain);
        PacketVariant.writeTree(temp.resolve("handout"), handout.handout());
        PacketVariant.writeTree(temp.resolve("interviewer"), handout.interviewer());
        return handout;
    }

    @ParameterizedTest(name = "seat-grant, {0}")
    @MethodSource("seatGrantDomains")
    void aSeatGrantHandoutFailsClosedOnItsKeyTestsAndPassesWithItsReferencePatch(String domain) {
        seatGrantKeyTestsAsThePacketSays(temp, handout("seat-grant", domain));
    }

    /**
     * The seat-grant handout written under {@code dir} ({@code handout/}, {@code interviewer/}) fails its key tests
     * where the packet's starter fails them and passes them all with its own reference patch.
     */
    static void seatGrantKeyTestsAsThePacketSays(Path dir, Handout handout) {
        Map<String, String> names = handout.mapping().tokens();
        Path starter = dir.resolve("handout/starter");
        assertEquals(List.of(), StarterSilencePacketTest.leaks(starter));

        String pkg = names.get("dev.idempotent.seatgrant.worker.fixture");
        String smoke = pkg + "." + names.get("AgentSeatGrantWorkerSmokeTest");
        String outcomes = pkg + "." + names.get("SeatGrantOutcomesTest");
        String signals = pkg + "." + names.get("SeatGrantSignalsTest");
        try (StarterRun run = StarterRun.copyOf(starter)) {
            FileTrees.copy(dir.resolve("interviewer/key-tests"), run.root().resolve("src/test/java"));
            TestResults bare = run.test(smoke, outcomes, signals);
            assertTrue(bare.allPassed(smoke), bare::summary);
            for (String failing : BARE_FAILURES) {
                assertEquals(Status.FAILED, bare.get(outcomes, failing).status(), bare::summary);
            }
            assertEquals(Status.PASSED, bare.get(outcomes,
                    "outcome5_fiveRetryableFailuresThrowExhaustedRetriesAndNeverSwallow").status(), bare::summary);
            for (String failing : List.of("everyAttemptCarriesTheRequestIdAsItsKey", "a409IsASuccessAfterOnePost")) {
                assertEquals(Status.FAILED, bare.get(signals, failing).status(), bare::summary);
            }

            run.applyPatch(dir.resolve("interviewer/reference.patch"));
            TestResults patched = run.test(smoke, outcomes, signals);
            assertTrue(patched.allPassed(smoke), patched::summary);
            assertTrue(patched.allPassed(outcomes), patched::summary);
            assertEquals(5, patched.of(outcomes).size(), patched::summary);
            assertTrue(patched.allPassed(signals), patched::summary);
        }
    }

    @ParameterizedTest(name = "fetch-client, {0}")
    @MethodSource("fetchClientDomains")
    void aFetchClientHandoutFailsClosedOnItsTestsAndPassesWithItsReferencePatch(String domain) {
        fetchClientTestsAsThePacketSays(temp, handout("fetch-client", domain));
    }

    /**
     * The fetch-client handout written under {@code dir} passes its contract test, fails its retry tests where
     * the packet's starter fails them, and passes everything with its own reference patch.
     */
    static void fetchClientTestsAsThePacketSays(Path dir, Handout handout) {
        Map<String, String> names = handout.mapping().tokens();
        Path starter = dir.resolve("handout/starter");
        assertEquals(List.of(), StarterSilencePacketTest.leaks(starter));

        String pkg = names.get("dev.idempotent.fetch");
        String contract = pkg + "." + names.get("FetchClientContractTest");
        String retry = pkg + "." + names.get("FetchClientRetryTest");
        String gates = pkg + "." + names.get("RetryGatesTest");
        String secret = pkg + "." + names.get("SecretUrlTest");
        try (StarterRun run = StarterRun.copyOf(starter)) {
            FileTrees.copy(dir.resolve("interviewer/interviewer-tests"), run.root().resolve("src/test/java"));
            TestResults bare = run.test(contract, retry, gates);
            assertTrue(bare.allPassed(contract), bare::summary);
            assertEquals(Status.FAILED, bare.get(retry, names.get("retries503ThenSucceeds")).status(), bare::summary);
            assertEquals(Status.PASSED, bare.get(retry, names.get("doesNotRetry404")).status(), bare::summary);
            assertEquals(Status.FAILED, bare.get(gates, "a429AndA503AreBothRetried").status(), bare::summary);

            run.applyPatch(dir.resolve("interviewer/reference.patch"));
            TestResults patched = run.test(contract, retry, gates, secret);
            for (String cls : List.of(contract, retry, gates, secret)) {
                assertTrue(patched.allPassed(cls), patched::summary);
            }
        }
    }

    /** The mapping is exact: a handout's starter, translated back, has the packet's code (comments aside). */
    @ParameterizedTest
    @ValueSource(strings = {"seat-grant", "fetch-client"})
    void everyDomainsStarterTranslatesBackToThePacketsCode(String packet) {
        Path canonical = ProjectRoot.packet(packet).resolve("starter");
        List<PacketVariant.Domain> domains = PacketVariant.Spec.of(packet).domains();
        for (int d = 0; d < domains.size(); d++) {
            PacketVariant.Domain domain = domains.get(d);
            // Each shape in some domain: the second shape's files replace or join the first's.
            int shape = d % PacketVariant.SHAPES;
            SortedMap<String, String> expected = new TreeMap<>(PacketVariant.readTree(canonical));
            if (shape == 1) {
                expected.putAll(PacketVariant.readTree(ProjectRoot.packet(packet).resolve(PacketVariant.SECOND_SHAPE)
                        .resolve("starter")));
            }
            Handout handout = PacketVariant.generate(ProjectRoot.get(), packet, "back".getBytes(StandardCharsets.UTF_8),
                    domain.id(), shape);
            Path out = temp.resolve(domain.id());
            PacketVariant.writeTree(out.resolve("in"), handout.handout());
            PacketVariant.translateBack(handout.mapping(), out.resolve("in/starter"), out.resolve("back"));
            SortedMap<String, String> back = PacketVariant.readTree(out.resolve("back"));
            // The wrapper is the project's, added to every handout; it has no packet names to translate.
            PacketVariant.WRAPPER.forEach(file -> assertEquals(handout.handout().get("starter/" + file), back.remove(file), file));
            assertEquals(expected.keySet(), back.keySet(), domain.id());
            expected.forEach((path, text) -> {
                if (path.endsWith(".java")) {
                    assertEquals(JavaSource.code(text), JavaSource.code(back.get(path)), domain.id() + ": " + path);
                } else if (path.equals("pom.xml")) {
                    assertEquals(coordinates(text), coordinates(back.get(path)), domain.id() + ": " + path);
                } else {
                    assertEquals(withoutXmlComments(text), withoutXmlComments(back.get(path)), domain.id() + ": " + path);
                }
            });
        }
    }

    @Test
    void theSameSecretGivesTheSameHandoutAndAnotherSecretAnotherOne() {
        byte[] secret = "kept in the interviewers' vault".getBytes(StandardCharsets.UTF_8);
        Handout once = PacketVariant.generate(ProjectRoot.get(), "seat-grant", secret, null);
        Handout again = PacketVariant.generate(ProjectRoot.get(), "seat-grant", secret.clone(), null);
        assertEquals(once.handout(), again.handout());
        assertEquals(once.interviewer(), again.interviewer());
        Handout other = PacketVariant.generate(ProjectRoot.get(), "seat-grant",
                "kept in another vault".getBytes(StandardCharsets.UTF_8), null);
        assertNotEquals(once.mapping().tokens(), other.mapping().tokens());
    }

    @Test
    void theCommandLineWritesAHandoutFromASecretFileAndRefusesWhatItCannotDo() throws IOException {
        Path secret = Files.writeString(temp.resolve("secret.txt"), "round seven, spring\r\n\n");
        Path out = temp.resolve("round-7");
        assertEquals(0, cli("seat-grant", "--secret-file", secret.toString(), out.toString()).code(), "exit code");
        Handout expected = PacketVariant.generate(ProjectRoot.get(), "seat-grant",
                "round seven, spring".getBytes(StandardCharsets.UTF_8), null);
        assertEquals(expected.handout(), PacketVariant.readTree(out.resolve("handout")),
                "line endings and trailing blank lines of the secret file do not change the handout");
        assertEquals(expected.interviewer(), PacketVariant.readTree(out.resolve("interviewer")));

        assertEquals(2, cli("seat-grant", "--secret-file", secret.toString(), out.toString()).code(), "OUT exists");
        Path empty = Files.writeString(temp.resolve("empty.txt"), " \n");
        assertEquals(2, cli("seat-grant", "--secret-file", empty.toString(), temp.resolve("e").toString()).code());
        assertEquals(2, cli("seat-grant", "7").code(), "usage");
        assertEquals(2, cli("no-such-packet", "--secret-file", secret.toString(), temp.resolve("n").toString()).code());
        Run number = cli("fetch-client", "7", temp.resolve("n7").toString());
        assertEquals(0, number.code());
        assertTrue(number.err().contains("never hand it out"), number.err());
    }

    @Test
    void aSecretUnderSixteenBytesIsRefusedWithAWayToMakeOne() throws IOException {
        Path shortSecret = Files.writeString(temp.resolve("short.txt"), "fifteen bytes!!\n");
        Run refused = cli("seat-grant", "--secret-file", shortSecret.toString(), temp.resolve("short").toString());
        assertEquals(2, refused.code());
        assertTrue(refused.err().contains("15 bytes") && refused.err().contains("/dev/urandom"), refused.err());
        assertFalse(Files.exists(temp.resolve("short")), "nothing is written");

        Path enough = Files.writeString(temp.resolve("enough.txt"), "sixteen bytes!!!\n");
        assertEquals(0, cli("seat-grant", "--secret-file", enough.toString(), temp.resolve("enough").toString()).code());
    }

    @Test
    void theInterviewerPicksADomainFromTheListedOnes() throws IOException {
        for (String packet : List.of("seat-grant", "fetch-client")) {
            Run listed = cli(packet, "--list-domains");
            assertEquals(0, listed.code(), listed.err());
            List<String> ids = PacketVariant.Spec.of(packet).domains().stream().map(PacketVariant.Domain::id).toList();
            assertEquals(ids, listed.out().lines().toList());
        }
        assertFalse(cli("seat-grant", "--list-domains").out().lines().anyMatch(d -> d.equals("seats")),
                "the packet's own domain is not offered");

        Path secret = Files.writeString(temp.resolve("pick.txt"), "a round whose domain we chose");
        for (String domain : List.of("licences", "refunds", "vouchers")) {
            Path out = temp.resolve("pick-" + domain);
            Run picked = cli("seat-grant", "--secret-file", secret.toString(), out.toString(), "--domain", domain);
            assertEquals(0, picked.code(), picked.err());
            assertTrue(picked.out().contains("(domain: " + domain + ")"), picked.out());
            assertEquals(PacketVariant.generate(ProjectRoot.get(), "seat-grant",
                    "a round whose domain we chose".getBytes(StandardCharsets.UTF_8), domain).handout(),
                    PacketVariant.readTree(out.resolve("handout")));
        }
        Run own = cli("seat-grant", "--secret-file", secret.toString(), temp.resolve("own").toString(), "--domain", "seats");
        assertEquals(2, own.code());
        assertTrue(own.err().contains("--list-domains"), own.err());
        assertFalse(Files.exists(temp.resolve("own")));
    }

    /** A candidate needs a JDK only: the starter carries the wrapper, and the task says how to fetch once. */
    @ParameterizedTest
    @ValueSource(strings = {"seat-grant", "fetch-client"})
    void theHandoutShipsTheMavenWrapperAndTheTaskSaysHowToFetchOnce(String packet) throws IOException {
        Path out = temp.resolve("wrapped-" + packet);
        Handout handout = PacketVariant.write(ProjectRoot.get(), packet,
                ("a handout with its wrapper " + packet).getBytes(StandardCharsets.UTF_8), out);
        for (String file : PacketVariant.WRAPPER) {
            Path shipped = out.resolve("handout/starter").resolve(file);
            assertTrue(FileTrees.sameBytes(ProjectRoot.get().resolve(file), shipped), file + " is the project's own");
        }
        assertTrue(Files.isExecutable(out.resolve("handout/starter/mvnw")), "mvnw keeps its executable bit");
        String prompt = handout.handout().entrySet().stream().filter(e -> !e.getKey().startsWith("starter/"))
                .map(Map.Entry::getValue).findFirst().orElseThrow();
        assertTrue(prompt.contains("`./mvnw test`"), prompt);
        Matcher once = Pattern.compile("`(\\./mvnw -[Bq] -DskipTests (clean )?package; \\./mvnw -[Bq] test)`").matcher(prompt);
        assertTrue(once.find(), "the task gives the one line that fetches everything: " + prompt);
        assertFalse(prompt.contains("`mvn "), "no Maven install is assumed: " + prompt);
    }

    /**
     * The note the interviewer sends with the handout names the two files the prompt asks for, leaves the address
     * and the deadline to fill in, says set-up does not count, and asks for assumptions instead of questions; and
     * it is worded from the secret, like the handout.
     */
    @ParameterizedTest
    @ValueSource(strings = {"seat-grant", "fetch-client"})
    void theNoteToTheCandidateSaysWhatToSendWhereByWhenAndHowToAsk(String packet) {
        Set<String> notes = new java.util.HashSet<>();
        for (int i = 0; i < 12; i++) {
            Handout handout = PacketVariant.generate(ProjectRoot.get(), packet,
                    ("a note " + packet + " " + i).getBytes(StandardCharsets.UTF_8), null);
            String note = handout.interviewer().get(PacketVariant.NOTE);
            assertNotNull(note, "interviewer/ holds " + PacketVariant.NOTE);
            notes.add(note);
            String prompt = handout.handout().entrySet().stream().filter(e -> !e.getKey().startsWith("starter/"))
                    .map(Map.Entry::getValue).findFirst().orElseThrow();
            Matcher handIn = Pattern.compile("(?m)^- `([^`]+\\.(md|diff))`:").matcher(prompt);
            int files = 0;
            while (handIn.find()) {
                files++;
                assertTrue(note.contains("`" + handIn.group(1) + "`"), "the note names " + handIn.group(1) + ": " + note);
            }
            assertEquals(2, files, "the prompt's hand-in lists two files: " + prompt);
            assertTrue(note.contains("ADDRESS") && note.contains("DEADLINE"), note);
            assertTrue(note.contains("state your assumptions"), note);
            assertTrue(Pattern.compile("(does not count|is not counted)").matcher(note).find(), note);
            assertTrue(handout.interviewer().get("README.md").contains(PacketVariant.NOTE), "the README points to it");
        }
        assertTrue(notes.size() > 6, "the wording follows the secret: " + notes.size() + " notes from 12 secrets");
    }

    /**
     * A line made of library words, which renaming leaves as the packet has it, is written as an equivalent the
     * secret draws: never the packet's line, and over a few secrets every equivalent the generator knows. Two
     * statements it may swap stand once each in the packet's starters and samples, so a swap moves nothing else.
     */
    @ParameterizedTest
    @ValueSource(strings = {"seat-grant", "fetch-client"})
    void aLineOfLibraryWordsIsWrittenAsAnEquivalentTheSecretDraws(String packet) {
        Map<String, Set<String>> drawn = new TreeMap<>();
        for (int i = 0; i < 24; i++) {
            Handout handout = PacketVariant.generate(ProjectRoot.get(), packet,
                    ("idiom probe " + i).getBytes(StandardCharsets.UTF_8), null);
            handout.mapping().idioms().forEach((line, written) -> {
                assertNotEquals(line, written);
                drawn.computeIfAbsent(line, l -> new java.util.TreeSet<>()).add(written);
            });
        }
        Map<String, Set<String>> known = new TreeMap<>();
        String packetText = String.join("\n", PacketVariant.readTree(ProjectRoot.packet(packet).resolve("starter")).values())
                + String.join("\n", PacketVariant.readTree(ProjectRoot.packet(packet).resolve(PacketVariant.SECOND_SHAPE)).values())
                + String.join("\n", PacketVariant.readTree(ProjectRoot.packet(packet).resolve("samples")).values());
        for (PacketVariant.Idiom idiom : PacketVariant.Spec.of(packet).idioms()) {
            for (List<String> option : idiom.options()) {
                for (int i = 0; i < option.size(); i++) {
                    String line = idiom.lines().get(i);
                    if (!option.get(i).equals(line)) {
                        known.computeIfAbsent(line, l -> new java.util.TreeSet<>()).add(option.get(i));
                    }
                    if (idiom.lines().contains(option.get(i)) && !option.get(i).equals(line)) {
                        assertEquals(1, packetText.split(Pattern.quote(line), -1).length - 1, "a swapped line: " + line);
                    }
                }
            }
        }
        assertEquals(known, drawn);
        assertTrue(known.values().stream().filter(options -> options.size() > 1).count() >= 5, known::toString);
    }

    /** The packet's own vocabulary would lead a search back to it, so no secret draws it. */
    @Test
    void noSecretDrawsThePacketsOwnDomain() {
        Pattern own = Pattern.compile("(?i)seat");
        for (int i = 0; i < 40; i++) {
            Handout handout = PacketVariant.generate(ProjectRoot.get(), "seat-grant",
                    ("own domain probe " + i).getBytes(StandardCharsets.UTF_8), null);
            handout.handout().forEach((path, text) -> {
                assertFalse(own.matcher(path).find(), path);
                assertFalse(own.matcher(text).find(), handout.domain() + ": " + path + " speaks of seats");
            });
        }
    }

    @Test
    void translateBackOnTheCommandLineUsesTheMappingTheHandoutCameWith() {
        Path out = temp.resolve("h");
        assertEquals(0, cli("seat-grant", "3", out.toString()).code());
        Path back = temp.resolve("back");
        assertEquals(0, cli("translate-back", out.resolve("interviewer/mapping.tsv").toString(),
                out.resolve("handout/starter").toString(), back.toString()).code());
        String worker = "src/main/java/dev/idempotent/seatgrant/worker/fixture/AgentSeatGrantWorker.java";
        // The worker as the drawn shape has it: the second shape's file replaces the first's.
        int shape = PacketVariant.generate(ProjectRoot.get(), "seat-grant", PacketVariant.numberSecret(3), null).shape();
        Path packet = ProjectRoot.packet("seat-grant");
        Path starter = shape == 0 ? packet.resolve("starter") : packet.resolve(PacketVariant.SECOND_SHAPE).resolve("starter");
        assertEquals(JavaSource.code(starter.resolve(worker)), JavaSource.code(back.resolve(worker)));
    }

    /** The contract: a single-file program that plain {@code java} runs, with no classpath. */
    @Test
    void plainJavaRunsTheGeneratorAsASingleSourceFile() throws Exception {
        Path secret = Files.writeString(temp.resolve("s.txt"), "a launch from the shell");
        Path out = temp.resolve("launched");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(java.toString(),
                ProjectRoot.get().resolve("docs/src/test/java/dev/idempotent/docs/PacketVariant.java").toString(),
                "fetch-client", "--secret-file", secret.toString(), out.toString(), "--root", ProjectRoot.get().toString())
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "the launch ends");
        assertEquals(0, process.exitValue(), output);
        Handout expected = PacketVariant.generate(ProjectRoot.get(), "fetch-client",
                "a launch from the shell".getBytes(StandardCharsets.UTF_8), null);
        assertEquals(expected.handout(), PacketVariant.readTree(out.resolve("handout")));
    }

    private record Run(int code, String out, String err) {
    }

    private static Run cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<String> withRoot = new java.util.ArrayList<>(List.of(args));
        // The kit (tens of MB a handout) is ScoringKitTest's business.
        withRoot.addAll(List.of("--root", ProjectRoot.get().toString(), "--no-kit"));
        int code = PacketVariant.run(withRoot.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** The project's own coordinates and entry point in a pom: what a translated-back pom must restore. */
    private static SortedMap<String, String> coordinates(String pom) {
        SortedMap<String, String> found = new TreeMap<>();
        Matcher m = Pattern.compile("<(groupId|artifactId|name|finalName|mainClass)>([^<]*)</\\1>").matcher(pom);
        while (m.find()) {
            found.putIfAbsent(m.group(1), m.group(2));
        }
        return found;
    }

    private static String withoutXmlComments(String xml) {
        return xml.replaceAll("(?s)<!--.*?-->", "").replaceAll("(?m)^\\s*\\n", "");
    }
}
