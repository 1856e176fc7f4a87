package dev.idempotent.seatgrant.server.internal.cli;

import dev.idempotent.seatgrant.server.FaultPlan;
import dev.idempotent.seatgrant.server.InvalidFaultPlanException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The command line's flag grammar, shared by every subcommand: {@code --flag value} or {@code --flag=value}. */
final class Flags {

    private static final Pattern DURATION = Pattern.compile("([0-9]{1,9})(ms|s|m)");
    private static final Pattern BARE_NUMBER = Pattern.compile("[0-9]{1,9}");

    private Flags() {
    }

    /** The arguments as a queue of tokens, with {@code --flag=value} split in two. */
    static Deque<String> tokens(List<String> args) {
        Deque<String> queue = new ArrayDeque<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 2) {
                queue.add(arg.substring(0, eq));
                queue.add(arg.substring(eq + 1));
            } else {
                queue.add(arg);
            }
        }
        return queue;
    }

    /**
     * The refusal of an argument no command knows: {@code "unknown flag NAME"}, naming it without whatever follows
     * an {@code =} (a mistyped {@code -admin-token=SECRET} must not print the secret), at most 40 characters,
     * control characters shown as {@code ?}.
     */
    static String unknownFlag(String flag) {
        int eq = flag.indexOf('=');
        String name = eq < 0 ? flag : flag.substring(0, eq);
        String cut = name.length() > 40 ? name.substring(0, 40) + "..." : name;
        return "unknown flag " + cut.replaceAll("\\p{Cntrl}", "?") + (eq < 0 ? "" : "=...");
    }

    /**
     * The value after {@code flag}.
     *
     * @throws UsageException if there is none
     */
    static String value(Deque<String> queue, String flag) throws UsageException {
        String value = queue.poll();
        if (value == null || (value.startsWith("--") && !value.equals("--"))) {
            throw new UsageException(flag + " needs a value");
        }
        return value;
    }

    /**
     * The one duration grammar every duration flag uses: a whole number followed by {@code ms}, {@code s} or
     * {@code m} ({@code 250ms}, {@code 10s}, {@code 2m}), positive, at most a day. A bare number is refused, never
     * read in some unit: {@code 10} would be ten seconds to one reader and ten milliseconds to another.
     *
     * @throws UsageException naming {@code flag} and the accepted forms
     */
    static Duration duration(String flag, String value) throws UsageException {
        return duration(flag, value, Duration.ofMillis(1), Duration.ofDays(1));
    }

    /**
     * {@link #duration(String, String)} within a flag's own bounds.
     *
     * @throws UsageException naming {@code flag} and the accepted forms, or its bounds
     */
    static Duration duration(String flag, String value, Duration min, Duration max) throws UsageException {
        if (BARE_NUMBER.matcher(value).matches()) {
            throw new UsageException(flag + " needs a unit: " + value + "ms, " + value + "s or " + value + "m");
        }
        Matcher m = DURATION.matcher(value);
        if (!m.matches()) {
            throw new UsageException(flag + " must be a duration like 250ms, 10s or 2m");
        }
        long n = Long.parseLong(m.group(1));
        Duration d = switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            default -> Duration.ofMinutes(n);
        };
        if (d.compareTo(min) < 0 || d.compareTo(max) > 0) {
            throw new UsageException(flag + (min.equals(Duration.ofMillis(1)) ? " must be more than 0 and at most "
                    : " must be from " + describe(min) + " to ") + describe(max));
        }
        return d;
    }

    /** {@code 1s}, {@code 10m}, {@code a day}: a bound as a user would write it. */
    private static String describe(Duration d) {
        if (d.equals(Duration.ofDays(1))) {
            return "a day";
        }
        if (d.toMillis() % 60_000 == 0) {
            return d.toMinutes() + "m";
        }
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
    }

    /**
     * A whole number from {@code min} to {@code max}.
     *
     * @throws UsageException naming {@code flag} and the range
     */
    static int intInRange(String flag, String value, int min, int max) throws UsageException {
        try {
            int n = Integer.parseInt(value);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // the message below says what is wanted
        }
        throw new UsageException(flag + " must be a whole number from " + min + " to " + max);
    }

    /**
     * A size in bytes: a whole number, optionally followed by {@code B}, {@code KiB} or {@code MiB}
     * ({@code 65536}, {@code 512KiB}, {@code 1MiB}), from 1 byte to {@code max}.
     *
     * @throws UsageException naming {@code flag} and the grammar
     */
    static int size(String flag, String value, int max) throws UsageException {
        Matcher m = Pattern.compile("([0-9]{1,10})(B|KiB|MiB)?").matcher(value);
        if (!m.matches()) {
            throw new UsageException(flag + " must be a size like 65536, 512KiB or 1MiB");
        }
        long n = Long.parseLong(m.group(1));
        long bytes = m.group(2) == null || m.group(2).equals("B") ? n
                : m.group(2).equals("KiB") ? n * 1024 : n * 1024 * 1024;
        if (bytes < 1 || bytes > max) {
            throw new UsageException(flag + " must be 1 byte to " + (max / (1024 * 1024)) + "MiB");
        }
        return (int) bytes;
    }

    /**
     * A file path.
     *
     * @throws UsageException naming {@code flag} when the platform cannot name such a file (a NUL character)
     */
    static Path path(String flag, String value) throws UsageException {
        try {
            return Path.of(value);
        } catch (InvalidPathException e) {
            throw new UsageException(flag + " is not a file path");
        }
    }

    /**
     * The fault plan in {@code file}, as {@code --fault-plan} reads it.
     *
     * @throws UsageException when it cannot be read or is not a plan, with the reason
     */
    static FaultPlan faultPlanFile(Path file) throws UsageException {
        try {
            return FaultPlan.parse(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UsageException("--fault-plan: cannot read " + file);
        } catch (InvalidFaultPlanException e) {
            throw new UsageException("--fault-plan: " + e.getMessage());
        }
    }
}
