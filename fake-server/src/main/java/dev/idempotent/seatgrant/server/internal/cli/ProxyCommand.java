package dev.idempotent.seatgrant.server.internal.cli;

import dev.idempotent.seatgrant.server.FakeProxy;
import dev.idempotent.seatgrant.server.FaultPlan;
import dev.idempotent.seatgrant.server.ProxyConfig;
import dev.idempotent.seatgrant.server.internal.OwnHeap;
import dev.idempotent.seatgrant.server.internal.ReadyFile;
import java.io.PrintStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;

/**
 * {@code proxy}: parse the flags, start a {@link FakeProxy} in front of the upstream, print where it listens, run
 * until killed.
 */
public final class ProxyCommand {

    public static final String USAGE = """
            usage: fake-server proxy --upstream URL [flags]
              --upstream URL           the HTTP service to stand in front of: http://host:port[/path] (required).
                                       Userinfo in it is sent as Basic auth on requests that carry no
                                       Authorization; it is never printed or logged
              --port N                 port to listen on (default 0: a free port, printed at start)
              --host HOST              address to bind (default 127.0.0.1, loopback only)
              --scenario NAME          a shipped fault plan: incident, incident-fast, reset, flaky; needs --route
              --route 'METHOD /path'   the route the scenario strikes (scenarios are written for POST /v1/seats:
                                       say --route 'POST /v1/seats' if that is yours); also used when the admin
                                       API or the page applies a scenario later
              --fault-plan FILE        a fault plan in JSON; its rules name their own methods and paths
              --operation SPEC         what makes requests attempts of one operation: header:NAME (default
                                       header:Idempotency-Key; a request without it is fingerprinted by its
                                       method, target and body), json:POINTER (that field of a JSON body, a
                                       string or a number; the key header ignored; no field: fingerprinted) or
                                       fingerprint (keys ignored)
              --volatile-field PTR     a JSON body field that changes on every attempt (a timestamp, a nonce),
                                       e.g. /sentAt; repeatable. Operations with the same method and path whose
                                       bodies differ only in such fields, each creating a resource, are reported
                                       as suspected duplicates
              --suspect-window DUR     how close such operations must come (default 10s)
              --created SPEC           where a 2xx answer to POST, PUT or PATCH names what it created:
                                       header:NAME (default header:Location) or json:/pointer (e.g. json:/id);
                                       an answer that names nothing counts each 201 as one
              --upstream-timeout DUR   the upstream's whole answer must come within DUR, else 504 (default 30s;
                                       connecting alone is bounded at 5s, else 502; no connection free or
                                       made within DUR is 503, nothing sent)
              --max-upstream-connections N
                                       connections to the upstream open at most; requests beyond them wait
                                       for one (default 256)
              --max-body SIZE          the largest body, both ways: a larger request gets 413, a larger answer
                                       502 (default 1MiB; e.g. 65536, 512KiB, 64MiB at most)
              --max-in-flight SIZE     request and answer bodies held at once, across all connections; past
                                       it 503 with Retry-After: 1 (default 64MiB; at least --max-body)
              --admin-token TOKEN      admin API needs 'Authorization: Bearer TOKEN' (and then answers any
                                       address); or set FAKE_SERVER_ADMIN_TOKEN. Visible ASCII only
              --allowed-host NAME      a name clients reach the admin API by besides localhost, 127.0.0.1,
                                       [::1] and --host; repeatable (the forwarded API has no such check)
              --header-timeout DUR     as serve's (default 10s)
              --body-timeout DUR       as serve's (default 30s)
              --idle-timeout DUR       as serve's (default 60s)
              --max-connections N      as serve's (default 10000, or 3/4 of the open-file limit when lower)
              --journal-capacity N     journal entries kept, oldest overwritten first (default 100000)
              --ready-file PATH        as serve's: the base URL once the port accepts
              --no-cds                 as serve's: no class-data archive (or FAKE_SERVER_NO_CDS=1)
              --help                   this text
              --version                the version
            The admin API (faults, scenarios, requests, ledger, reset, the page, health) is serve's, under
            /__admin, and is never forwarded. DUR is <n>ms, <n>s or <n>m.
            """;

    private ProxyCommand() {
    }

    /**
     * What {@code proxy}'s flags ask for; {@code help} or {@code version} short-circuits everything else (and then
     * {@code config} and {@code faultSource} are null).
     *
     * @param faultSource the plan in words, for the startup line
     */
    public record Options(boolean help, boolean version, ProxyConfig config, String faultSource, Path readyFile) { }

    /**
     * Reads {@code proxy}'s flags.
     *
     * @throws UsageException naming the first bad flag; never quoting the upstream URL
     */
    public static Options parse(List<String> args, String tokenFromEnv) throws UsageException {
        Deque<String> queue = Flags.tokens(args);
        String upstream = null;
        String scenario = null;
        Path planFile = null;
        String[] route = null;
        Path readyFile = null;
        // The builder needs the upstream first, which may come last: each setting waits as a step until then.
        List<Step> steps = new ArrayList<>();
        if (tokenFromEnv != null && !tokenFromEnv.isBlank()) {
            steps.add(b -> set("FAKE_SERVER_ADMIN_TOKEN", () -> b.adminToken(tokenFromEnv)));
        }
        while (!queue.isEmpty()) {
            String flag = queue.poll();
            switch (flag) {
                case "--help", "-h" -> {
                    return new Options(true, false, null, null, null);
                }
                case "--version" -> {
                    return new Options(false, true, null, null, null);
                }
                case "--upstream" -> {
                    if (upstream != null) {
                        throw new UsageException("give --upstream once");
                    }
                    upstream = Flags.value(queue, flag);
                }
                case "--scenario" -> {
                    if (scenario != null || planFile != null) {
                        throw new UsageException("give --scenario or --fault-plan, once");
                    }
                    scenario = Flags.value(queue, flag);
                    if (!FaultPlan.SCENARIOS.contains(scenario)) {
                        throw new UsageException("--scenario: unknown scenario; known: "
                                + String.join(", ", FaultPlan.SCENARIOS));
                    }
                }
                case "--fault-plan" -> {
                    if (scenario != null || planFile != null) {
                        throw new UsageException("give --scenario or --fault-plan, once");
                    }
                    planFile = Path.of(Flags.value(queue, flag));
                    FaultPlan plan = Flags.faultPlanFile(planFile);
                    steps.add(b -> b.faultPlan(plan));
                }
                case "--route" -> route = route(Flags.value(queue, flag));
                case ReadyFile.FLAG -> readyFile = Flags.path(flag, Flags.value(queue, flag));
                case OwnHeap.NO_CDS -> {
                    // The launcher's: it reads it before this JVM starts the child (OwnHeap).
                }
                default -> steps.add(setting(flag, queue));
            }
        }
        if (upstream == null) {
            throw new UsageException("--upstream URL is required: the HTTP service to stand in front of");
        }
        ProxyConfig.Builder builder = builder(upstream);
        for (Step step : steps) {
            step.apply(builder);
        }
        String faultSource = "none";
        if (route != null) {
            builder.route(route[0], route[1]);
        }
        if (scenario != null) {
            if (route == null) {
                // The scenarios strike POST /v1/seats; in front of another API they would silently strike nothing.
                throw new UsageException("--scenario needs --route 'METHOD /path', the route it should strike"
                        + " (the scenarios are written for POST /v1/seats: say --route 'POST /v1/seats' if that is"
                        + " yours)");
            }
            builder.faultPlan(FaultPlan.scenario(scenario).onRoute(route[0], route[1]));
            faultSource = "scenario " + scenario + " on " + route[0] + " " + route[1];
        } else if (planFile != null) {
            faultSource = "plan " + planFile.getFileName();
        }
        ProxyConfig config;
        try {
            config = builder.build();
        } catch (IllegalArgumentException e) {
            // Settings that are fine alone but not together (--max-in-flight under --max-body).
            throw new UsageException(e.getMessage());
        }
        return new Options(false, false, config, faultSource, readyFile);
    }

    /** One setting, applied once the builder exists. */
    @FunctionalInterface
    private interface Step {
        void apply(ProxyConfig.Builder builder) throws UsageException;
    }

    /** The step for one of the flags every setting shares the shape of: {@code --flag value}. */
    private static Step setting(String flag, Deque<String> queue) throws UsageException {
        return switch (flag) {
            case "--port" -> {
                int port = Flags.intInRange(flag, Flags.value(queue, flag), 0, 65535);
                yield b -> b.port(port);
            }
            case "--host" -> {
                String host = Flags.value(queue, flag);
                yield b -> b.host(host);
            }
            case "--operation" -> {
                String spec = Flags.value(queue, flag);
                yield b -> set(flag, () -> b.operation(spec));
            }
            case "--created" -> {
                String spec = Flags.value(queue, flag);
                yield b -> set(flag, () -> b.created(spec));
            }
            case "--volatile-field" -> {
                String pointer = Flags.value(queue, flag);
                yield b -> set(flag, () -> b.volatileField(pointer));
            }
            case "--suspect-window" -> {
                Duration window = Flags.duration(flag, Flags.value(queue, flag));
                yield b -> b.suspectWindow(window);
            }
            case "--upstream-timeout" -> {
                Duration timeout = Flags.duration(flag, Flags.value(queue, flag));
                yield b -> b.upstreamTimeout(timeout);
            }
            case "--max-body" -> {
                int bytes = Flags.size(flag, Flags.value(queue, flag), ProxyConfig.MAX_BODY_LIMIT);
                yield b -> b.maxBody(bytes);
            }
            case "--max-upstream-connections" -> {
                int max = Flags.intInRange(flag, Flags.value(queue, flag), 1,
                        ProxyConfig.MAX_UPSTREAM_CONNECTIONS_LIMIT);
                yield b -> b.maxUpstreamConnections(max);
            }
            case "--max-in-flight" -> {
                int bytes = Flags.size(flag, Flags.value(queue, flag), 1024 * 1024 * 1024);
                yield b -> b.maxInFlightBytes(bytes);
            }
            case "--admin-token" -> {
                String token = Flags.value(queue, flag);
                yield b -> set(flag, () -> b.adminToken(token));
            }
            case "--allowed-host" -> {
                String name = Flags.value(queue, flag);
                yield b -> set(flag, () -> b.allowedHost(name));
            }
            case "--header-timeout" -> {
                Duration timeout = Flags.duration(flag, Flags.value(queue, flag));
                yield b -> b.headerTimeout(timeout);
            }
            case "--body-timeout" -> {
                Duration timeout = Flags.duration(flag, Flags.value(queue, flag));
                yield b -> b.bodyTimeout(timeout);
            }
            case "--idle-timeout" -> {
                Duration timeout = Flags.duration(flag, Flags.value(queue, flag));
                yield b -> b.idleTimeout(timeout);
            }
            case "--max-connections" -> {
                int max = Flags.intInRange(flag, Flags.value(queue, flag), 1, 1_000_000);
                yield b -> b.maxConnections(max);
            }
            case "--journal-capacity" -> {
                int capacity = Flags.intInRange(flag, Flags.value(queue, flag), 1, 10_000_000);
                yield b -> b.journalCapacity(capacity);
            }
            default -> throw new UsageException(flag.startsWith("-")
                    ? Flags.unknownFlag(flag) : "unexpected argument (proxy takes only flags)");
        };
    }

    /** Runs a builder setter, turning its refusal into a usage error named after {@code what}. */
    private static void set(String what, Runnable setter) throws UsageException {
        try {
            setter.run();
        } catch (IllegalArgumentException e) {
            throw new UsageException(what + ": " + e.getMessage());
        }
    }

    private static ProxyConfig.Builder builder(String url) throws UsageException {
        URI upstream;
        try {
            upstream = new URI(url);
        } catch (URISyntaxException e) {
            throw new UsageException("--upstream is not a URL");
        }
        try {
            return ProxyConfig.builder(upstream);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--upstream: " + e.getMessage());
        }
    }

    /** {@code 'METHOD /path'} as a method and a path. */
    private static String[] route(String value) throws UsageException {
        String[] parts = value.strip().split("\\s+");
        if (parts.length != 2 || !parts[0].matches("[A-Za-z]{1,16}") || !parts[1].startsWith("/")) {
            throw new UsageException("--route must be 'METHOD /path', e.g. --route 'POST /orders'");
        }
        return new String[] {parts[0].toUpperCase(Locale.ROOT), parts[1]};
    }

    /** Starts the proxy, prints one line with its URL, and blocks until the JVM is asked to stop. */
    public static int run(Options options, PrintStream out, PrintStream err) {
        ReadyFile.delete(options.readyFile());
        FakeProxy proxy;
        try {
            proxy = FakeProxy.start(options.config());
        } catch (RuntimeException e) {
            err.println("fake-server proxy: cannot start: " + e.getMessage());
            return 1;
        }
        // Its own URL first: tools read the first http:// URL on standard output.
        return UntilStopped.run(proxy, "fake-server proxy listening on " + proxy.baseUri() + " (upstream: "
                + proxy.upstream() + "; faults: " + options.faultSource() + "; page: "
                + proxy.baseUri().resolve("/__admin/ui") + ")", proxy.baseUri(), options.readyFile(), out, err);
    }
}
