package dev.idempotent.seatgrant.server;

import dev.idempotent.seatgrant.server.internal.cli.GradeCommand;
import dev.idempotent.seatgrant.server.internal.cli.OptionalDependencies;
import dev.idempotent.seatgrant.server.internal.cli.ProxyCommand;
import dev.idempotent.seatgrant.server.internal.cli.ReproduceCommand;
import dev.idempotent.seatgrant.server.internal.cli.ServeCommand;
import dev.idempotent.seatgrant.server.internal.OwnHeap;
import dev.idempotent.seatgrant.server.internal.cli.UsageException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * The command line: {@code java -jar fake-server.jar <command> [flags]}. Exit codes: 0 done, 1 failed to start,
 * 2 bad command line.
 *
 * <p>Each subcommand is one entry in {@link #run}'s switch and one line in {@link #USAGE}.
 */
public final class Main {

    static final String USAGE = """
            usage: fake-server <command> [flags]
            commands:
              serve       run the seat-grant server (fake-server serve --help for its flags)
              proxy       the same faults in front of any HTTP service: commit-then-lose-the-answer for
                          your own API (fake-server proxy --help)
              reproduce   run the incident lab: every worker variant against the incident, one table
                          (fake-server reproduce --help for its flags)
              grade       score any seat-grant worker, in any language (fake-server grade --help)
            flags:
              --help      this text
              --version   the version
            """;

    private Main() {
    }

    public static void main(String[] args) {
        if (System.getProperty("logback.configurationFile") == null) {
            // The server's own logging setup, named so it never shadows an embedding application's logback.xml.
            System.setProperty("logback.configurationFile", "fake-server-logback.xml");
        }
        System.exit(run(args, System.out, System.err, true));
    }

    /**
     * Runs a command; returns the exit code. {@code serve} returns only when the JVM shuts down.
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, out, err, false);
    }

    /**
     * @param ownHeap whether {@code serve} and {@code proxy} may run themselves again in a child JVM with settings of
     *                their own ({@link OwnHeap}): only for a real command line, never for a call inside someone
     *                else's JVM
     */
    private static int run(String[] args, PrintStream out, PrintStream err, boolean ownHeap) {
        if (args.length == 0) {
            err.println("fake-server: give a command (serve, proxy, reproduce or grade); see --help");
            return 2;
        }
        List<String> rest = Arrays.asList(args).subList(1, args.length);
        switch (args[0]) {
            case "--help", "-h", "help" -> {
                out.print(USAGE);
                return 0;
            }
            case "--version", "version" -> {
                out.println("fake-server " + version());
                return 0;
            }
            case "serve" -> {
                if (ownHeap) {
                    Optional<Integer> exit = OwnHeap.relaunch(rest, err);
                    if (exit.isPresent()) {
                        return exit.get();
                    }
                }
                ServeCommand.Options options;
                try {
                    options = ServeCommand.parse(rest, System.getenv("FAKE_SERVER_ADMIN_TOKEN"));
                } catch (UsageException e) {
                    err.println("fake-server serve: " + e.getMessage() + " (see fake-server serve --help)");
                    return 2;
                }
                if (options.help()) {
                    out.print(ServeCommand.USAGE);
                    return 0;
                }
                if (options.version()) {
                    out.println("fake-server " + version());
                    return 0;
                }
                if (OwnHeap.isChild()) {
                    OwnHeap.followParent();
                }
                return ServeCommand.run(options, out, err);
            }
            case "proxy" -> {
                if (ownHeap) {
                    Optional<Integer> exit = OwnHeap.relaunchProxy(rest, err);
                    if (exit.isPresent()) {
                        return exit.get();
                    }
                }
                ProxyCommand.Options options;
                try {
                    options = ProxyCommand.parse(rest, System.getenv("FAKE_SERVER_ADMIN_TOKEN"));
                } catch (UsageException e) {
                    err.println("fake-server proxy: " + e.getMessage() + " (see fake-server proxy --help)");
                    return 2;
                }
                if (options.help()) {
                    out.print(ProxyCommand.USAGE);
                    return 0;
                }
                if (options.version()) {
                    out.println("fake-server " + version());
                    return 0;
                }
                if (OwnHeap.isChild()) {
                    OwnHeap.followParent();
                }
                return ProxyCommand.run(options, out, err);
            }
            case "reproduce" -> {
                if (!OptionalDependencies.hasLab()) {
                    // A service's test classpath holds the artifact without its optional lab; the runnable jar has it.
                    err.println("fake-server reproduce: the incident lab needs " + OptionalDependencies.LAB_ARTIFACT
                            + " on the classpath; run it from the runnable jar: java -jar fake-server.jar reproduce");
                    return 1;
                }
                ReproduceCommand.Options options;
                try {
                    options = ReproduceCommand.parse(rest, System.getenv("FAKE_SERVER_ADMIN_TOKEN"));
                } catch (UsageException e) {
                    err.println("fake-server reproduce: " + e.getMessage() + " (see fake-server reproduce --help)");
                    return 2;
                }
                if (options.help()) {
                    out.print(ReproduceCommand.USAGE);
                    return 0;
                }
                return ReproduceCommand.run(options, out, err);
            }
            case "grade" -> {
                return GradeCommand.main(rest, out, err);
            }
            default -> {
                err.println("fake-server: unknown command " + (args[0].startsWith("-") ? args[0] : "'" + args[0] + "'")
                        + " (see --help)");
                return 2;
            }
        }
    }

    /** The project version, from a resource Maven fills in at build time. */
    public static String version() {
        try (InputStream in = Main.class.getResourceAsStream("version.properties")) {
            Properties p = new Properties();
            if (in != null) {
                p.load(in);
            }
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
