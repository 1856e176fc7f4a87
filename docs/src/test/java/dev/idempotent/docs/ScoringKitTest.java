package dev.idempotent.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The scoring kit scores with a JDK alone: a handout is written into a folder outside the project, its
 * {@code interviewer/kit/} is filled from the reactor's jars (fake-server's runnable jar exists only after
 * {@code package}, so this runs in integration-test, tag {@code kit}), and a plain {@code java kit/ScoringKit.java}
 * (no Maven, nothing of the checkout on its class path) scores the packets' strong sample and a weak one. What the
 * kit's JUnit report shows must give each sample the scores its {@code expected.json} holds, by the rules
 * {@link SamplesPacketTest} states; a hand-in whose pom adds a dependency is told the kit cannot score it; a
 * damaged jar stops it.
 */
@Tag("kit")
class ScoringKitTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path temp;

    private static final Map<String, PacketVariant.Handout> HANDOUTS = new HashMap<>();

    @BeforeAll
    static void handoutsWithTheirKits() throws IOException {
        Path root = ProjectRoot.get();
        assertFalse(temp.toAbsolutePath().normalize().startsWith(root.toAbsolutePath().normalize()),
                "the handouts are written outside the project");
        assertTrue(PacketVariant.kitBuilt(root), "the reactor built the kit's jars and fake-server.jar");
        for (String packet : List.of("fetch-client", "seat-grant")) {
            // The samples are written on the first shape; a fenced packet's handed-out copy must be that shape.
            PacketVariant.Handout handout = PacketVariant.generate(root, packet,
                    ("kit " + packet).getBytes(StandardCharsets.UTF_8), null, 0);
            Path out = temp.resolve(packet);
            PacketVariant.writeTree(out.resolve("handout"), handout.handout());
            PacketVariant.writeTree(out.resolve("interviewer"), handout.interviewer());
            long bytes = PacketVariant.writeKit(root, handout, out, root.resolve(PacketVariant.KIT_JARS),
                    root.resolve(PacketVariant.KIT_GRADER));
            assertTrue(bytes <= 50_000_000L, packet + "'s kit is at most 50 MB: " + bytes);
            HANDOUTS.put(packet, handout);
        }
    }

    private record Scored(int code, String output, Map<String, Boolean> results) {
        /** Whether every run of {@code method} of the test class named {@code simpleName} passed. */
        boolean passed(String simpleName, String method) {
            List<Boolean> runs = results.entrySet().stream()
                    .filter(e -> e.getKey().equals(simpleName + "#" + method)).map(Map.Entry::getValue).toList();
            assertFalse(runs.isEmpty(), simpleName + "#" + method + " ran: " + output);
            return runs.stream().allMatch(b -> b);
        }

        boolean allPassed(String simpleName) {
            return results.entrySet().stream().filter(e -> e.getKey().startsWith(simpleName + "#")).allMatch(Map.Entry::getValue);
        }
    }

    /** Applies {@code sample} to a fresh copy of the first shape and scores it with the kit alone. */
    private static Scored score(String packet, String sample, String... extra) throws Exception {
        Path interviewer = temp.resolve(packet).resolve("interviewer");
        Path handIn = temp.resolve(packet + "-" + sample);
        Map<String, String> tree = PacketVariant.readTree(interviewer.resolve(PacketVariant.SAMPLES_STARTER));
        PacketVariant.writeTree(handIn, PacketVariant.UnifiedDiff.parse(
                Files.readString(interviewer.resolve("samples").resolve(sample + ".patch"))).applyTo(tree));
        return run(packet, handIn, extra);
    }

    private static Scored run(String packet, Path handIn, String... extra) throws Exception {
        Path interviewer = temp.resolve(packet).resolve("interviewer");
        Path reports = Files.createTempDirectory(temp, "reports");
        List<String> command = new java.util.ArrayList<>(List.of(ProcessHandle.current().info().command().orElseThrow(),
                "kit/ScoringKit.java", handIn.toString(), "--reports", reports.toString()));
        command.addAll(List.of(extra));
        ProcessBuilder builder = new ProcessBuilder(command).directory(interviewer.toFile()).redirectErrorStream(true);
        builder.environment().remove("CLASSPATH");
        builder.environment().remove("JDK_JAVA_OPTIONS");
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(5, TimeUnit.MINUTES), "the kit ends");
        return new Scored(process.exitValue(), output, results(reports));
    }

    /** Simple class name + "#" + method (no parameters) to passed, from the console launcher's XML report. */
    private static Map<String, Boolean> results(Path reports) throws Exception {
        Map<String, Boolean> out = new HashMap<>();
        try (Stream<Path> files = Files.list(reports)) {
            for (Path xml : files.filter(f -> f.toString().endsWith(".xml")).toList()) {
                NodeList cases = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(xml.toFile())
                        .getElementsByTagName("testcase");
                for (int i = 0; i < cases.getLength(); i++) {
                    Element c = (Element) cases.item(i);
                    String cls = c.getAttribute("classname");
                    String key = cls.substring(cls.lastIndexOf('.') + 1) + "#" + c.getAttribute("name").replaceFirst("\\(.*", "");
                    boolean passed = c.getElementsByTagName("failure").getLength() == 0
                            && c.getElementsByTagName("error").getLength() == 0
                            && c.getElementsByTagName("skipped").getLength() == 0;
                    out.merge(key, passed, Boolean::logicalAnd);
                }
            }
        }
        return out;
    }

    private static JsonNode expected(String packet, String sample) throws IOException {
        return JSON.readTree(ProjectRoot.packet(packet).resolve("samples").resolve(sample).resolve("expected.json").toFile());
    }

    private static String name(String packet, String packetName) {
        return HANDOUTS.get(packet).mapping().tokens().getOrDefault(packetName, packetName);
    }

    @Test
    void fetchClientStrongAndWeakHandInsGetTheRubricsGates() throws Exception {
        for (String sample : List.of("strong", "retry-every-status")) {
            JsonNode gates = expected("fetch-client", sample).get("gates");
            long start = System.nanoTime();
            Scored s = score("fetch-client", sample);
            long seconds = (System.nanoTime() - start) / 1_000_000_000L;
            String contract = name("fetch-client", "FetchClientContractTest");
            String retry = name("fetch-client", "FetchClientRetryTest");
            String gatesTest = name("fetch-client", "RetryGatesTest");
            String why = sample + " (" + seconds + " s):\n" + s.output();

            assertEquals(s.allPassed(contract) && s.output().contains("pom untouched"), gates.get("contract").asInt() >= 1, why);
            boolean onlyTheTwo = s.passed(retry, name("fetch-client", "doesNotRetry404"))
                    && s.results().entrySet().stream().filter(e -> e.getKey().startsWith(gatesTest + "#")
                            && !e.getKey().endsWith("#theLastFailureIsTheOneReported")
                            && !e.getKey().endsWith("#waitsGrowGoThroughTheSleeperAndStopAtThreeAttempts"))
                            .allMatch(Map.Entry::getValue);
            int retries = !onlyTheTwo ? 0 : s.passed(gatesTest, "theLastFailureIsTheOneReported") ? 2 : 1;
            assertEquals(gates.get("retry").asInt(), retries, why);
            boolean backoff = s.passed(gatesTest, "waitsGrowGoThroughTheSleeperAndStopAtThreeAttempts")
                    && s.passed(retry, name("fetch-client", "retries503ThenSucceeds"));
            assertEquals(gates.get("backoff").asInt() == 2, backoff, why);
            boolean honest = s.output().contains("frozen tests untouched") && s.passed(name("fetch-client", "SecretUrlTest"), "noFailureRevealsTheUrl");
            assertEquals(gates.get("honesty").asInt() >= 1, honest, why);
            assertEquals(expected("fetch-client", sample).get("decision").asText().equals("merge") ? 0 : 1, s.code(), why);
            for (String packetName : List.of("FetchClient", "RetryGatesTest", "SecretUrlTest")) {
                assertFalse(s.output().contains(packetName), "the kit speaks the handout's names: " + why);
            }
        }
    }

    @Test
    void seatGrantStrongAndWeakHandInsGetTheRubricsSignals() throws Exception {
        for (String sample : List.of("strong", "409-is-failure")) {
            JsonNode signals = expected("seat-grant", sample).get("signals");
            long start = System.nanoTime();
            // grade runs once, on the strong hand-in and one check (its rows are debrief questions, not points; the
            // whole catalogue takes a minute, docs/packets/seat-grant/README.md has its time): the kit's wiring.
            Scored s = sample.equals("strong") ? score("seat-grant", sample, "--grade-only", "seed-1-201-once")
                    : score("seat-grant", sample, "--no-grade");
            long seconds = (System.nanoTime() - start) / 1_000_000_000L;
            String why = sample + " (" + seconds + " s):\n" + s.output();
            String outcomes = name("seat-grant", "SeatGrantOutcomesTest");
            String probes = name("seat-grant", "SeatGrantSignalsTest");
            String namesTheSeat = name("seat-grant", "theSuccessEventNamesTheSeat");

            boolean keyed = s.passed(probes, "everyAttemptCarriesTheRequestIdAsItsKey");
            assertEquals(signals.get("idempotency").asInt() == 2, keyed, why);
            boolean classified = s.results().entrySet().stream().filter(e -> e.getKey().startsWith(probes + "#")
                    && !e.getKey().endsWith("#everyAttemptCarriesTheRequestIdAsItsKey")
                    && !e.getKey().endsWith("#" + namesTheSeat)).allMatch(Map.Entry::getValue);
            assertEquals(signals.get("errorClasses").asInt() == 2, classified, why);
            boolean structured = s.passed(outcomes, "outcome1_201ExitsAfterOneAttemptAndRecordsReplayedFalse")
                    && s.passed(outcomes, "outcome4_503Then201RetriesOnceAndRecordsBothAttemptsUnderOneRequestId")
                    && s.passed(probes, namesTheSeat);
            assertEquals(signals.get("observability").asInt() == 2, structured, why);
            assertEquals(s.results().values().stream().allMatch(b -> b) ? 0 : 1, s.code(), why);
            if (sample.equals("strong")) {
                assertTrue(s.output().contains("== grade --handout . (in ") && s.output().matches("(?s).*grade: exit \\d+\\s*")
                        && s.output().matches("(?s).*\\nseed-1-201-once +idempotency +pass .*"),
                        "grade ran from the kit on the hand-in's worker, which passed the check: " + why);
            }
            for (String packetName : List.of("SeatGrant", "theSuccessEventNamesTheSeat", "seat's id")) {
                assertFalse(s.output().contains(packetName), "the kit speaks the handout's names: " + why);
            }
        }
    }

    @Test
    void aHandInThatAddsADependencyIsNotScored() throws Exception {
        Path interviewer = temp.resolve("fetch-client").resolve("interviewer");
        Path handIn = temp.resolve("adds-a-dependency");
        PacketVariant.writeTree(handIn, PacketVariant.readTree(interviewer.resolve(PacketVariant.SAMPLES_STARTER)));
        assertNull(ScoringKit.refusal(handIn, Set.of(Files.readAllLines(interviewer.resolve(ScoringKit.PROPERTIES)).stream()
                .filter(l -> l.startsWith("dependencies=")).findFirst().orElseThrow().substring(13).split(","))),
                "the starter's own dependencies are the kit's");
        Path pom = handIn.resolve("pom.xml");
        Files.writeString(pom, Files.readString(pom).replace("  <dependencies>\n", "  <dependencies>\n    <dependency>\n"
                + "      <groupId>com.google.guava</groupId>\n      <artifactId>guava</artifactId>\n"
                + "      <version>33.4.8-jre</version>\n    </dependency>\n"));

        Scored s = run("fetch-client", handIn);

        assertEquals(2, s.code(), s.output());
        assertTrue(s.output().contains(ScoringKit.CANNOT + ": its pom.xml adds com.google.guava:guava"), s.output());
        assertTrue(s.results().isEmpty(), "nothing ran: " + s.output());
    }

    @Test
    void theCommandLineWritesTheKitInABuiltCheckout() throws Exception {
        Path secret = Files.writeString(temp.resolve("secret.txt"), "a round scored with the kit alone\n");
        Path out = temp.resolve("from-the-command-line");
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        assertEquals(0, PacketVariant.run(new String[] {"fetch-client", "--secret-file", secret.toString(), out.toString(),
                "--root", ProjectRoot.get().toString()}, new java.io.PrintStream(printed, true, StandardCharsets.UTF_8), System.err));
        assertTrue(printed.toString(StandardCharsets.UTF_8).contains("java kit/ScoringKit.java"), printed::toString);
        assertNull(ScoringKit.verify(out.resolve("interviewer")), "the kit it wrote verifies");
        assertFalse(Files.readString(out.resolve("interviewer/kit/ScoringKit.java")).contains("package "),
                "no package line: JDK 22 and later run a file with one only from its package's folder");
    }

    @Test
    void aDamagedJarStopsTheKit() throws Exception {
        Path copy = temp.resolve("damaged");
        Path interviewer = temp.resolve("fetch-client").resolve("interviewer");
        FileTrees.copy(interviewer, copy);
        Path jar;
        try (Stream<Path> jars = Files.list(copy.resolve("kit/lib"))) {
            jar = jars.filter(j -> j.getFileName().toString().startsWith("jackson-core")).findFirst().orElseThrow();
        }
        byte[] bytes = Files.readAllBytes(jar);
        bytes[bytes.length / 2] ^= 1;
        Files.write(jar, bytes);
        assertEquals("kit/lib/" + jar.getFileName() + " does not match its checksum", ScoringKit.verify(copy));
        assertNull(ScoringKit.verify(interviewer), "the kit as written verifies");
    }
}
