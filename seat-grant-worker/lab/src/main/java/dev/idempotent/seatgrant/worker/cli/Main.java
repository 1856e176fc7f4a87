package dev.idempotent.seatgrant.worker.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idempotent.seatgrant.worker.GrantExhaustedException;
import dev.idempotent.seatgrant.worker.GrantInterruptedException;
import dev.idempotent.seatgrant.worker.GrantRejectedException;
import dev.idempotent.seatgrant.worker.SeatRequested;
import dev.idempotent.seatgrant.worker.variants.GrantHandler;
import dev.idempotent.seatgrant.worker.variants.Variant;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker as a process: {@code java -jar seat-grant-worker.jar run --server URL --events FILE|-}, or one
 * delivery at a time with {@code deliver} (see {@link DeliverCommand}). {@code run} reads
 * {@code seat.requested} events as JSON lines, grants them with a pool of consumer threads, writes the
 * structured events as JSON lines on stderr and one JSON summary line on stdout.
 *
 * <p>Exit codes: 0 when every event was granted or replayed and no line was malformed; 1 when some event
 * was rejected or exhausted, a line was malformed, or the events could not be read; 2 on a bad command line.
 */
public final class Main {

    static final String USAGE = """
      usage: seat-grant-worker run --server URL --events FILE|- [--concurrency N] [--variant NAME]
             seat-grant-worker deliver [--variant NAME]   (one event on stdin; see deliver --help)
        --server URL       the seat API root, e.g. http://127.0.0.1:8080
        --events FILE|-    JSON lines {"requestId", "workspaceId", "userId", "role"}, role optional
                           (member, admin or viewer; default member); - reads stdin
        --concurrency N    consumer threads, 1 to 256 (default 4)
        --variant NAME     %s (default answer-key)
      stdout: one JSON line {"events", "granted", "replayed", "rejected", "exhausted", "malformed"}
      stderr: the structured events, one JSON object per line
      """.formatted(String.join(" | ", Variant.cliNames()));

    private static final Logger log = LoggerFactory.getLogger("dev.idempotent.seatgrant.worker.run");
    private static final ObjectMapper JSON = new ObjectMapper();

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.in, System.out, System.err));
    }

    /** The parsed command line of {@code run}. */
    record Options(URI server, String events, int concurrency, Variant variant) {}

    /** Thrown for a bad command line; the message is one line for the user. */
    static final class UsageException extends Exception {
        UsageException(String message) {
            super(message);
        }
    }

    /** Runs a command and returns the exit code; never calls {@link System#exit}. */
    public static int run(String[] args, InputStream stdin, PrintStream out, PrintStream err) {
        return run(args, stdin, out, err, System.getenv());
    }

    /** As {@link #run(String[], InputStream, PrintStream, PrintStream)}, with the environment {@code deliver} reads. */
    public static int run(String[] args, InputStream stdin, PrintStream out, PrintStream err, Map<String, String> env) {
        if (args.length > 0 && args[0].equals("deliver")) {
            return DeliverCommand.run(Arrays.copyOfRange(args, 1, args.length), nonClosing(stdin), out, err, env);
        }
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h") || args[0].equals("help")) {
            (args.length == 0 ? err : out).print(USAGE);
            return args.length == 0 ? 2 : 0;
        }
        if (!args[0].equals("run")) {
            err.println("seat-grant-worker: unknown command '" + args[0] + "' (see --help)");
            return 2;
        }
        Options options;
        try {
            options = parse(Arrays.copyOfRange(args, 1, args.length));
        } catch (UsageException e) {
            err.println("seat-grant-worker run: " + e.getMessage() + " (see --help)");
            return 2;
        }
        if (options == null) {
            out.print(USAGE);
            return 0;
        }
        try (InputStream in = options.events().equals("-") ? nonClosing(stdin) : Files.newInputStream(Path.of(options.events()))) {
            return consume(options, in, out);
        } catch (NoSuchFileException e) {
            err.println("seat-grant-worker run: no such events file");
            return 1;
        } catch (IOException e) {
            err.println("seat-grant-worker run: cannot read the events (" + e.getClass().getSimpleName() + ")");
            return 1;
        }
    }

    static Options parse(String[] args) throws UsageException {
        URI server = null;
        String events = null;
        int concurrency = 4;
        Variant variant = Variant.ANSWER_KEY;
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (flag.equals("--help")) {
                return null;
            }
            if (i + 1 >= args.length) {
                throw new UsageException(flag.startsWith("--") && isKnown(flag) ? flag + " needs a value" : "unknown flag " + flag);
            }
            String value = args[++i];
            switch (flag) {
                case "--server" -> server = serverUri(value);
                case "--events" -> events = value;
                case "--concurrency" -> {
                    try {
                        concurrency = Integer.parseInt(value);
                    } catch (NumberFormatException e) {
                        throw new UsageException("--concurrency must be a number from 1 to 256");
                    }
                    if (concurrency < 1 || concurrency > 256) {
                        throw new UsageException("--concurrency must be a number from 1 to 256");
                    }
                }
                case "--variant" -> variant = Variant.byName(value)
                        .orElseThrow(() -> new UsageException("unknown variant '" + value + "'"));
                default -> throw new UsageException("unknown flag " + flag);
            }
        }
        if (server == null) {
            throw new UsageException("--server is required");
        }
        if (events == null) {
            throw new UsageException("--events is required");
        }
        return new Options(server, events, concurrency, variant);
    }

    private static boolean isKnown(String flag) {
        return flag.equals("--server") || flag.equals("--events") || flag.equals("--concurrency") || flag.equals("--variant");
    }

    private static URI serverUri(String value) throws UsageException {
        try {
            URI uri = URI.create(value);
            if (uri.getHost() != null && ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))) {
                return uri;
            }
        } catch (IllegalArgumentException e) {
            // Falls through to the one-line error; the value is not echoed, it may carry a token.
        }
        throw new UsageException("--server must be an absolute http or https URL");
    }

    private static int consume(Options options, InputStream in, PrintStream out) throws IOException {
        try (GrantHandler handler = options.variant().create(options.server())) {
            return consume(handler, options, in, out);
        }
    }

    private static int consume(GrantHandler handler, Options options, InputStream in, PrintStream out)
            throws IOException {
        AtomicLong events = new AtomicLong();
        AtomicLong granted = new AtomicLong();
        AtomicLong replayed = new AtomicLong();
        AtomicLong rejected = new AtomicLong();
        AtomicLong exhausted = new AtomicLong();
        AtomicLong malformed = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(options.concurrency());
        // Back-pressure: read no further ahead than the consumers can take, so a huge file is never all in memory.
        Semaphore inFlight = new Semaphore(options.concurrency() * 2);
        try {
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            long lineNumber = 0;
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lineNumber++;
                if (line.isBlank()) {
                    continue;
                }
                Optional<SeatRequested> event = parseEvent(line, lineNumber);
                if (event.isEmpty()) {
                    malformed.incrementAndGet();
                    continue;
                }
                events.incrementAndGet();
                inFlight.acquireUninterruptibly();
                SeatRequested e = event.get();
                pool.execute(() -> {
                    try {
                        GrantHandler.Handled handled = handler.handle(e);
                        (handled == GrantHandler.Handled.REPLAYED ? replayed : granted).incrementAndGet();
                    } catch (GrantExhaustedException | GrantInterruptedException gaveUpForNow) {
                        exhausted.incrementAndGet();
                    } catch (GrantRejectedException refused) {
                        rejected.incrementAndGet();
                    } catch (Exception other) {
                        // The interview variants throw plain exceptions; theirs say "exhausted_retries:" when they ran out.
                        boolean ranOut = String.valueOf(other.getMessage()).startsWith("exhausted_retries:");
                        (ranOut ? exhausted : rejected).incrementAndGet();
                    } finally {
                        inFlight.release();
                    }
                });
            }
        } finally {
            pool.shutdown();
            awaitQuietly(pool);
        }
        ObjectNode summary = JSON.createObjectNode()
                .put("events", events.get())
                .put("granted", granted.get())
                .put("replayed", replayed.get())
                .put("rejected", rejected.get())
                .put("exhausted", exhausted.get())
                .put("malformed", malformed.get());
        out.println(JSON.writeValueAsString(summary));
        out.flush();
        boolean clean = rejected.get() == 0 && exhausted.get() == 0 && malformed.get() == 0;
        return clean ? 0 : 1;
    }

    /** One event, or empty after reporting the line as malformed (its number and why, never its content). */
    static Optional<SeatRequested> parseEvent(String line, long lineNumber) {
        String problem;
        try {
            JsonNode node = JSON.readTree(line);
            if (node != null && node.isObject()) {
                String requestId = text(node, "requestId");
                String workspaceId = text(node, "workspaceId");
                String userId = text(node, "userId");
                JsonNode role = node.get("role");
                if (role != null && !role.isTextual()) {
                    problem = "role, when given, must be a string";
                } else if (requestId != null && workspaceId != null && userId != null) {
                    return Optional.of(new SeatRequested(requestId, workspaceId, userId,
                            role == null ? SeatRequested.DEFAULT_ROLE : role.asText()));
                } else {
                    problem = "requestId, workspaceId and userId must be strings";
                }
            } else {
                problem = "not a JSON object";
            }
        } catch (IOException e) {
            problem = "not JSON";
        } catch (IllegalArgumentException e) {
            problem = e.getMessage();
        }
        log.atWarn().setMessage("seat.grant.malformed")
                .addKeyValue("line", lineNumber)
                .addKeyValue("reason", problem)
                .log();
        return Optional.empty();
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value != null && value.isTextual() ? value.asText() : null;
    }

    private static void awaitQuietly(ExecutorService pool) {
        try {
            // Each event is bounded by its own deadline; this only waits for the last ones to finish.
            while (!pool.awaitTermination(1, TimeUnit.MINUTES)) {
                log.atInfo().setMessage("seat.grant.run.waiting").log();
            }
        } catch (InterruptedException e) {
            pool.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    private static InputStream nonClosing(InputStream in) {
        return new java.io.FilterInputStream(in) {
            @Override
            public void close() {
                // stdin belongs to the process, not to this command.
            }
        };
    }
}
