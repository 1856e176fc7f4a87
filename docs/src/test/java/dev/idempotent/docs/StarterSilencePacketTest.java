package dev.idempotent.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A starter says nothing about where it came from: not the answer key, the reference patch, the source
 * material it was translated from, the language it was first written in, the packet, the rubric or this
 * project. A candidate who reads such a phrase is pointed at the answer; the build fails instead.
 *
 * <p>The list is of phrases, matched case-insensitively on word boundaries, in every file of a starter
 * (sources, tests, poms, resources). Add to it when a new kind of leak is found; a phrase comes off it only
 * when no starter could use it to point at the answer.
 */
class StarterSilencePacketTest {

    /** Each entry: what a starter must not say. */
    static final List<String> FORBIDDEN = List.of(
            "answer[ -]?keys?", "reference", "seeds?", "ported", "port of", "translated from", "packets?",
            "typescript", "node:", "node 20", "python", "urllib", "test_retry", "test_client", "\\.py",
            "rubric", "interview(er|ers)?", "minimal ?patch", "minimalpatch", "docs/", "original",
            "canonical", "key[ -]tests?", "fake-server", "idempotent-retries", "incident lab", "lab variant",
            "monkeycode", "calibration", "scoring", "scored", "hire", "hiring", "candidate");

    private static final Pattern LEAK = Pattern.compile(
            "\\b(" + String.join("|", FORBIDDEN) + ")\\b", Pattern.CASE_INSENSITIVE);

    @ParameterizedTest
    @ValueSource(strings = {"seat-grant", "fetch-client"})
    void noStarterFileSaysWhereItCameFrom(String packet) {
        assertEquals(List.of(), leaks(ProjectRoot.packet(packet).resolve("starter")));
    }

    @Test
    void theListCatchesTheLeaksItWasWrittenFor() {
        for (String leaky : List.of(
                "// INTERVIEW MATERIAL: ported line for line from the packet's TypeScript.",
                " * <p>FROZEN: byte-identical in the packet's starter and in the answer key",
                "  Every version equals the one pinned in the reference project's root pom",
                "/** The port of {@code import { setTimeout as delay } from \"node:timers/promises\"}. */",
                " * tests ported from {@code test_retry.py}",
                "// see docs/packets/seat-grant/reference.patch",
                "// HTTP/1.1 as the Python original spoke it")) {
            assertFalse(LEAK.matcher(leaky).results().findAny().isEmpty(), "not caught: " + leaky);
        }
        for (String quiet : List.of(
                "private static final TypeReference<Map<String, Object>> JSON_OBJECT = new TypeReference<>() { };",
                "// AgentSeatGrantWorker.java: written by a coding agent, under review",
                " * <p>FROZEN: leave this file exactly as it is.")) {
            assertEquals(List.of(), LEAK.matcher(quiet).results().map(r -> r.group()).toList(), quiet);
        }
    }

    /** Every line of every file under {@code starter} with a forbidden phrase, as "path:line: phrase". */
    static List<String> leaks(Path starter) {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(starter)) {
            for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile).sorted()::iterator) {
                List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
                for (int i = 0; i < lines.size(); i++) {
                    var m = LEAK.matcher(lines.get(i));
                    while (m.find()) {
                        found.add(starter.relativize(file) + ":" + (i + 1) + ": " + m.group());
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return found;
    }
}
