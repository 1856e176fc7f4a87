package dev.idempotent.seatgrant.server.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Gives a durable server a heap of its own size when nobody chose one. A JVM started with no flags may grow its
 * heap to a quarter of the machine's memory, and under load it does: gigabytes of resident memory for a server
 * whose live data on a file or PostgreSQL store is a few tens of megabytes (the seats live in the database, the
 * journal and the per-key fault state are bounded). So {@code serve} on such a store, started with no heap flag,
 * runs itself again as a child JVM with {@link #HEAP} and waits for it, passing its exit code on.
 *
 * <p>What it keeps: the child writes to the same stdout and stderr, so the "listening on" line is the child's;
 * SIGTERM or Ctrl-C to the parent stops the child gracefully; {@code kill -9} of the parent closes the child's
 * stdin, and the child then halts at once, as if it had been killed itself (what it committed is in the store).
 * What turns it off: any heap flag ({@code -Xmx}, {@code -XX:MaxHeapSize}, {@code -XX:MaxRAMPercentage}, ... on
 * the command line or in {@code JAVA_TOOL_OPTIONS}), or {@code --db mem}, whose seats live in the heap.
 *
 * <p>What it costs is a second JVM's start, so the parent starts the child before it does anything else: it reads
 * no flag but {@code --db}, {@code --help} and {@code --version} (the child reads and checks them all, and its
 * exit code is the parent's), and it loads none of the server's libraries. The child maps its classes from a
 * class-data-sharing archive when there is one ({@link StartupArchive}), and JVM warnings go to stderr, never
 * to the stdout line a script reads. docs/benchmarks.md has the start times.
 */
public final class OwnHeap {

    /** The heap a durable server gets when nobody chose one; see docs/benchmarks.md for what it holds. */
    public static final String HEAP = "256m";

    /** Set on the child's command line; marks a JVM that is already the child. */
    static final String CHILD_PROPERTY = "fake-server.own-heap";

    /** Lower-case prefixes of the flags that size the heap; -XX:MaxRAM also covers MaxRAMPercentage and Fraction. */
    private static final List<String> HEAP_FLAGS = List.of("-xmx", "-xx:maxheapsize", "-xx:maxram");

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
     * Runs {@code serve ARGS} again in a child JVM with its own heap, if this JVM should: not when it is the child,
     * when a heap flag was given, when the arguments ask for help or the version, or when {@code --db} names a
     * store in the heap ({@code mem}, a {@code jdbc:h2:mem:} URL).
     *
     * @return the child's exit code, or empty when this JVM should serve itself
     */
    public static Optional<Integer> relaunch(List<String> serveArgs, PrintStream err) {
        if (isChild() || heapChosen() || !wantsOwnHeap(serveArgs)) {
            return Optional.empty();
        }
        Optional<String> java = ProcessHandle.current().info().command();
        String classPath = System.getProperty("java.class.path");
        if (java.isEmpty() || classPath == null || classPath.isBlank()) {
            return Optional.empty();
        }
        List<String> command = new ArrayList<>();
        command.add(java.get());
        command.add("-Xmx" + HEAP);
        command.add("-D" + CHILD_PROPERTY + "=" + HEAP);
        // A JVM logs its warnings to stdout, which carries the one line a script reads; send them to stderr.
        command.add("-Xlog:disable");
        command.add("-Xlog:all=warning:stderr");
        // SQLite's JDBC driver loads its native library; JDK 24 and later warn about that unless it is allowed
        // (the jar's manifest allows it for java -jar, which the child is not started with).
        command.add("--enable-native-access=ALL-UNNAMED");
        Optional<StartupArchive.Plan> archive = StartupArchive.plan(classPath, HEAP, StartupArchive.userCache());
        archive.ifPresent(plan -> command.addAll(plan.flags()));
        // The parent's own JVM flags (system properties, agents) carry over; it had no heap flag of its own.
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.add("-cp");
        command.add(classPath);
        command.add("dev.idempotent.seatgrant.server.Main");
        command.add("serve");
        command.addAll(serveArgs);
        Process child;
        try {
            child = new ProcessBuilder(command)
                    .redirectOutput(ProcessBuilder.Redirect.INHERIT)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
        } catch (IOException e) {
            // Cannot start a JVM here (no java binary we may run): serve in this one rather than not at all.
            err.println("fake-server: serving with the JVM's default heap (could not start one of " + HEAP + ")");
            return Optional.empty();
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            child.destroy();
            try {
                if (child.waitFor(15, TimeUnit.SECONDS)) {
                    // Here, not only after waitFor below: once this hook returns the JVM halts, and the main
                    // thread may not get to run again. Ctrl-C is how a server usually ends.
                    archive.ifPresent(StartupArchive.Plan::childExited);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "fake-server-stop-child"));
        try {
            int exit = child.waitFor();
            archive.ifPresent(StartupArchive.Plan::childExited);
            return Optional.of(exit);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            child.destroy();
            return Optional.of(1);
        }
    }

    /**
     * Whether {@code serve ARGS} would serve a store outside the heap. A light look at the arguments, not the
     * parser: the child parses them all, and starting it before anything else is what keeps the start short.
     */
    static boolean wantsOwnHeap(List<String> serveArgs) {
        String db = null;
        for (int i = 0; i < serveArgs.size(); i++) {
            String arg = serveArgs.get(i);
            if (arg.equals("--help") || arg.equals("-h") || arg.equals("--version")) {
                return false;
            }
            if (arg.equals("--db") && i + 1 < serveArgs.size()) {
                db = serveArgs.get(++i);
            } else if (arg.startsWith("--db=")) {
                db = arg.substring("--db=".length());
            }
        }
        if (db == null) {
            return true;
        }
        String lower = db.toLowerCase(Locale.ROOT);
        return !lower.equals("mem") && !lower.startsWith("jdbc:h2:mem:");
    }

    private static boolean heapChosen() {
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            String flag = arg.toLowerCase(Locale.ROOT);
            for (String heapFlag : HEAP_FLAGS) {
                if (flag.startsWith(heapFlag)) {
                    return true;
                }
            }
        }
        return false;
    }
}
