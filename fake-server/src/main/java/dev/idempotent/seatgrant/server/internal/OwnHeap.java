package dev.idempotent.seatgrant.server.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Gives a server the JVM settings its store needs when nobody chose any, by running {@code serve} (or
 * {@code proxy}) again as a child JVM and waiting for it, passing its exit code on. Every child gets the collector
 * settings in
 * {@link #COLLECTOR}: with the JVM's own, G1 lets the young generation grow to hundreds of megabytes, and a young
 * pause over it was what the in-memory server's p99 was made of (docs/benchmarks.md).
 *
 * <ul>
 *   <li><b>A durable store</b> (file or PostgreSQL) also gets a heap of its own size, {@link #HEAP}. A JVM started
 *       with no flags may grow its heap to a quarter of the machine's memory, and under load it does: gigabytes of
 *       resident memory for a server whose live data is a few tens of megabytes (the seats live in the database,
 *       the journal and the per-key fault state are bounded).</li>
 *   <li><b>A store in the heap</b> ({@code --db mem}) keeps the JVM's default heap, since its seats grow with
 *       every grant.</li>
 *   <li><b>The proxy</b> keeps no seats, but its journal, its fault plan's attempt counts and the requests it is
 *       forwarding live in its heap, the last as large as its clients make them: it gets what a store in the heap
 *       gets, the collector settings and the JVM's default heap. Its p99 in front of nginx was 57 to 92 ms with
 *       the JVM's own settings and 13 to 17 ms with these (docs/benchmarks.md).</li>
 * </ul>
 *
 * <p>What it keeps: the child writes to the same stdout and stderr, so the "listening on" line is the child's;
 * SIGTERM or Ctrl-C to the parent stops the child gracefully; {@code kill -9} of the parent closes the child's
 * stdin, and the child then halts at once, as if it had been killed itself (what it committed is in the store).
 * What turns it off: any heap flag ({@code -Xmx}, {@code -XX:MaxHeapSize}, {@code -XX:MaxRAMPercentage}, ... on
 * the command line or in {@code JAVA_TOOL_OPTIONS}), and for a store in the heap, whose child would add nothing
 * else, any flag that chooses the collector or sizes the young generation. A durable store's child then gets
 * the heap alone, and the user's collector flags with the rest of the parent's.
 *
 * <p>What it costs is a second JVM's start, so the parent starts the child before it does anything else: it reads
 * no flag but {@code --db}, {@code --help}, {@code --version}, {@code --no-cds} and {@code --ready-file} (whose
 * stale file it deletes first; the child reads and checks them all, and its exit code is the parent's), and it
 * loads none of the server's libraries. The child maps its classes from a class-data-sharing archive when there is
 * one ({@link StartupArchive}), and JVM warnings go to stderr, never to the stdout line a script reads.
 * docs/benchmarks.md has the start times.
 */
public final class OwnHeap {

    /** The heap a durable server gets when nobody chose one; see docs/benchmarks.md for what it holds. */
    public static final String HEAP = "256m";

    /**
     * The child's collector: G1 named (a small machine would otherwise get the serial collector, whose full
     * collections of a heap of seats take seconds), a young generation of at most 24 MB, and no survivor ageing:
     * what outlives one young collection here (a request's journal entry, the seats of a store in the heap)
     * outlives many, and is copied once, not up to fifteen times. A young pause is that copy of what the requests
     * since the last one left in the journal, so its length follows the young generation's size: at 64 MB the
     * pauses were what the in-memory server's p99 was made of (docs/benchmarks.md); the total copied is the same.
     */
    public static final List<String> COLLECTOR =
            List.of("-XX:+UseG1GC", "-XX:MaxNewSize=24m", "-XX:MaxTenuringThreshold=0");

    /** The flag that keeps the child from using or writing a class-data archive. */
    public static final String NO_CDS = "--no-cds";

    /** The environment variable that does what {@link #NO_CDS} does, for every start. */
    public static final String NO_CDS_VARIABLE = "FAKE_SERVER_NO_CDS";

    /**
     * How the child logs the JVM's own messages: warnings and errors to stderr, never to the stdout line a script
     * reads; class-data sharing's errors only, since its warnings (one per class an archive cannot hold, on every
     * exit that writes one) say nothing a user can act on.
     */
    static final List<String> LOGGING = List.of("-Xlog:disable", "-Xlog:all=warning:stderr", "-Xlog:cds*=error:stderr");

    /** Set on the child's command line; marks a JVM that is already the child. */
    static final String CHILD_PROPERTY = "fake-server.own-heap";

    /**
     * Lower-case prefixes of the flags that size the heap (-XX:MaxRAM also covers MaxRAMPercentage and Fraction;
     * AggressiveHeap sizes it and picks a collector too), and of the flags that read more flags from a file, which
     * may say anything: with any of them the user chose, and there is no child.
     */
    private static final List<String> HEAP_FLAGS = List.of("-xmx", "-xx:maxheapsize", "-xx:maxram",
            "-xx:+aggressiveheap", "-xx:flags=", "-xx:vmoptionsfile=");

    /**
     * Lower-case prefixes of the flags that size the young generation or set how long objects age in it; a flag
     * that picks a collector ({@code -XX:+UseZGC}, {@code -XX:-UseG1GC}, ...) is found by {@link #COLLECTOR_CHOICE}.
     */
    private static final List<String> YOUNG_GENERATION_FLAGS = List.of("-xmn", "-xx:newsize", "-xx:maxnewsize",
            "-xx:maxtenuringthreshold", "-xx:newratio");

    private static final Pattern COLLECTOR_CHOICE =
            Pattern.compile("-xx:[+-]use(serial|parallel|parallelold|g1|z|shenandoah|epsilon|concmarksweep)gc");

    /** Where {@code serve ARGS} keeps its seats, as far as the child's settings go; the proxy counts as in the heap. */
    enum Store {
        /** A file or a database server: the child gets {@link #HEAP} and {@link #COLLECTOR}. */
        DURABLE,
        /** {@code mem}, an H2 in-memory URL, or the proxy: the child gets {@link #COLLECTOR}. */
        IN_HEAP,
        /** Help or the version: nothing is served, so no child. */
        NONE
    }

    private OwnHeap() {
    }

    /** True in the child JVM this class started. */
    public static boolean isChild() {
        return System.getProperty(CHILD_PROPERTY) != null;
    }

    /**
     * In the child: halts the JVM as soon as the parent is gone (its stdin reaches end of file), so a
     * {@code kill -9} of the process the user started kills the server too.
     */
    public static void followParent() {
        Thread watcher = new Thread(() -> {
            try {
                InputStream in = System.in;
                while (in.read() >= 0) {
                    // the parent never writes; anything read is ignored
                }
            } catch (IOException e) {
                // a broken pipe means the same: the parent is gone
            }
            Runtime.getRuntime().halt(137);
        }, "fake-server-parent-watch");
        watcher.setDaemon(true);
        watcher.start();
    }

    /**
     * Runs {@code serve ARGS} again in a child JVM with the settings its store needs, if this JVM should: not when
     * it is the child, when a heap flag was given, when the arguments ask for help or the version, or, for a store
     * in the heap, when a collector flag was given.
     *
     * @return the child's exit code, or empty when this JVM should serve itself
     */
    public static Optional<Integer> relaunch(List<String> serveArgs, PrintStream err) {
        return relaunch("serve", store(serveArgs), serveArgs, err);
    }

    /**
     * Runs {@code proxy ARGS} again in a child JVM with the settings of a store in the heap (see the class
     * comment), if this JVM should: not when it is the child, when a heap, collector or young-generation flag
     * was given, or when the arguments ask for help or the version.
     *
     * @return the child's exit code, or empty when this JVM should serve itself
     */
    public static Optional<Integer> relaunchProxy(List<String> proxyArgs, PrintStream err) {
        return relaunch("proxy", asksForHelpOrVersion(proxyArgs) ? Store.NONE : Store.IN_HEAP, proxyArgs, err);
    }

    private static Optional<Integer> relaunch(String subcommand, Store store, List<String> args, PrintStream err) {
        if (isChild()) {
            return Optional.empty();
        }
        List<String> inputArguments = ManagementFactory.getRuntimeMXBean().getInputArguments();
        Optional<List<String>> flags = childFlags(store, inputArguments);
        if (flags.isEmpty()) {
            return Optional.empty();
        }
        Optional<String> java = ProcessHandle.current().info().command();
        String classPath = System.getProperty("java.class.path");
        if (java.isEmpty() || classPath == null || classPath.isBlank()) {
            return Optional.empty();
        }
        List<String> command = new ArrayList<>();
        command.add(java.get());
        command.addAll(flags.get());
        command.add("-D" + CHILD_PROPERTY + "=true");
        command.addAll(LOGGING);
        // SQLite's JDBC driver loads its native library; JDK 24 and later warn about that unless it is allowed
        // (the jar's manifest allows it for java -jar, which the child is not started with). Not with
        // --enable-native-access: the JDK's own base archive was dumped without it, and with it every start that
        // maps an archive logs an error and drops the archived module graph.
        command.add(Runtime.version().feature() >= 24 ? "--illegal-native-access=allow"
                : "--enable-native-access=ALL-UNNAMED");
        Optional<StartupArchive.Plan> archive = archiveWanted(args)
                ? StartupArchive.plan(classPath, StartupArchive.userCache()) : Optional.empty();
        archive.ifPresent(plan -> command.addAll(plan.flags()));
        // The parent's own JVM flags (system properties, agents) carry over; none of them is one the child sets.
        command.addAll(inputArguments);
        command.add("-cp");
        command.add(classPath);
        command.add("dev.idempotent.seatgrant.server.Main");
        command.add(subcommand);
        command.addAll(args);
        // A file an earlier run left must be gone before anything could take it for this run's signal.
        Path readyFile = ReadyFile.named(args);
        ReadyFile.delete(readyFile);
        Process child;
        try {
            child = new ProcessBuilder(command)
                    .redirectOutput(ProcessBuilder.Redirect.INHERIT)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
        } catch (IOException e) {
            // Cannot start a JVM here (no java binary we may run): serve in this one rather than not at all.
            err.println("fake-server: serving with this JVM's settings (could not start a JVM with "
                    + String.join(" ", flags.get()) + ")");
            return Optional.empty();
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            child.destroy();
            try {
                if (child.waitFor(15, TimeUnit.SECONDS)) {
                    // Here, not only after waitFor below: once this hook returns the JVM halts, and the main
                    // thread may not get to run again. Ctrl-C is how a server usually ends.
                    archive.ifPresent(StartupArchive.Plan::childExited);
                    ReadyFile.delete(readyFile);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "fake-server-stop-child"));
        try {
            int exit = child.waitFor();
            archive.ifPresent(StartupArchive.Plan::childExited);
            // The child removes it when it stops; not when it crashed.
            ReadyFile.delete(readyFile);
            return Optional.of(exit);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            child.destroy();
            return Optional.of(1);
        }
    }

    /**
     * The flags the child gets for this store, given the JVM flags this one was started with; empty when there
     * should be no child.
     */
    static Optional<List<String>> childFlags(Store store, List<String> inputArguments) {
        if (store == Store.NONE || chosen(inputArguments, HEAP_FLAGS)) {
            return Optional.empty();
        }
        boolean collectorChosen = chosen(inputArguments, YOUNG_GENERATION_FLAGS) || inputArguments.stream()
                .anyMatch(arg -> COLLECTOR_CHOICE.matcher(arg.toLowerCase(Locale.ROOT)).matches());
        List<String> flags = new ArrayList<>();
        if (store == Store.DURABLE) {
            flags.add("-Xmx" + HEAP);
        }
        if (!collectorChosen) {
            flags.addAll(COLLECTOR);
        }
        return flags.isEmpty() ? Optional.empty() : Optional.of(List.copyOf(flags));
    }

    /**
     * Where {@code serve ARGS} keeps its seats. A light look at the arguments, not the parser: the child parses
     * them all, and starting it before anything else is what keeps the start short.
     */
    static Store store(List<String> serveArgs) {
        if (asksForHelpOrVersion(serveArgs)) {
            return Store.NONE;
        }
        String db = null;
        for (int i = 0; i < serveArgs.size(); i++) {
            String arg = serveArgs.get(i);
            if (arg.equals("--db") && i + 1 < serveArgs.size()) {
                db = serveArgs.get(++i);
            } else if (arg.startsWith("--db=")) {
                db = arg.substring("--db=".length());
            }
        }
        if (db == null) {
            return Store.DURABLE;
        }
        String lower = db.toLowerCase(Locale.ROOT);
        return lower.equals("mem") || lower.startsWith("jdbc:h2:mem:") ? Store.IN_HEAP : Store.DURABLE;
    }

    /** Whether a command's arguments ask for its help or the version, so that nothing is served. */
    static boolean asksForHelpOrVersion(List<String> args) {
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (arg.equals("--help") || arg.equals("-h") || arg.equals("--version")) {
                return true;
            }
            // As the parser reads them: a flag's value is never a flag, so `--db -h` serves a file named -h. A
            // value that starts with -- is refused there, and left to be read as a flag here.
            boolean takesValue = arg.startsWith("--") && arg.indexOf('=') < 0 && !FLAGS_WITHOUT_VALUE.contains(arg);
            if (takesValue && i + 1 < args.size() && !args.get(i + 1).startsWith("--")) {
                i++;
            }
        }
        return false;
    }

    /** The flags of {@code serve} and {@code proxy}, besides help and the version, that take no value. */
    private static final Set<String> FLAGS_WITHOUT_VALUE = Set.of("--require-key", NO_CDS);

    /**
     * Whether the child should use a class-data archive ({@link StartupArchive}): yes unless the arguments say
     * {@code --no-cds} or the environment {@code FAKE_SERVER_NO_CDS} is set to anything but empty or {@code 0}.
     */
    static boolean archiveWanted(List<String> args) {
        String off = System.getenv(NO_CDS_VARIABLE);
        return !args.contains(NO_CDS) && (off == null || off.isEmpty() || off.equals("0"));
    }

    private static boolean chosen(List<String> inputArguments, List<String> prefixes) {
        for (String arg : inputArguments) {
            String flag = arg.toLowerCase(Locale.ROOT);
            for (String prefix : prefixes) {
                if (flag.startsWith(prefix)) {
                    return true;
                }
            }
        }
        return false;
    }
}
