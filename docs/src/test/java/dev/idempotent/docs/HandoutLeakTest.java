package dev.idempotent.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.docs.PacketVariant.Domain;
import dev.idempotent.docs.PacketVariant.Spec;
import dev.idempotent.docs.PacketVariant.Template;
import dev.idempotent.docs.SearchableStrings.Found;
import dev.idempotent.docs.SearchableStrings.Kind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * No searchable string of a handout occurs in this repository or in the seed documents: the property
 * {@code docs/README.md} ("Handouts that cannot be searched back") promises, checked three ways.
 *
 * <ol>
 *   <li>For every secret: every name and every six-word run that any secret can make of a packet's templates,
 *       in every domain, is enumerated ({@link HandoutSpace}) and looked up.</li>
 *   <li>For real handouts: handouts from {@value #SECRETS} random secrets per packet (fixed seed, so the build
 *       is repeatable) and one per domain go through the definition's own extractor ({@link SearchableStrings}),
 *       which knows nothing of the templates, so whatever the generator leaves unrenamed is caught too.</li>
 *   <li>The check can fail: the packet's own starters, read as if they were handouts, are full of findings.</li>
 * </ol>
 */
class HandoutLeakTest {

    private static final int SECRETS = 20;
    private static RepositoryText repository;

    @BeforeAll
    static void indexTheRepository() {
        repository = RepositoryText.of(ProjectRoot.get());
    }

    @ParameterizedTest
    @ValueSource(strings = {"seat-grant", "fetch-client"})
    void noHandoutFromManySecretsHasASearchableStringInTheRepositoryOrTheSeeds(String packet) {
        List<byte[]> secrets = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(26);
        for (int i = 0; i < SECRETS; i++) {
            byte[] secret = new byte[24];
            random.nextBytes(secret);
            secrets.add(secret);
        }
        List<String> problems = new ArrayList<>();
        Set<String> domains = new LinkedHashSet<>();
        for (byte[] secret : secrets) {
            PacketVariant.Handout handout = PacketVariant.generate(ProjectRoot.get(), packet, secret, null);
            domains.add(handout.domain());
            problems.addAll(leaks(sent(handout)));
        }
        for (Domain domain : Spec.of(packet).domains()) {
            if (!domains.contains(domain.id())) {
                problems.addAll(leaks(sent(PacketVariant.generate(ProjectRoot.get(), packet,
                        domain.id().getBytes(StandardCharsets.UTF_8), domain.id()))));
            }
        }
        assertEquals(List.of(), problems.stream().distinct().limit(40).toList());
    }

    /**
     * What the candidate receives: the handout, and the note the interviewer mails with it (as text: its file name
     * stays with the interviewer, so it is checked under a plain one).
     */
    private static SortedMap<String, String> sent(PacketVariant.Handout handout) {
        SortedMap<String, String> sent = new java.util.TreeMap<>(handout.handout());
        sent.put("note.md", handout.interviewer().get(PacketVariant.NOTE));
        return sent;
    }

    @ParameterizedTest
    @ValueSource(strings = {"seat-grant", "fetch-client"})
    void noNameAnySecretCanComposeIsInTheRepositoryOrTheSeeds(String packet) {
        Spec spec = Spec.of(packet);
        SearchableStrings strings = SearchableStrings.forSources(canonicalSources(packet));
        List<String> problems = new ArrayList<>();
        int names = 0;
        for (Domain domain : spec.domains()) {
            for (Map.Entry<String, Set<String>> slot : HandoutSpace.of(spec, domain).names(spec).entrySet()) {
                for (String name : slot.getValue()) {
                    names++;
                    if (strings.searchable(name)) {
                        repository.whereIs(new Found(slot.getKey(), Kind.TERM, name)).ifPresent(where ->
                                problems.add(domain.id() + " ${" + slot.getKey() + "} = " + name + ": found in " + where));
                    }
                }
            }
        }
        assertTrue(names > 1000, "the enumeration covers the names: " + names);
        assertEquals(List.of(), problems.stream().limit(40).toList());
    }

    @ParameterizedTest
    @ValueSource(strings = {"seat-grant", "fetch-client"})
    void noSixWordRunAnySecretCanWriteIsInTheRepositoryOrTheSeeds(String packet) {
        Spec spec = Spec.of(packet);
        Map<String, Template> prose = new LinkedHashMap<>();
        prose.put("the prompt", spec.prompt());
        prose.put("the note to the candidate", spec.note());
        spec.anchors().forEach(anchor -> prose.put("the comment at " + anchor.file() + " " + anchor.line(), anchor.template()));
        spec.literals().forEach((literal, template) -> prose.put("the wording of \"" + literal + "\"", template));
        List<String> problems = new ArrayList<>();
        int runs = 0;
        for (Domain domain : spec.domains()) {
            HandoutSpace space = HandoutSpace.of(spec, domain);
            for (Map.Entry<String, Template> template : prose.entrySet()) {
                for (String run : space.runs(template.getValue(), SearchableStrings.RUN_WORDS)) {
                    runs++;
                    repository.whereIs(new Found(template.getKey(), Kind.RUN, run)).ifPresent(where ->
                            problems.add(domain.id() + ", " + template.getKey() + ": \"" + run + "\" is in " + where));
                }
            }
        }
        assertTrue(runs > 10_000, "the enumeration covers the prose: " + runs);
        assertEquals(List.of(), problems.stream().limit(40).toList());
    }

    @ParameterizedTest
    @ValueSource(strings = {"seat-grant", "fetch-client"})
    void noMessageOrLogPatternAnySecretCanWriteIsInTheRepositoryOrTheSeeds(String packet) {
        Spec spec = Spec.of(packet);
        SearchableStrings strings = SearchableStrings.forSources(canonicalSources(packet));
        Map<String, Template> whole = new LinkedHashMap<>();
        spec.literals().forEach((literal, template) -> whole.put("the wording of \"" + literal + "\"", template));
        spec.elements().forEach((element, template) -> {
            if (element.startsWith("<pattern>")) {
                whole.put("the log pattern for " + element, Template.parse(template));
            }
        });
        List<String> problems = new ArrayList<>();
        int literals = 0;
        for (Domain domain : spec.domains()) {
            HandoutSpace space = HandoutSpace.of(spec, domain);
            for (Map.Entry<String, Template> template : whole.entrySet()) {
                for (String text : space.texts(template.getValue())) {
                    String content = text.replaceAll("^<pattern>|</pattern>$", "");
                    if (!text.startsWith("<pattern>") && !strings.wholeLiteralCounts(content)) {
                        continue;
                    }
                    literals++;
                    repository.whereIs(new Found(template.getKey(), Kind.LITERAL, content)).ifPresent(where ->
                            problems.add(domain.id() + ", " + template.getKey() + ": \"" + content + "\" is in " + where));
                }
            }
        }
        assertTrue(literals > 100, "the enumeration covers the messages: " + literals);
        assertEquals(List.of(), problems.stream().limit(40).toList());
    }

    /** The check is not vacuous: a packet's starter, read as a handout, is found everywhere. */
    @ParameterizedTest
    @ValueSource(strings = {"seat-grant", "fetch-client"})
    void thePacketsOwnStarterWouldFailTheCheck(String packet) {
        SortedMap<String, String> starter = PacketVariant.readTree(ProjectRoot.packet(packet).resolve("starter"));
        List<String> found = leaks(starter);
        String names = packet.equals("seat-grant") ? "AgentSeatGrantWorker exhausted_retries grant_failed SEATS_BASE_URL"
                : "FetchClient FetchException retries503ThenSucceeds dev.idempotent.fetch";
        for (String name : names.split(" ")) {
            assertTrue(found.stream().anyMatch(f -> f.contains(" " + name + " ")), name + " is found: " + found);
        }
        assertTrue(found.stream().anyMatch(f -> f.contains("six words")), "a comment's prose is found: " + found);
        String literal = packet.equals("seat-grant") ? "LITERAL not done, deliver again: " : "LITERAL the waits grow: ";
        assertTrue(found.stream().anyMatch(f -> f.contains(literal)), "a short message is found: " + found);
        if (packet.equals("seat-grant")) {
            assertTrue(found.stream().anyMatch(f -> f.contains("logback.xml: LITERAL %")), "a log pattern is found: " + found);
        }
    }

    @Test
    void theDefinitionCountsCompoundsAndRunsAndLeavesWordsAndThePlatformAlone() {
        SearchableStrings strings = SearchableStrings.forSources(List.of(
                "import java.net.http.HttpClient;\nclass A { HttpClient c = HttpClient.newHttpClient(); }\n"));
        String source = """
                package org.example.quokka;

                import java.net.http.HttpClient;

                /** Holds a wallaby; a thread-safe holder of one numbat in the burrow at night. */
                class WallabyHolder {
                    HttpClient c = HttpClient.newHttpClient();
                    String code = "numbat_gone:";
                    String phrase = "the quokka sleeps under the old gum tree";
                    String signature = "public static java.util.Map<java.lang.String, java.lang.Object>";
                    int wombat = 1;
                }
                """;
        Set<String> terms = strings.of("src/org/example/quokka/WallabyHolder.java", source).stream()
                .filter(f -> f.kind() == Kind.TERM).map(Found::text).collect(Collectors.toSet());
        assertEquals(Set.of("org.example.quokka", "WallabyHolder", "numbat_gone"), terms);
        Set<String> runs = strings.of("A.java", source).stream()
                .filter(f -> f.kind() == Kind.RUN).map(Found::text).collect(Collectors.toSet());
        assertTrue(runs.contains("the quokka sleeps under the old"), runs::toString);
        assertTrue(runs.contains("holds a wallaby a thread safe"), runs::toString);
        assertFalse(runs.stream().anyMatch(r -> r.startsWith("public static java")), "code in a literal is not prose: " + runs);
        assertTrue(strings.searchable("quokkaBurrow") && strings.searchable("QUOKKA_BURROW"));
        assertFalse(strings.searchable("quokka") || strings.searchable("v2") || strings.searchable("newHttpClient")
                || strings.searchable("pom.xml"));
    }

    @Test
    void aTermIsFoundInsideALongerOneWhateverItsCaseAndSeparators() {
        assertTrue(repository.whereIs(new Found("x", Kind.TERM, "SEAT_GRANT_WORKER")).isPresent());
        assertTrue(repository.whereIs(new Found("x", Kind.TERM, "grantWorkerSmoke")).isPresent(),
                "inside AgentSeatGrantWorkerSmokeTest");
        // Joined here, so this file does not hold the name it looks for.
        String nowhere = String.join("", "quokka", "Burrow", "Wombat");
        assertEquals(Optional.empty(), repository.whereIs(new Found("x", Kind.TERM, nowhere)));
    }

    @Test
    void everyBuildVocabularyEntryIsUsedByAPacketStarter() {
        String starters = String.join("\n", PacketVariant.readTree(ProjectRoot.packet("seat-grant").resolve("starter")).entrySet()
                .stream().map(e -> e.getKey() + "\n" + e.getValue()).toList())
                + String.join("\n", PacketVariant.readTree(ProjectRoot.packet("fetch-client").resolve("starter")).entrySet()
                .stream().map(e -> e.getKey() + "\n" + e.getValue()).toList());
        for (String entry : SearchableStrings.BUILD_VOCABULARY) {
            assertTrue(starters.toLowerCase(Locale.ROOT).contains(entry.toLowerCase(Locale.ROOT)),
                    entry + " is used by a starter, or it does not belong in the list");
        }
    }

    /** Runs where the seeds are on disk ({@code -Didempotent.seeds=DIR}); the fingerprint must be theirs. */
    @Test
    void theSeedFingerprintIsTheSeedsOwn() throws IOException {
        Optional<Path> seeds = RepositoryText.seedsDirectory();
        Assumptions.assumeTrue(seeds.isPresent(), "the seed documents are not on this machine (-Didempotent.seeds)");
        String computed = RepositoryText.Fingerprint.of(RepositoryText.seedTexts(seeds.get())).render();
        String committed = Files.readString(ProjectRoot.get().resolve(RepositoryText.SEED_FINGERPRINT), StandardCharsets.UTF_8);
        if (!computed.equals(committed)) {
            Path fresh = ProjectRoot.get().resolve("docs/target/seeds.fingerprint");
            Files.writeString(fresh, computed, StandardCharsets.UTF_8);
            assertEquals(committed, computed, "the seeds changed: copy " + fresh + " to " + RepositoryText.SEED_FINGERPRINT);
        }
    }

    /** Runs where the seeds are on disk ({@code -Didempotent.seeds=DIR}); the committed line hashes must be theirs. */
    @Test
    void theSeedLineHashesAreTheSeedsOwn() throws IOException {
        Optional<Path> seeds = RepositoryText.seedsDirectory();
        Assumptions.assumeTrue(seeds.isPresent(), "the seed documents are not on this machine (-Didempotent.seeds)");
        String computed = HandoutLines.render(HandoutLines.seedLineHashes(RepositoryText.seedTexts(seeds.get())));
        Path committedFile = ProjectRoot.get().resolve(HandoutLines.SEED_LINES);
        String committed = Files.exists(committedFile) ? Files.readString(committedFile, StandardCharsets.UTF_8) : "";
        if (!computed.equals(committed)) {
            Path fresh = ProjectRoot.get().resolve("docs/target/seed-lines.hashes");
            Files.writeString(fresh, computed, StandardCharsets.UTF_8);
            assertEquals(committed, computed, "the seeds changed: copy " + fresh + " to " + HandoutLines.SEED_LINES);
        }
    }

    /**
     * The line rule can fail: the packets' own starters, read as if handed out, have lines that lead back; a
     * line on the allowlist does not; the allowlist stays short and gives a reason for each entry.
     */
    @Test
    void theLineRuleSeesThePacketsOwnLinesAndTheAllowlistIsShort() {
        HandoutLines lines = HandoutLines.of(ProjectRoot.get());
        for (String packet : List.of("seat-grant", "fetch-client")) {
            SortedMap<String, String> starter = PacketVariant.readTree(ProjectRoot.packet(packet).resolve("starter"));
            List<String> findings = lines.findings(starter);
            assertTrue(findings.size() > 10, packet + "'s own starter leads back by its lines: " + findings);
        }
        Map<String, String> allowed = HandoutLines.allowlist(ProjectRoot.get().resolve(HandoutLines.ALLOWLIST));
        assertTrue(allowed.size() <= HandoutLines.MAX_ALLOWED, "at most " + HandoutLines.MAX_ALLOWED + " entries: "
                + allowed.size());
        allowed.keySet().forEach(line -> assertEquals(Optional.empty(), lines.whereIs(line), line));
        assertTrue(HandoutLines.checked("starter/A.java", "private static final int LIMIT = 1;"));
        assertFalse(HandoutLines.checked("starter/A.java", "import java.util.List;"));
        assertFalse(HandoutLines.checked("starter/A.java", "@FunctionalInterface"));
        assertFalse(HandoutLines.checked("starter/mvnw", "# Licensed to the Apache Software Foundation (ASF)"));
    }

    /**
     * No line of a handout leads back: over the {@value #SECRETS} secrets, both packets, and both starter shapes
     * of each, every checked line of every file the candidate receives (and of the note sent with it) passes
     * the line rule ({@link HandoutLines}), with no exemption but the allowlist.
     */
    @ParameterizedTest
    @ValueSource(strings = {"seat-grant", "fetch-client"})
    void noHandoutLineLeadsBackToAPacketFileOrTheSeeds(String packet) {
        HandoutLines lines = HandoutLines.of(ProjectRoot.get());
        SplittableRandom random = new SplittableRandom(46);
        Set<String> found = new java.util.TreeSet<>();
        for (int i = 0; i < SECRETS; i++) {
            byte[] secret = new byte[24];
            random.nextBytes(secret);
            for (int shape = 0; shape < PacketVariant.SHAPES; shape++) {
                found.addAll(lines.findings(sent(PacketVariant.generate(ProjectRoot.get(), packet, secret, null, shape))));
            }
        }
        assertEquals(List.of(), found.stream().limit(40).toList(), "handout lines that lead back to a packet file or the seeds");
    }

    /**
     * No shape leads back: over the {@value #SECRETS} secrets, both packets and both shapes, no handout Java file
     * of {@value HandoutShapes#MIN_TOKENS} or more tokens has the masked token sequence of a repository Java file
     * ({@link HandoutShapes}).
     */
    @ParameterizedTest
    @ValueSource(strings = {"seat-grant", "fetch-client"})
    void noHandoutJavaFileHasTheShapeOfARepositoryFile(String packet) {
        HandoutShapes shapes = HandoutShapes.of(ProjectRoot.get());
        SplittableRandom random = new SplittableRandom(46);
        Set<String> found = new java.util.TreeSet<>();
        for (int i = 0; i < SECRETS; i++) {
            byte[] secret = new byte[24];
            random.nextBytes(secret);
            for (int shape = 0; shape < PacketVariant.SHAPES; shape++) {
                found.addAll(shapes.findings(PacketVariant.generate(ProjectRoot.get(), packet, secret, null, shape).handout()));
            }
        }
        assertEquals(Set.of(), found, "handout Java files with the shape of a repository file");
    }

    /** The shape rule can fail: a packet's own starter file matches itself, renamed or not. */
    @Test
    void theShapeRuleSeesAFileLaidOutAsTheRepositorysOne() throws IOException {
        HandoutShapes shapes = HandoutShapes.of(ProjectRoot.get());
        Path file = ProjectRoot.packet("fetch-client").resolve("starter/src/main/java/dev/idempotent/fetch/JsonFetcher.java");
        String text = Files.readString(file, StandardCharsets.UTF_8);
        String renamed = text.replace("JsonFetcher", "Qxv").replaceAll("\"([^\"\\\\\n]*)\"", "\"z$1\"")
                .replace("// ", "// y ");
        assertTrue(shapes.whereIs(renamed).isPresent(), "renamed names, strings and comments keep the shape");
        assertEquals(Optional.empty(), shapes.whereIs(renamed.replaceFirst("(?m)^(\\s*)return ", "$1if (true) return ")),
                "one more statement is another shape");
    }

    /** Every searchable string of {@code files} found in the repository or the seeds, described. */
    private static List<String> leaks(Map<String, String> files) {
        List<String> found = new ArrayList<>();
        for (Found string : SearchableStrings.ofHandout(files)) {
            repository.whereIs(string).ifPresent(where -> found.add(string.file() + ": " + string.kind() + " "
                    + string.text() + " " + (string.kind() == Kind.RUN ? "(six words) " : "") + "is in " + where));
        }
        return found;
    }

    private static List<String> canonicalSources(String packet) {
        return PacketVariant.readTree(ProjectRoot.packet(packet).resolve("starter")).entrySet().stream()
                .filter(e -> e.getKey().endsWith(".java")).map(Map.Entry::getValue).toList();
    }
}
