package dev.idempotent.seatgrant.server.internal.cli;

import dev.idempotent.seatgrant.server.grade.GradeReport;
import dev.idempotent.seatgrant.server.grade.Grader;
import dev.idempotent.seatgrant.server.grade.HandoutNames;
import dev.idempotent.seatgrant.server.grade.ReportWriter;
import dev.idempotent.seatgrant.server.grade.WorkerStartException;
import dev.idempotent.seatgrant.server.grade.WorkerUnreachableException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code fake-server grade [flags] -- COMMAND [ARGS...]}: scores a seat-grant worker in any language against the
 * catalogue of checks. Exit codes: 0 when the worker passes, 1 when it does not, 2 on a bad command line, a
 * worker that cannot be started, or one whose first delivery never reached the server, 4 when the grader could not
 * tell (its own server was the slow party, and that decides the verdict).
 */
public final class GradeCommand {

    public static final String USAGE = """
            usage: fake-server grade [flags] -- COMMAND [ARGS...]
              Runs COMMAND once per delivery of a seat.requested event: the event is one JSON line on stdin,
              {"requestId", "workspaceId", "userId", "role"}; SEATS_BASE_URL holds the API root (no trailing
              slash; append /v1/seats). Exit 0 acknowledges, 3 rejects (never redelivered), anything else is
              redelivered 2 s, then 4 s later, at most 3 deliveries in all. Every check gets its own fresh
              in-memory server, after grade has warmed its JVM on a throwaway one; it has no admin API. On
              Linux each delivery runs in a PID namespace of its own, which ends with it, and all it started;
              where none can be made, the report says "containment: process groups only".
              --json                      print {"checks", "signals", "duplicates", "gates", "pass", "verdict"},
                                          each check with its deliveries and what they printed (8 KiB each)
              --only CHECK,...            run only these checks (signals with no check run score 0)
              --repeat N                  grade N times from fresh servers (1 to 20; default 1): a check that
                                          passes only sometimes fails, marked flaky
              --timeout-per-delivery D    kill a delivery after D: 90s, 1500ms, 2m (1s to 10m; default 60s).
                                          A killed delivery fails the liveness gate, whatever the sum
              --mapping FILE              a handout's interviewer/mapping.tsv: evidence and gate reasons use
                                          the handout's names (check ids and JSON keys stay as they are)
              --handout DIR               a handout's interviewer/ folder: grade a worker written to the
                                          handout, in its names (its variable, event, route and fields, read
                                          from DIR/mapping.tsv); implies --mapping, not to be given with it
              --no-namespace              contain deliveries by session and process group only
              --list                      print the checks, one a line, and exit
              --help                      this text
            COMMAND runs in the directory grade runs in: give paths in it (a jar, a script) from there, or
            absolute. A worker whose first delivery exits non-zero before any request reaches the server
            stops the grading: grade prints the first line of its stderr and exits 2.
            The worker passes with Timeout semantics and Idempotency at least 1, a sum of at least 5 of 8,
            and four gates: no duplicate seat (the safety gate); no delivery killed and no request while
            no delivery runs (the liveness gate); an ack for every seat and a seat for every ack
            (the outcome gate); nothing touched but /v1/seats (the integrity gate).
            Exit: 0 pass, 1 fail, 2 bad command line, a worker that cannot be started, or one that never
            reached the server, 4 inconclusive (the grader's own server was too slow to tell; grade again).
            See docs/any-language.md for the contract and the rules behind the score.
            """;

    /** What grade says, once, when its deliveries cannot each have a PID namespace. */
    public static final String FALLBACK = "containment: process groups only";

    /** The exit code of a grade the grader could not decide. */
    public static final int INCONCLUSIVE = 4;

    private static final Duration MIN_TIMEOUT = Duration.ofSeconds(1);
    private static final Duration MAX_TIMEOUT = Duration.ofMinutes(10);

    private GradeCommand() {
    }

    /**
     * What {@code grade}'s command line asks for.
     *
     * @param mapping a handout's {@code mapping.tsv} whose names the report speaks; nullable (the packet's own)
     */
    public record Options(boolean help, boolean list, boolean json, Set<String> only, Duration timeout,
                          int repeat, List<String> command, Path mapping, boolean noNamespace, boolean handout) { }

    /** Parses, runs and prints; returns the exit code. The one entry point {@code Main} needs. */
    public static int main(List<String> args, PrintStream out, PrintStream err) {
        Options options;
        try {
            options = parse(args);
        } catch (UsageException e) {
            err.println("fake-server grade: " + e.line("fake-server grade --help"));
            return 2;
        }
        if (options.help()) {
            out.print(USAGE);
            return 0;
        }
        if (options.list()) {
            for (Grader.CheckInfo check : Grader.catalogue()) {
                out.printf(Locale.ROOT, "%-32s %-14s %s%n", check.id(), check.signal().jsonName(), check.summary());
            }
            return 0;
        }
        return run(options, out, err);
    }

    /**
     * Reads {@code grade}'s flags; everything after {@code --} is the worker's command, untouched.
     *
     * @throws UsageException naming the first problem
     */
    public static Options parse(List<String> args) throws UsageException {
        int dashes = args.indexOf("--");
        List<String> flags = dashes < 0 ? args : args.subList(0, dashes);
        List<String> command = dashes < 0 ? List.of() : List.copyOf(args.subList(dashes + 1, args.size()));
        boolean json = false;
        boolean list = false;
        Set<String> only = new LinkedHashSet<>();
        Duration timeout = Grader.DEFAULT_TIMEOUT_PER_DELIVERY;
        int repeat = 1;
        Path mapping = null;
        boolean noNamespace = false;
        Path handout = null;
        var queue = Flags.tokens(flags);
        Set<String> known = new LinkedHashSet<>(Grader.catalogue().stream().map(Grader.CheckInfo::id).toList());
        while (!queue.isEmpty()) {
            String flag = queue.poll();
            switch (flag) {
                case "--help", "-h" -> {
                    return new Options(true, false, false, Set.of(), timeout, repeat, List.of(), null, false, false);
                }
                case "--list" -> list = true;
                case "--json" -> json = true;
                case "--no-namespace" -> noNamespace = true;
                case "--only" -> {
                    for (String id : Flags.value(queue, flag).split(",", -1)) {
                        String trimmed = id.trim();
                        if (!known.contains(trimmed)) {
                            throw new UsageException("--only: no check called '" + printable(trimmed) + "'",
                                    "fake-server grade --list");
                        }
                        only.add(trimmed);
                    }
                }
                case "--timeout-per-delivery" -> timeout = Flags.duration(flag, Flags.value(queue, flag), MIN_TIMEOUT,
                        MAX_TIMEOUT);
                case "--mapping" -> {
                    try {
                        mapping = Path.of(Flags.value(queue, flag));
                    } catch (java.nio.file.InvalidPathException e) {
                        throw new UsageException("--mapping: not a file path");
                    }
                }
                case "--handout" -> {
                    try {
                        handout = Path.of(Flags.value(queue, flag));
                    } catch (java.nio.file.InvalidPathException e) {
                        throw new UsageException("--handout: not a directory path");
                    }
                }
                case "--repeat" -> repeat = Flags.intInRange(flag, Flags.value(queue, flag), 1, Grader.MAX_REPEAT);
                default -> throw new UsageException(flag.startsWith("-")
                        ? Flags.unknownFlag(flag)
                        : "put the worker's command after --, e.g. grade -- node worker.mjs");
            }
        }
        if (!list && command.isEmpty()) {
            throw new UsageException("give the worker's command after --, e.g. grade -- node worker.mjs");
        }
        if (handout != null && mapping != null) {
            throw new UsageException("give --handout DIR or --mapping FILE, not both: --handout reads DIR/mapping.tsv");
        }
        if (handout != null) {
            return new Options(false, list, json, Set.copyOf(only), timeout, repeat, command,
                    handout.resolve("mapping.tsv"), noNamespace, true);
        }
        return new Options(false, list, json, Set.copyOf(only), timeout, repeat, command, mapping, noNamespace,
                false);
    }

    /**
     * Grades the worker and prints the report; 0 pass, 1 fail, 2 when the worker cannot be started or reached, 4
     * inconclusive.
     */
    public static int run(Options options, PrintStream out, PrintStream err) {
        HandoutNames names = HandoutNames.none();
        if (options.mapping() != null) {
            try {
                names = HandoutNames.read(options.mapping());
            } catch (IOException | IllegalArgumentException e) {
                err.println("fake-server grade: " + (options.handout() ? "--handout" : "--mapping")
                        + ": cannot read it as a handout's mapping.tsv ("
                        + (e instanceof IllegalArgumentException ? e.getMessage() : e.getClass().getSimpleName())
                        + ")");
                return 2;
            }
        }
        quietServerLogs();
        GradeReport report;
        Grader grader = new Grader(options.command(), options.timeout());
        if (options.noNamespace()) {
            grader.withoutNamespace();
        }
        if (options.handout()) {
            try {
                grader.speaking(names);
            } catch (IllegalArgumentException e) {
                err.println("fake-server grade: --handout: its names cannot be an API (" + e.getMessage() + ")");
                return 2;
            }
        }
        try {
            report = grader.grade(options.only(), options.repeat());
        } catch (WorkerStartException | WorkerUnreachableException e) {
            err.println("fake-server grade: " + e.getMessage());
            return 2;
        }
        out.print(options.json() ? ReportWriter.json(report, names) + System.lineSeparator()
                : ReportWriter.table(report, names));
        if (grader.containment().equals(FALLBACK)) {
            // Said once: under the table, or on stderr beside the JSON, whose keys are fixed.
            (options.json() ? err : out).println(FALLBACK);
        }
        out.flush();
        return switch (report.verdict()) {
            case PASS -> 0;
            case FAIL -> 1;
            case INCONCLUSIVE -> INCONCLUSIVE;
        };
    }

    private static String printable(String s) {
        String cut = s.length() > 40 ? s.substring(0, 40) + "..." : s;
        return cut.replaceAll("\\p{Cntrl}", "?");
    }

    private static void quietServerLogs() {
        // Seventeen embedded servers starting and stopping are not news; the report is the output.
        OptionalDependencies.warnOnly("dev.idempotent.seatgrant.server");
    }
}
