package dev.idempotent.seatgrant.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real child JVM on this test's classpath: a fake server or a worker, started the way a user starts one, so a
 * test can kill it, restart it, or pipe events into it. Every wait is bounded.
 */
public final class JavaProcess {

    private static final Pattern LISTENING = Pattern.compile("listening on (http://\\S+)");
    private static final Duration START_LIMIT = Duration.ofSeconds(60);

    private JavaProcess() {
    }

    /**
     * Starts {@code mainClass} with {@code args}; {@code jvmArgs} go before the class name.
     *
     * @param stderr where the child's stderr goes
     */
    public static Process start(Class<?> mainClass, List<String> jvmArgs, List<String> args,
                                ProcessBuilder.Redirect stderr) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path")));
        command.addAll(jvmArgs);
        command.add(mainClass.getName());
        command.addAll(args);
        return new ProcessBuilder(command).redirectError(stderr).start();
    }

    /** Starts {@code fake-server serve} with {@code --port 0} plus {@code args}, and returns it with its URL. */
    public static Server startServer(String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("serve", "--port", "0"));
        all.addAll(List.of(args));
        return startCommand(all, ProcessBuilder.Redirect.DISCARD);
    }

    /**
     * Starts {@code fake-server COMMAND...} and waits for its startup line.
     *
     * @param stderr where the child's stderr goes
     */
    public static Server startCommand(List<String> all, ProcessBuilder.Redirect stderr) throws Exception {
        Process process = start(Main.class, List.of(), all, stderr);
        try {
            BufferedReader out = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            String line = CompletableFuture.supplyAsync(() -> {
                try {
                    return out.readLine();
                } catch (IOException e) {
                    return null;
                }
            }).get(START_LIMIT.toSeconds(), TimeUnit.SECONDS);
            if (line == null) {
                throw new AssertionError("the server printed nothing before exiting");
            }
            Matcher m = LISTENING.matcher(line);
            assertTrue(m.find(), line);
            return new Server(process, URI.create(m.group(1)), line);
        } catch (Exception | AssertionError e) {
            // A server that did not come up properly must not outlive the test that started it.
            process.destroyForcibly();
            throw e;
        }
    }

    /** A running server process, the URL it printed and the whole line it printed it in. */
    public record Server(Process process, URI base, String startupLine) implements AutoCloseable {

        /** Kills the process as {@code kill -9} would and waits, bounded, until it is gone. */
        public void kill9() throws InterruptedException {
            process.destroyForcibly();
            assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the server did not die");
        }

        @Override
        public void close() throws InterruptedException {
            kill9();
        }
    }
}
