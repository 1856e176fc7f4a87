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
 * API root in {@code SEATS_BASE_URL}, and kills it at the delivery timeout. On Linux each delivery runs in a PID
 * namespace of its own where one can be made ({@link Containment}): when the delivery ends, so does every process
 * it started. Each delivery also starts in a session of its own ({@code setsid}), and when it ends, everything still
 * in that session, and every descendant still found, is killed: without a namespace, that sweep is the containment
 * (a process may still leave its session; the grader's servers see what it sends).
 *
 * <p>Thread-safe: each delivery is its own process with its own output files.
 */
final class WorkerCommand {

    /** The environment variable that carries the API root, with no trailing slash. */
    static final String BASE_URL_VARIABLE = "SEATS_BASE_URL";

    /** Variables of the grader's own environment that a worker never gets: they may open a server's admin API. */
    private static final List<String> WITHHELD = List.of("FAKE_SERVER_ADMIN_TOKEN");

    /** {@code setsid}, when this is Linux and it is installed; null otherwise. */
    private static final String SETSID = setsid();

    /** How many times the session is swept for stragglers: a process may fork while the sweep kills. */
    private static final int SWEEPS = 5;

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
    /** The variable that carries the API root: {@link #BASE_URL_VARIABLE}, or a handout's name for it. */
    private volatile String variable = BASE_URL_VARIABLE;
    /** How deliveries are contained; set once per grade ({@link #contain}). */
    private volatile Containment containment = Containment.processGroupsOnly();

    WorkerCommand(List<String> command, Duration timeout) {
        if (command.isEmpty()) {
            throw new IllegalArgumentException("the worker command is empty");
        }
        this.command = List.copyOf(command);
        this.timeout = timeout;
    }

    /** Gives the deliveries from now on the API root in {@code name} instead of {@link #BASE_URL_VARIABLE}. */
    void baseUrlVariable(String name) {
        this.variable = name;
    }

    /** Runs the deliveries from now on under {@code containment}. */
    void contain(Containment containment) {
        this.containment = containment;
    }

    /** How the deliveries are contained now. */
    Containment containment() {
        return containment;
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
        return deliver(eventLine, apiBase, timeout);
    }

    /**
     * Runs one delivery to its end, killed after {@code budget} rather than the usual timeout (a check that holds
     * an answer for long gives its deliveries longer).
     *
     * @throws WorkerStartException if the command cannot be started
     */
    Delivery deliver(String eventLine, URI apiBase, Duration budget) {
        Path out = null;
        Path err = null;
        try {
            out = Files.createTempFile("grade-worker-", ".out");
            err = Files.createTempFile("grade-worker-", ".err");
            List<String> line = new ArrayList<>();
            if (SETSID != null) {
                // setsid would start whatever the command names and fail later; say now that it cannot start.
                if (!runnable(command.get(0))) {
                    throw new WorkerStartException("cannot start the worker '" + command.get(0)
                            + "': no such executable file");
                }
                // --wait: should setsid have to fork, it still exits with the worker's own code.
                line.addAll(List.of(SETSID, "--wait"));
            }
            line.addAll(containment.wrap(command));
            ProcessBuilder builder = new ProcessBuilder(line)
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile());
            WITHHELD.forEach(builder.environment()::remove);
            builder.environment().put(variable, apiBase.toString());
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
                    finished = process.waitFor(budget.toMillis(), TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    kill(process);
                    throw e;
                }
                if (!finished) {
                    kill(process);
                    process.waitFor(10, TimeUnit.SECONDS);
                }
            } finally {
                // Whatever the worker left running in its session ends with its delivery.
                kill(process);
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

    /**
     * Kills the worker, whatever it started that is still its descendant, and on Linux every process still in its
     * session or process group (a double fork leaves the grandchild there, though no longer a descendant).
     */
    private static void kill(Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        if (SETSID == null) {
            return;
        }
        long session = process.pid();
        for (int sweep = 0; sweep < SWEEPS; sweep++) {
            List<Long> found = sessionMembers(session);
            if (found.isEmpty()) {
                return;
            }
            found.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
        }
    }

    /** The processes whose session or process group is {@code session}, from {@code /proc}. */
    private static List<Long> sessionMembers(long session) {
        List<Long> found = new ArrayList<>();
        long self = ProcessHandle.current().pid();
        try (var entries = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path entry : entries) {
                String stat;
                try {
                    stat = Files.readString(entry.resolve("stat"), StandardCharsets.ISO_8859_1);
                } catch (IOException | RuntimeException gone) {
                    continue;
                }
                // pid (comm) state ppid pgrp session ...: comm may hold spaces and parentheses, so read after the last ')'.
                String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                if (fields.length < 4) {
                    continue;
                }
                long pid = Long.parseLong(entry.getFileName().toString());
                if (pid != self && !fields[0].equals("Z")
                        && (Long.parseLong(fields[2]) == session || Long.parseLong(fields[3]) == session)) {
                    found.add(pid);
                }
            }
        } catch (IOException | RuntimeException e) {
            // No /proc to read: the descendants were killed, which is all this platform allows.
        }
        return found;
    }

    /** Whether {@code program} names an executable file, as a path or on {@code PATH}. */
    private static boolean runnable(String program) {
        if (program.contains("/")) {
            return Files.isExecutable(Path.of(program));
        }
        String path = System.getenv("PATH");
        if (path == null) {
            return true;
        }
        for (String dir : path.split(java.io.File.pathSeparator, -1)) {
            if (Files.isExecutable(Path.of(dir.isEmpty() ? "." : dir, program))) {
                return true;
            }
        }
        return false;
    }

    private static String setsid() {
        if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("linux")) {
            return null;
        }
        for (String dir : List.of("/usr/bin", "/bin", "/usr/sbin", "/sbin")) {
            Path candidate = Path.of(dir, "setsid");
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        return null;
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
