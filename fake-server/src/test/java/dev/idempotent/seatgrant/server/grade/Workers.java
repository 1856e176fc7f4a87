package dev.idempotent.seatgrant.server.grade;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The commands that start the workers these tests grade, each exactly as a user would type it. */
final class Workers {

    /** The worker jar's own logging config: JSON lines on stderr, as it ships. */
    private static final Path SHIPPED_LOGGING = Path.of("..", "seat-grant-worker", "lab", "src", "shade", "logback.xml");
    private static final Path NODE_WORKER = Path.of("src", "test", "workers", "node", "seat-grant-worker.mjs");
    private static final Path PYTHON_WORKER = Path.of("src", "test", "workers", "python", "seat_grant_worker.py");

    /** The argument that turns the JavaScript and Python workers into their broken form. */
    static final String FRESH_KEY_PER_ATTEMPT = "--fresh-key-per-attempt";

    private Workers() {
    }

    /** {@code java ... seat-grant-worker deliver --variant NAME}, on this test's classpath. */
    static List<String> lab(String variant) {
        String java = ProcessHandle.current().info().command().orElse("java");
        // C1 only: a worker JVM lives for a second or two, and starts faster without the optimising compiler.
        return List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-Dlogback.configurationFile=" + SHIPPED_LOGGING.toAbsolutePath().normalize(),
                "-cp", System.getProperty("java.class.path"),
                "dev.idempotent.seatgrant.worker.cli.Main", "deliver", "--variant", variant);
    }

    /** {@code java ... FailsafeWorker ARGS}: the Failsafe-based worker, on this test's classpath. */
    static List<String> failsafe(String... args) {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"), FailsafeWorker.class.getName()));
        command.addAll(List.of(args));
        return command;
    }

    /** {@code java ... CalibrationWorker ARGS}: the one-defect-at-a-time Java worker, on this test's classpath. */
    static List<String> calibration(String... args) {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                "-Xshare:auto", "-cp", System.getProperty("java.class.path"), CalibrationWorker.class.getName()));
        command.addAll(List.of(args));
        return command;
    }

    static List<String> node(String... args) {
        List<String> command = new ArrayList<>(List.of("node", NODE_WORKER.toAbsolutePath().toString()));
        command.addAll(List.of(args));
        return command;
    }

    /**
     * {@code python3 seat_grant_worker.py ARGS}, with {@code python3} resolved once to the interpreter itself: a
     * version manager's shim (pyenv's is a shell script) would otherwise start a shell and a lookup per delivery.
     */
    static List<String> python(String... args) {
        List<String> command = new ArrayList<>(List.of(Python.EXECUTABLE, PYTHON_WORKER.toAbsolutePath().toString()));
        command.addAll(List.of(args));
        return command;
    }

    /** The interpreter {@code python3} names, looked up on first use. */
    private static final class Python {
        static final String EXECUTABLE = interpreter();
    }

    private static String interpreter() {
        try {
            Process p = new ProcessBuilder("python3", "-c", "import sys; print(sys.executable)")
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String path = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0 && !path.isEmpty() ? path : "python3";
        } catch (IOException e) {
            return "python3";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "python3";
        }
    }

    /** Whether {@code program --version} runs here; a test skips its language, and says so, when it does not. */
    static boolean installed(String program) {
        try {
            Process p = new ProcessBuilder(program, "--version").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return false;
            }
            return p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
