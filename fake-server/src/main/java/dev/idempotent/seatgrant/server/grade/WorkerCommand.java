package dev.idempotent.seatgrant.server.grade;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The worker under test as a command: runs it once per delivery as a new process, the event on stdin and the
 * API root in {@code SEATS_BASE_URL}, and kills it (and anything it started) at the delivery timeout.
 *
 * <p>Thread-safe: each delivery is its own process with its own output files.
 */
final class WorkerCommand {

    /** The environment variable that carries the API root, with no trailing slash. */
    static final String BASE_URL_VARIABLE = "SEATS_BASE_URL";

    /** More log than this per stream is cut: the checks need lines, not megabytes. */
    private static final int MAX_LOG_BYTES = 1 << 20;

    /**
     * The deliveries running now, across every grade in this JVM: a grade stopped from outside (Ctrl-C, a
     * SIGTERM) kills them on its way out, so no worker outlives the grader.
     */
    private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(WorkerCommand::kill),
                "grade-kill-workers"));
    }

    private final List<String> command;
    private final Duration timeout;

    WorkerCommand(List<String> command, Duration timeout) {
        if (command.isEmpty()) {
            throw new IllegalArgumentException("the worker command is empty");
        }
        this.command = List.copyOf(command);
        this.timeout = timeout;
    }

    /** How long a delivery may run before it is killed. */
    Duration timeout() {
        return timeout;
    }

    /**
     * Runs one delivery to its end.
     *
     * @throws WorkerStartException if the command cannot be started
     */
    Delivery deliver(String eventLine, URI apiBase) {
        Path out = null;
        Path err = null;
        try {
            out = Files.createTempFile("grade-worker-", ".out");
            err = Files.createTempFile("grade-worker-", ".err");
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile());
            builder.environment().put(BASE_URL_VARIABLE, apiBase.toString());
            Instant start = Instant.now();
            Process process;
            try {
                process = builder.start();
            } catch (IOException e) {
                throw new WorkerStartException("cannot start the worker '" + command.get(0) + "': "
                        + firstLine(e.getMessage()));
            }
            RUNNING.add(process);
            boolean finished;
            try {
                try (OutputStream stdin = process.getOutputStream()) {
                    stdin.write((eventLine + "\n").getBytes(StandardCharsets.UTF_8));
                } catch (IOException closedEarly) {
                    // A worker that exits without reading its event is judged by what it did, not by this pipe.
                }
                try {
                    finished = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    kill(process);
                    throw e;
                }
                if (!finished) {
                    kill(process);
                    process.waitFor(10, TimeUnit.SECONDS);
                }
            } finally {
                RUNNING.remove(process);
            }
            Instant end = Instant.now();
            Captured stdout = read(out);
            Captured stderr = read(err);
            List<String> log = new ArrayList<>(stdout.lines());
            List<String> errLines = stderr.lines();
            log.addAll(errLines);
            return new Delivery(finished ? process.exitValue() : -1, !finished, start, end, log,
                    errLines.isEmpty() ? "" : errLines.get(0), stdout.text() + stderr.text(),
                    stdout.cut() || stderr.cut());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot capture the worker's output", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while a delivery ran", e);
        } finally {
            deleteQuietly(out);
            deleteQuietly(err);
        }
    }

    /** Kills the worker and whatever it started (a shell script's children would otherwise live on). */
    private static void kill(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    /** One stream's output: its text, whether it was cut at {@link #MAX_LOG_BYTES}, and its non-blank lines. */
    private record Captured(String text, boolean cut) {
        List<String> lines() {
            return text.lines().filter(line -> !line.isBlank()).toList();
        }
    }

    private static Captured read(Path file) throws IOException {
        byte[] bytes;
        boolean cut;
        try (InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(MAX_LOG_BYTES);
            cut = in.read() >= 0;
        }
        // Whatever the worker's encoding, a bad byte becomes U+FFFD rather than a failed grade.
        String text = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE)
                .decode(ByteBuffer.wrap(bytes)).toString();
        return new Captured(text, cut);
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "no reason given";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }

    private static void deleteQuietly(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // A leftover temp file is not worth failing a grade over.
            }
        }
    }
}
