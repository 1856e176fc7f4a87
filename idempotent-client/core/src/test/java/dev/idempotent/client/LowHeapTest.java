package dev.idempotent.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.idempotent.client.testing.LowHeapCall;
import dev.idempotent.client.testing.RawServer;
import dev.idempotent.client.testing.ScriptedServer;
import dev.idempotent.client.testing.ScriptedServer.Answer;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A GiB answer, fixed length or chunked, to a child JVM with a 256 MiB heap and the client's defaults: the call ends
 * within its budget with the body truncated at 4 MiB, and the JVM stays healthy (it completes a normal call and exits
 * 0, no {@link OutOfMemoryError}). Left out of PIT: the child runs the classes on disk, not PIT's mutants.
 */
class LowHeapTest {

    @ParameterizedTest(name = "chunked={0}")
    @ValueSource(booleans = {false, true})
    @Timeout(90)
    void aGibAnswerUnderA256MibHeapIsTruncatedAndTheJvmStaysHealthy(boolean chunked, @TempDir Path dir)
            throws Exception {
        try (RawServer huge = new RawServer(RawServer.body(201, "{\"id\":\"o_1\"", RawServer.GIB, chunked, 0));
                ScriptedServer normal = new ScriptedServer(n -> new Answer(201, "{\"id\":\"o_2\"}"))) {
            Path err = dir.resolve("stderr.txt");
            Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx256m", "-cp", System.getProperty("java.class.path"), LowHeapCall.class.getName(),
                    huge.uri("/orders").toString(), normal.uri("/orders").toString())
                    .redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
            String out;
            try {
                out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child ended");
            } finally {
                child.destroyForcibly();
            }
            String stderr = Files.readString(err);
            assertFalse(stderr.contains("OutOfMemoryError"), stderr);
            assertEquals(0, child.exitValue(), out + stderr);
            Matcher m = Pattern.compile("status=201 truncated=true bytes=4194304 tookMs=(\\d+) normal=201")
                    .matcher(out);
            assertTrue(m.find(), out);
            assertTrue(Long.parseLong(m.group(1)) < 20_000, "within the attempt's 20 s: " + out);
        }
    }
}
