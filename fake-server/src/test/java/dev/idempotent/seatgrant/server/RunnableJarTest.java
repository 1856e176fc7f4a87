package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runnable jar as a user starts it ({@code java -jar target/fake-server.jar}), which is the only start that gets
 * a class-data archive: run after the jar is built (tag {@code jar}, the {@code runnable-jar} execution in
 * integration-test). No exit of {@code serve}, {@code proxy} or {@code reproduce} prints a {@code [cds]} warning or
 * error (issue 45 item 6: stopping one printed 11 to 28), the archive is one file for serve and proxy, and
 * {@code --no-cds} or {@code FAKE_SERVER_NO_CDS=1} writes none. Each run gets a fresh cache directory.
 */
@Tag("jar")
class RunnableJarTest {

    private static final Path JAR = Path.of(System.getProperty("fake-server.jar", "target/fake-server.jar"));

    @TempDir
    Path dir;

    @Test
    void noExitPrintsAClassDataLineAndServeAndProxyShareOneArchive() throws Exception {
        Path cache = Files.createDirectories(dir.resolve("cache"));
        String serveErr = stopped(cache, Map.of(), "serve", "--port", "0", "--db", "mem");
        assertEquals(1, archives(cache).size(), "the first start wrote the archive: " + archives(cache));
        String proxyErr = stopped(cache, Map.of(), "proxy", "--upstream", "http://127.0.0.1:9");
        assertEquals(1, archives(cache).size(), "the proxy used the same one: " + archives(cache));
        String reproduceErr = run(cache, Map.of(), List.of("reproduce", "--events", "2", "--variant", "answer-key"));

        for (String stderr : List.of(serveErr, proxyErr, reproduceErr)) {
            assertTrue(!stderr.contains("[cds") && !stderr.contains("[aot"), stderr);
        }
    }

    @Test
    void noCdsOrItsVariableWritesNoArchive() throws Exception {
        Path cache = Files.createDirectories(dir.resolve("cache"));
        stopped(cache, Map.of(), "serve", "--port", "0", "--db", "mem", "--no-cds");
        stopped(cache, Map.of("FAKE_SERVER_NO_CDS", "1"), "proxy", "--upstream", "http://127.0.0.1:9");
        assertEquals(List.of(), archives(cache));
    }

    /** Starts {@code java -jar fake-server.jar ARGS --ready-file F}, waits for F, stops it as Ctrl-C would; its stderr. */
    private String stopped(Path cache, Map<String, String> env, String... args) throws Exception {
        Path ready = dir.resolve("ready");
        Files.deleteIfExists(ready);
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--ready-file", ready.toString()));
        Path stderr = dir.resolve("stderr.txt");
        Process process = start(cache, env, all, stderr);
        try {
            Await.until(Duration.ofSeconds(60), "the ready file of " + all, () -> Files.exists(ready));
            process.destroy();
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), "stopped");
        } finally {
            process.destroyForcibly();
        }
        return Files.readString(stderr);
    }

    /** Runs {@code java -jar fake-server.jar ARGS} to its end, which must be exit 0; its stderr. */
    private String run(Path cache, Map<String, String> env, List<String> args) throws Exception {
        Path stderr = dir.resolve("stderr.txt");
        Process process = start(cache, env, args, stderr);
        try {
            assertTrue(process.waitFor(120, TimeUnit.SECONDS), "ended");
            assertEquals(0, process.exitValue(), Files.readString(stderr));
        } finally {
            process.destroyForcibly();
        }
        return Files.readString(stderr);
    }

    private Process start(Path cache, Map<String, String> env, List<String> args, Path stderr) throws IOException {
        assertTrue(Files.isRegularFile(JAR), JAR + " is built in package, before this runs");
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "-jar", JAR.toString()));
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(stderr.toFile());
        builder.environment().remove("FAKE_SERVER_NO_CDS");
        builder.environment().put("XDG_CACHE_HOME", cache.toString());
        builder.environment().putAll(env);
        return builder.start();
    }

    private static List<Path> archives(Path cache) throws IOException {
        Path dir = cache.resolve("fake-server");
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(".jsa")).toList();
        }
    }
}
