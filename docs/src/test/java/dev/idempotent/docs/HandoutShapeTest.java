package dev.idempotent.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.docs.PacketVariant.Handout;
import dev.idempotent.docs.PacketVariant.Mapping;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A friend's handout does not solve yours: the secret draws one of two starter shapes that differ behind the
 * frozen surface, so a reference patch of one shape, renamed into another handout's names by the two
 * {@code mapping.tsv} files, does not apply to a handout of the other shape ({@code patch -p1 -F2 --dry-run}
 * fails), while it does apply to another handout of its own shape; and each shape fails and passes the key tests
 * as the packet says.
 */
class HandoutShapeTest {

    @TempDir
    Path temp;

    /** The handouts of this packet's probe secrets generated so far, by the secret's number. */
    private final Map<Integer, Handout> probes = new HashMap<>();

    /** What the last {@code patch} run printed, for a failure's message. */
    private String lastLog = "";

    @ParameterizedTest
    @ValueSource(strings = {"seat-grant", "fetch-client"})
    void twoSecretsGiveTwoShapesAndOneShapesPatchDoesNotApplyToTheOther(String packet) throws IOException {
        Path first = temp.resolve("first");
        Path second = temp.resolve("second");
        Handout one = handoutOfShape(packet, 0, 0, first);
        Handout two = handoutOfShape(packet, 1, 0, second);
        assertEquals(0, one.shape());
        assertEquals(1, two.shape());
        assertTrue(starterCode(first).size() > 0 && !starterCode(first).equals(starterCode(second)),
                "the two shapes must differ in more than names");

        // Not only a file the other shape lacks: the files both shapes have refuse the patch too.
        assertNotEquals(0, dryRun(renamed(first, second, true), second),
                () -> "the first shape's patch applied to the second:\n" + lastLog);
        assertNotEquals(0, dryRun(renamed(second, first, true), first),
                () -> "the second shape's patch applied to the first:\n" + lastLog);
        assertNotEquals(0, dryRun(renamed(first, second, false), second));
        assertNotEquals(0, dryRun(renamed(second, first, false), first));

        // The renaming is sound: the same patch goes onto another secret's handout of the same shape.
        Path firstAgain = temp.resolve("first-again");
        Path secondAgain = temp.resolve("second-again");
        Handout oneAgain = handoutOfShape(packet, 0, 1, firstAgain);
        Handout twoAgain = handoutOfShape(packet, 1, 1, secondAgain);
        assertNotEquals(one.mapping().tokens(), oneAgain.mapping().tokens());
        assertNotEquals(two.mapping().tokens(), twoAgain.mapping().tokens());
        assertEquals(0, dryRun(renamed(first, firstAgain, false), firstAgain),
                () -> "the first shape's patch, renamed:\n" + lastLog);
        assertEquals(0, dryRun(renamed(second, secondAgain, false), secondAgain),
                () -> "the second shape's patch, renamed:\n" + lastLog);

        // The samples are written on the first shape: interviewer/ keeps it, whatever the handout's shape.
        for (Handout handout : List.of(one, two)) {
            SortedMap<String, String> handedOut = new TreeMap<>();
            handout.handout().forEach((path, text) -> {
                if (path.startsWith("starter/") && !PacketVariant.WRAPPER.contains(path.substring("starter/".length()))) {
                    handedOut.put(path.substring("starter/".length()), text);
                }
            });
            SortedMap<String, String> kept = new TreeMap<>();
            handout.interviewer().forEach((path, text) -> {
                if (path.startsWith(PacketVariant.SAMPLES_STARTER + "/")) {
                    kept.put(path.substring(PacketVariant.SAMPLES_STARTER.length() + 1), text);
                }
            });
            assertEquals(handout.shape() == 0, handedOut.equals(kept), "shape " + handout.shape());
        }

        String readme = Files.readString(second.resolve("interviewer/README.md"));
        assertTrue(readme.contains("this handout has the second") && readme.contains(PacketVariant.SECOND_SHAPE
                + "/reference.patch"), readme);
        assertTrue(Files.readString(first.resolve("interviewer/README.md")).contains("this handout has the first"));

        if (packet.equals("seat-grant")) {
            HandoutPacketTest.seatGrantKeyTestsAsThePacketSays(first, one);
            HandoutPacketTest.seatGrantKeyTestsAsThePacketSays(second, two);
        } else {
            HandoutPacketTest.fetchClientTestsAsThePacketSays(first, one);
            HandoutPacketTest.fetchClientTestsAsThePacketSays(second, two);
        }
    }

    /**
     * The {@code skip}-th secret of the form "PACKET shape probe N" whose drawn shape is {@code shape}, its handout
     * written under {@code dir}.
     */
    private Handout handoutOfShape(String packet, int shape, int skip, Path dir) {
        int seen = 0;
        for (int i = 0; i < 64; i++) {
            byte[] secret = (packet + " shape probe " + i).getBytes(StandardCharsets.UTF_8);
            // The four look-ups walk the same secrets from the first: each is generated once.
            Handout handout = probes.computeIfAbsent(i, n -> PacketVariant.generate(ProjectRoot.get(), packet, secret, null));
            if (handout.shape() == shape && seen++ == skip) {
                PacketVariant.writeTree(dir.resolve("handout"), handout.handout());
                PacketVariant.writeTree(dir.resolve("interviewer"), handout.interviewer());
                return handout;
            }
        }
        throw new AssertionError("64 secrets never drew shape " + shape + " twice over; the draw is broken");
    }

    /** The starter's Java code, comments aside, in the packet's names: what two shapes must not share whole. */
    private static List<String> starterCode(Path dir) {
        Mapping back = mapping(dir).reversed();
        List<String> code = new ArrayList<>();
        PacketVariant.readTree(dir.resolve("handout/starter/src/main")).forEach((path, text) ->
                code.add(back.renameTerms(path) + "\n" + JavaSource.code(PacketVariant.Transform.renameJava(text, back, false))));
        return code;
    }

    private static Mapping mapping(Path dir) {
        try {
            return Mapping.parse(Files.readString(dir.resolve("interviewer/mapping.tsv"), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@code from}'s reference patch in {@code to}'s names: each line turned back into the packet's names (and
     * idioms) by {@code from}'s mapping, then into {@code to}'s, as a candidate with both mapping files would.
     * {@code shared}: only the sections of files that {@code to}'s starter has.
     */
    private Path renamed(Path from, Path to, boolean shared) throws IOException {
        Mapping back = mapping(from).reversed();
        Mapping forth = mapping(to);
        StringBuilder out = new StringBuilder();
        boolean java = false;
        boolean keep = true;
        for (String line : Files.readString(from.resolve("interviewer/reference.patch")).split("\n", -1)) {
            if (line.startsWith("--- ")) {
                String path = forth.renameTerms(back.renameTerms(line.substring("--- a/".length())));
                keep = !shared || Files.isRegularFile(to.resolve("handout/starter").resolve(path));
            }
            if (!keep) {
                continue;
            }
            if (line.startsWith("--- ") || line.startsWith("+++ ")) {
                java = line.endsWith(".java");
                out.append(forth.renameTerms(back.renameTerms(line)));
            } else if (line.isEmpty() || line.startsWith("@@") || line.startsWith("\\")) {
                out.append(line);
            } else {
                String body = line.substring(1);
                String renamed = java
                        ? PacketVariant.Transform.renameJava(forth.replaceIdioms(back.replaceIdioms(
                                PacketVariant.Transform.renameJava(body, back, true))), forth, true)
                        : forth.renameXml(back.renameXml(body));
                out.append(line.charAt(0)).append(renamed);
            }
            out.append('\n');
        }
        assertTrue(out.toString().contains("\n@@ "), "no section of the patch is left to apply");
        Path patch = Files.createTempFile(temp, "renamed", ".patch");
        Files.writeString(patch, out.toString().replaceAll("\n+$", "\n"));
        return patch;
    }

    /** The exit code of {@code patch -p1 -F2 --dry-run} of {@code patch} in {@code dir}'s handed-out starter. */
    private int dryRun(Path patch, Path dir) throws IOException {
        Path log = Files.createTempFile(temp, "patch", ".log");
        Process process = new ProcessBuilder("patch", "-p1", "-F2", "--dry-run", "--batch", "-i", patch.toString())
                .directory(dir.resolve("handout/starter").toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("patch did not finish in 60 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
        lastLog = Files.readString(log);
        return process.exitValue();
    }
}
