package dev.idempotent.seatgrant.server.internal.cli;

import dev.idempotent.seatgrant.server.FakeSeatServer;
import dev.idempotent.seatgrant.server.FaultPlan;
import dev.idempotent.seatgrant.server.ReplayStatus;
import dev.idempotent.seatgrant.server.ServerConfig;
import dev.idempotent.seatgrant.server.internal.OwnHeap;
import dev.idempotent.seatgrant.server.internal.ReadyFile;
import dev.idempotent.seatgrant.server.internal.store.DbSpec;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Deque;
import java.util.List;

/** {@code serve}: parse the flags, start a {@link FakeSeatServer}, print where it listens, run until killed. */
public final class ServeCommand {

    public static final String USAGE = """
            usage: fake-server serve [flags]
              --port N                 port to listen on (default 8080; 0 picks a free port)
              --host HOST              address to bind (default 127.0.0.1, loopback only)
              --db STORE               mem | a file path (SQLite) | sqlite:PATH | h2:PATH | jdbc:sqlite:... |
                                       jdbc:h2:... | jdbc:postgresql://...
                                       (default ./fake-server-data/seats, survives restarts)
              --scenario NAME          a shipped fault plan: incident, incident-fast, reset, flaky
              --fault-plan FILE        a fault plan in JSON
              --replay-status 409|original
                                       how a completed key is replayed (default 409)
              --require-key            a POST without Idempotency-Key gets 400
              --base-path PATH         serve the seat API under PATH, e.g. /t/tok_abc/v1/seats (the admin
                                       API stays at /__admin; the path is never logged)
              --admin-token TOKEN      admin API needs 'Authorization: Bearer TOKEN' (and then answers any
                                       address); or set FAKE_SERVER_ADMIN_TOKEN. Visible ASCII only
              --allowed-host NAME      a name clients reach the admin API by besides localhost, 127.0.0.1,
                                       [::1] and --host (e.g. fake-server); repeatable
              --header-timeout DUR     a request's headers must arrive within DUR of its first byte, else
                                       408 and close (default 10s; DUR is <n>ms, <n>s or <n>m)
              --body-timeout DUR       a request's body must arrive within DUR of its headers, else 408 and
                                       close (default 30s)
              --idle-timeout DUR       close a kept-alive connection idle this long (default 60s)
              --max-connections N      open connections beyond N are accepted and closed at once (default
                                       10000, or 3/4 of the open-file limit when lower)
              --journal-capacity N     journal entries kept, oldest overwritten first (default 100000)
              --ready-file PATH        once the port accepts, write the base URL and a newline to PATH
                                       (atomically; deleted at start and on exit)
              --no-cds                 no class-data archive for the child JVM (or FAKE_SERVER_NO_CDS=1)
              --help                   this text
              --version                the version
            """;

    private ServeCommand() {
    }

    /**
     * What {@code serve}'s flags ask for; {@code help} or {@code version} short-circuits everything else (and then
     * {@code config} and {@code faultSource} are null).
     */
    public record Options(boolean help, boolean version, ServerConfig config, String faultSource, Path readyFile) { }

    /**
     * Reads {@code serve}'s flags.
     *
     * @throws UsageException naming the first bad flag
     */
    public static Options parse(List<String> args, String tokenFromEnv) throws UsageException {
        ServerConfig.Builder builder = ServerConfig.builder().port(8080).db(DbSpec.DEFAULT);
        String faultSource = "none";
        boolean planSet = false;
        Path readyFile = null;
        if (tokenFromEnv != null && !tokenFromEnv.isBlank()) {
            try {
                builder.adminToken(tokenFromEnv);
            } catch (IllegalArgumentException e) {
                throw new UsageException("FAKE_SERVER_ADMIN_TOKEN: " + e.getMessage());
            }
        }
        Deque<String> queue = Flags.tokens(args);
        while (!queue.isEmpty()) {
            String flag = queue.poll();
            switch (flag) {
                case "--help", "-h" -> {
                    return new Options(true, false, null, null, null);
                }
                case "--version" -> {
                    return new Options(false, true, null, null, null);
                }
                case "--port" -> {
                    String value = Flags.value(queue, flag);
                    try {
                        builder.port(Integer.parseInt(value));
                    } catch (IllegalArgumentException e) {
                        throw new UsageException("--port must be a number from 0 to 65535");
                    }
                }
                case "--host" -> builder.host(Flags.value(queue, flag));
                case "--db" -> {
                    String value = Flags.value(queue, flag);
                    try {
                        DbSpec.parse(value);
                    } catch (IllegalArgumentException e) {
                        throw new UsageException(e.getMessage());
                    }
                    builder.db(value);
                }
                case "--scenario" -> {
                    if (planSet) {
                        throw new UsageException("give --scenario or --fault-plan, not both");
                    }
                    String name = Flags.value(queue, flag);
                    try {
                        builder.faultPlan(FaultPlan.scenario(name));
                    } catch (IllegalArgumentException e) {
                        throw new UsageException("--scenario: " + e.getMessage());
                    }
                    faultSource = "scenario " + name;
                    planSet = true;
                }
                case "--fault-plan" -> {
                    if (planSet) {
                        throw new UsageException("give --scenario or --fault-plan, not both");
                    }
                    Path file = Path.of(Flags.value(queue, flag));
                    builder.faultPlan(Flags.faultPlanFile(file));
                    faultSource = "plan " + file.getFileName();
                    planSet = true;
                }
                case "--replay-status" -> {
                    try {
                        builder.replayStatus(ReplayStatus.parse(Flags.value(queue, flag)));
                    } catch (IllegalArgumentException e) {
                        throw new UsageException("--replay-status must be 409 or original");
                    }
                }
                case "--require-key" -> builder.requireKey(true);
                case "--base-path" -> {
                    try {
                        builder.basePath(Flags.value(queue, flag));
                    } catch (IllegalArgumentException e) {
                        throw new UsageException("--base-path: " + e.getMessage());
                    }
                }
                case "--admin-token" -> {
                    try {
                        builder.adminToken(Flags.value(queue, flag));
                    } catch (IllegalArgumentException e) {
                        throw new UsageException("--admin-token: " + e.getMessage());
                    }
                }
                case "--allowed-host" -> {
                    try {
                        builder.allowedHost(Flags.value(queue, flag));
                    } catch (IllegalArgumentException e) {
                        throw new UsageException("--allowed-host: " + e.getMessage());
                    }
                }
                case "--header-timeout" -> builder.headerTimeout(Flags.duration(flag, Flags.value(queue, flag)));
                case "--body-timeout" -> builder.bodyTimeout(Flags.duration(flag, Flags.value(queue, flag)));
                case "--idle-timeout" -> builder.idleTimeout(Flags.duration(flag, Flags.value(queue, flag)));
                case "--max-connections" -> builder.maxConnections(
                        Flags.intInRange(flag, Flags.value(queue, flag), 1, 1_000_000));
                case "--journal-capacity" -> builder.journalCapacity(
                        Flags.intInRange(flag, Flags.value(queue, flag), 1, 10_000_000));
                case ReadyFile.FLAG -> readyFile = Flags.path(flag, Flags.value(queue, flag));
                case OwnHeap.NO_CDS -> {
                    // The launcher's: it reads it before this JVM starts the child (OwnHeap).
                }
                default -> throw new UsageException(flag.startsWith("-")
                        ? Flags.unknownFlag(flag) : "unexpected argument (serve takes only flags)");
            }
        }
        return new Options(false, false, builder.build(), faultSource, readyFile);
    }

    /**
     * What to tell the user when the server did not start: for a port another process holds, that, and how to get
     * a free one; otherwise the failure's own message, as before.
     */
    static String whyNotStarted(RuntimeException e, ServerConfig config) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof java.net.BindException bind
                    && String.valueOf(bind.getMessage()).toLowerCase(java.util.Locale.ROOT).contains("in use")) {
                return "port " + config.port() + " on " + config.host() + " is already in use (another fake-server, "
                        + "or any other program, is listening there); stop it, or choose another port: --port N, "
                        + "or --port 0 for any free port (the line it prints names the one it got)";
            }
        }
        return e.getMessage();
    }

    /** Starts the server, prints one line with its URL, and blocks until the JVM is asked to stop. */
    public static int run(Options options, PrintStream out, PrintStream err) {
        ReadyFile.delete(options.readyFile());
        FakeSeatServer server;
        try {
            server = FakeSeatServer.start(options.config());
        } catch (RuntimeException e) {
            err.println("fake-server: cannot start: " + whyNotStarted(e, options.config()));
            return 1;
        }
        return UntilStopped.run(server, "fake-server listening on " + server.baseUri() + " (store: "
                + server.storeDescription() + "; faults: " + options.faultSource() + "; page: "
                + server.baseUri().resolve("/__admin/ui") + ")", server.baseUri(), options.readyFile(), out, err);
    }
}
