package dev.idempotent.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fetch-client {@code score.sh} fence matches the answer key: a changed or deleted frozen test breaks it
 * (Honesty 0), a test file the candidate added does not. The script runs for real under {@code bash}, with a
 * stand-in {@code mvnw} that passes, so only the fence is under test here.
 */
class ScoreScriptTest {

    @TempDir
    Path temp;

    private Path fakeRoot;
    private final Path packet = ProjectRoot.packet("fetch-client");

    @BeforeEach
    void aRootWhoseMavenAlwaysPasses() throws IOException {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/bin/bash")) || Files.isExecutable(Path.of("/usr/bin/bash")),
                "score.sh needs bash");
        fakeRoot = Files.createDirectories(temp.resolve("root"));
        Path mvnw = Files.writeString(fakeRoot.resolve("mvnw"), "#!/bin/sh\nexit 0\n");
        assertTrue(mvnw.toFile().setExecutable(true));
    }

    private record Result(int code, String output) {
    }

    private Result score(Path candidate, Path from) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("bash", packet.resolve("score.sh").toString(), candidate.toString(),
                from.toString()).redirectErrorStream(true);
        builder.environment().put("IDEMPOTENT_RETRIES_ROOT", fakeRoot.toString());
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "score.sh ends");
        return new Result(process.exitValue(), output);
    }

    private Path candidate() {
        Path copy = temp.resolve("candidate");
        FileTrees.copy(packet.resolve("starter"), copy);
        return copy;
    }

    @Test
    void aTestFileTheCandidateAddedIsListedNotPenalised() throws Exception {
        Path candidate = candidate();
        Files.writeString(candidate.resolve("src/test/java/dev/idempotent/fetch/ThrottleTest.java"), "class ThrottleTest {}\n");

        Result result = score(candidate, packet);

        assertEquals(0, result.code(), result.output());
        assertTrue(result.output().contains("frozen tests untouched"), result.output());
        assertTrue(result.output().contains("added by the candidate") && result.output().contains("ThrottleTest.java"),
                result.output());
        assertFalse(result.output().contains("Honesty 0"), result.output());
    }

    @Test
    void aChangedOrDeletedFrozenTestBreaksTheFence() throws Exception {
        Path candidate = candidate();
        Path retry = candidate.resolve("src/test/java/dev/idempotent/fetch/FetchClientRetryTest.java");
        Files.writeString(retry, Files.readString(retry).replace("assertEquals(2, sleeps.size()", "assertEquals(0, sleeps.size()"));
        Files.delete(candidate.resolve("src/test/java/dev/idempotent/fetch/FetchClientContractTest.java"));

        Result result = score(candidate, packet);

        assertEquals(1, result.code(), result.output());
        assertTrue(result.output().contains("FROZEN TEST CHANGED: src/test/java/dev/idempotent/fetch/FetchClientRetryTest.java"),
                result.output());
        assertTrue(result.output().contains("FROZEN TEST DELETED: src/test/java/dev/idempotent/fetch/FetchClientContractTest.java"),
                result.output());
    }

    /** The sheet's promise: keep {@code interviewer/} and the secret, send {@code handout/}, and still score. */
    @Test
    void aHandoutIsScoredFromItsInterviewerFolderAlone() throws Exception {
        Path out = temp.resolve("handout-folder");
        PacketVariant.Handout handout = PacketVariant.write(ProjectRoot.get(), "fetch-client",
                "score a handout".getBytes(StandardCharsets.UTF_8), out);
        Path candidate = temp.resolve("handed-in");
        FileTrees.copy(out.resolve("handout/starter"), candidate);
        FileTrees.delete(out.resolve("handout"));
        Path interviewer = out.resolve("interviewer");

        Result untouched = score(candidate, interviewer);
        assertEquals(0, untouched.code(), untouched.output());
        assertTrue(untouched.output().contains("frozen tests untouched") && untouched.output().contains("pom untouched"),
                untouched.output());

        String retryTest = handout.handout().keySet().stream().filter(p -> p.endsWith("RetryTest.java")).findFirst().orElseThrow();
        Path inCandidate = candidate.resolve(retryTest.substring("starter/".length()));
        Files.writeString(inCandidate, Files.readString(inCandidate) + "\n");
        Result changed = score(candidate, interviewer);
        assertEquals(1, changed.code(), changed.output());
        assertTrue(changed.output().contains("FROZEN TEST CHANGED"), changed.output());

        Result viaTheWholeFolder = score(candidate, out);
        assertEquals(1, viaTheWholeFolder.code(), viaTheWholeFolder.output());
        assertTrue(viaTheWholeFolder.output().contains("FROZEN TEST CHANGED"), viaTheWholeFolder.output());
    }

    @Test
    void aSeatGrantHandoutIsScoredFromItsInterviewerFolderAlone() throws Exception {
        Path tool = fakeRoot.resolve("docs/src/test/java/dev/idempotent/docs/PacketVariant.java");
        Files.createDirectories(tool.getParent());
        Files.copy(ProjectRoot.get().resolve("docs/src/test/java/dev/idempotent/docs/PacketVariant.java"), tool);
        Path out = temp.resolve("seat-handout");
        PacketVariant.write(ProjectRoot.get(), "seat-grant", "score a seat handout".getBytes(StandardCharsets.UTF_8), out);
        Path candidate = temp.resolve("seat-handed-in");
        FileTrees.copy(out.resolve("handout/starter"), candidate);
        FileTrees.delete(out.resolve("handout"));

        ProcessBuilder builder = new ProcessBuilder("bash", ProjectRoot.packet("seat-grant").resolve("score.sh").toString(),
                candidate.toString(), out.resolve("interviewer").toString()).redirectErrorStream(true);
        builder.environment().put("IDEMPOTENT_RETRIES_ROOT", fakeRoot.toString());
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "score.sh ends");

        assertEquals(0, process.exitValue(), output);
        assertTrue(output.contains("key tests: all green"), output);
        assertTrue(output.contains("grade --handout . (in " + out.resolve("interviewer") + "): the tree in the handout's"
                + " own names, target/"), "grade gets the handout's tree as it is: " + output);
        assertFalse(output.contains("files in the packet's names"), "no translate-back any more: " + output);
    }
}
