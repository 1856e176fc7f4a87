package dev.idempotent.seatgrant.server.internal.cli;

import dev.idempotent.seatgrant.server.grade.GradeReport;
import dev.idempotent.seatgrant.server.grade.Grader;
import dev.idempotent.seatgrant.server.grade.ReportWriter;
import dev.idempotent.seatgrant.server.grade.WorkerStartException;
import dev.idempotent.seatgrant.server.grade.WorkerUnreachableException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code fake-server grade [flags] -- COMMAND [ARGS...]}: scores a seat-grant worker in any language against the
 * catalogue of checks. Exit codes: 0 when the worker passes, 1 when it does not, 2 on a bad command line, a
 * worker that cannot be started, or one whose first delivery never reached the server.
 */
public final class GradeCommand {

    public static final String USAGE = """
            usage: fake-server grade [flags] -- COMMAND [ARGS...]
              Runs COMMAND once per delivery of a seat.requested event: the event is one JSON line on stdin,
              {"requestId", "workspaceId", "userId", "role"}; SEATS_BASE_URL holds the API root (no trailing
              slash; append /v1/seats). Exit 0 acknowledges, 3 rejects (never redelivered), anything else is
              redelivered, at most 3 deliveries in all. Every check gets its own fresh in-memory server.
              --json                      print {"checks", "signals", "duplicates", "pass"} instead of the table
              --only CHECK,...            run only these checks (signals with no check run score 0)
              --timeout-per-delivery D    kill a delivery after D and count it as a nack: 90s, 1500ms, 2m
                                          (1s to 10m; default 60s)
              --list                      print the checks, one a line, and exit
              --help                      this text
            COMMAND runs in the directory grade runs in: give paths in it (a jar, a script) from there, or
            absolute. A worker whose first delivery exits non-zero before any request reaches the server
            stops the grading: grade prints the first line of its stderr and exits 2.
            Exit: 0 pass, 1 fail, 2 bad command line, a worker that cannot be started, or one that never
            reached the server.
            See docs/any-language.md for the contract and the rules behind the score.
            """;

    private static final Pattern DURATION = Pattern.compile("(\\d{1,9})(ms|s|m)?");

    private GradeCommand() {
    }

    /** What {@code grade}'s command line asks for. */
    public record Options(boolean help, boolean list, boolean json, Set<String> only, Duration timeout,
                          List<String> command) { }

    /** Parses, runs and prints; returns the exit code. The one entry point {@code Main} needs. */
    public static int main(List<String> args, PrintStream out, PrintStream err) {
        Options options;
        try {
            options = parse(args);
        } catch (UsageException e) {
            err.println("fake-server grade: " + e.getMessage() + " (see fake-server grade --help)");
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
        var queue = Flags.tokens(flags);
        Set<String> known = new LinkedHashSet<>(Grader.catalogue().stream().map(Grader.CheckInfo::id).toList());
        while (!queue.isEmpty()) {
            String flag = queue.poll();
            switch (flag) {
                case "--help", "-h" -> {
                    return new Options(true, false, false, Set.of(), timeout, List.of());
                }
                case "--list" -> list = true;
                case "--json" -> json = true;
                case "--only" -> {
                    for (String id : Flags.value(queue, flag).split(",", -1)) {
                        String trimmed = id.trim();
                        if (!known.contains(trimmed)) {
                            throw new UsageException("--only: no check called '" + printable(trimmed)
                                    + "' (see fake-server grade --list)");
                        }
                        only.add(trimmed);
                    }
                }
                case "--timeout-per-delivery" -> timeout = duration(Flags.value(queue, flag));
                default -> throw new UsageException(flag.startsWith("-")
                        ? "unknown flag " + printable(flag)
                        : "put the worker's command after --, e.g. grade -- node worker.mjs");
            }
        }
        if (!list && command.isEmpty()) {
            throw new UsageException("give the worker's command after --, e.g. grade -- node worker.mjs");
        }
        return new Options(false, list, json, Set.copyOf(only), timeout, command);
    }

    /** Grades the worker and prints the report; 0 pass, 1 fail, 2 when the worker cannot be started or reached. */
    public static int run(Options options, PrintStream out, PrintStream err) {
        quietServerLogs();
        GradeReport report;
        try {
            report = new Grader(options.command(), options.timeout()).grade(options.only());
        } catch (WorkerStartException | WorkerUnreachableException e) {
            err.println("fake-server grade: " + e.getMessage());
            return 2;
        }
        out.print(options.json() ? ReportWriter.json(report) + System.lineSeparator() : ReportWriter.table(report));
        out.flush();
        return report.pass() ? 0 : 1;
    }

    private static Duration duration(String value) throws UsageException {
        Matcher m = DURATION.matcher(value);
        if (!m.matches()) {
            throw new UsageException("--timeout-per-delivery must be a whole number of ms, s or m, e.g. 60s");
        }
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        Duration d = switch (unit) {
            case "ms" -> Duration.ofMillis(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofSeconds(n);
        };
        if (d.compareTo(Duration.ofSeconds(1)) < 0 || d.compareTo(Duration.ofMinutes(10)) > 0) {
            throw new UsageException("--timeout-per-delivery must be from 1s to 10m");
        }
        return d;
    }

    private static String printable(String s) {
        String cut = s.length() > 40 ? s.substring(0, 40) + "..." : s;
        return cut.replaceAll("\\p{Cntrl}", "?");
    }

    private static void quietServerLogs() {
        // Sixteen embedded servers starting and stopping are not news; the report is the output.
        OptionalDependencies.warnOnly("dev.idempotent.seatgrant.server");
    }
}
