package dev.idempotent.seatgrant.server.bench;

import dev.idempotent.seatgrant.server.EmbeddedPostgresFixture;
import dev.idempotent.seatgrant.server.FaultRule;
import dev.idempotent.seatgrant.server.internal.store.DbSpec;
import dev.idempotent.seatgrant.server.internal.store.JdbcSeatStore;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server benchmark of issue 12: every server is its own process, all are driven in turn by one load generator
 * (wrk when it is installed, else {@link LoadGenerator} in its own JVM) with 64 keep-alive connections sending
 * {@code POST /v1/seats} with a fresh {@code Idempotency-Key} per request; after a warm-up, alternating rounds;
 * one table of medians. Not a test: run it with {@code ./mvnw -B -q -Pbench -pl fake-server -am verify
 * -DskipTests}; results and how to read them are in {@code docs/benchmarks.md}.
 *
 * <p>The servers: nginx returning a static 201 (when installed: the box's practical ceiling), the bare Netty
 * engine ({@link BareEngine}), WireMock standalone with a static 201 stub and no request journal, the fake-server
 * proxy in front of that nginx and WireMock standalone proxying to it (issue 23), and the fake
 * server started as the README says ({@code java -jar fake-server.jar serve}, no JVM flags) on {@code --db mem},
 * on the default file store (SQLite) holding 1,000 seats (with random keys, and again with time-ordered keys), on
 * an H2 file holding 1,000 seats ({@code --db h2:PATH}, the engine it replaced), on the default file store holding
 * 1,000,000 seats, on it while 1,000 connections are held by {@code hang-after-commit}, and on an embedded
 * PostgreSQL. Before any load, it times how long {@code serve} takes to print its "listening on" line.
 *
 * <p>Settings (system properties): {@code bench.preset} ({@code ratios}: issue 47's method, see {@link #RATIOS}),
 * {@code bench.seconds} per round (5), {@code bench.warmup} seconds at least (20),
 * {@code bench.warmupRequests} at least (100000) within {@code bench.warmupLimit} seconds (45),
 * {@code bench.rounds} (3), {@code bench.connections} (64), {@code bench.loadgen} ({@code auto}, {@code wrk} or
 * {@code java}), {@code bench.bigSeats} (1000000; 0 leaves the scale row out), {@code bench.hung} (1000; 0 leaves
 * it out), {@code bench.postgres} (true), {@code bench.starts} (5 starts of each kind; 0 leaves the start
 * times out), {@code bench.only} (a comma list of row ids to run, for a quick look; {@code startup} names the
 * start times; the proxy's comparison alone is {@code nginx,proxy,wiremock-proxy}).
 * Everything binds 127.0.0.1 and every process it starts is stopped when it ends.
 */
public final class ServerBenchmark {

    private static final Pattern LISTENING = Pattern.compile("listening on (http://\\S+)");
    private static final Pattern RESULT = Pattern.compile(
            "BENCH requests=(\\d+) duration_us=(\\d+) errors=(\\d+) p50_us=(\\d+) p99_us=(\\d+)");
    private static final Duration START_LIMIT = Duration.ofSeconds(120);

    private final Path work;
    private final Path fakeServerJar;
    private final Path wiremockJar;
    /** Preloaded stores, kept between runs: filling a million seats takes minutes, copying the file a second. */
    private final Path templates;
    /**
     * {@code bench.preset=ratios}: issue 47's method, in one setting. nginx, WireMock, {@code --db mem} and the
     * default file store only; each warmed 20 s (no request count), then 3 alternating rounds of 8 s; no start
     * times. A setting given beside it wins over the preset's.
     */
    private static final Map<String, String> RATIOS = Map.of("bench.only", "nginx,wiremock,mem,file",
            "bench.seconds", "8", "bench.warmup", "20", "bench.warmupRequests", "0", "bench.warmupLimit", "20",
            "bench.rounds", "3", "bench.starts", "0");
    private final Map<String, String> preset = presetSettings(System.getProperty("bench.preset", ""));
    private final int seconds = setting("bench.seconds", 5);
    private final int warmup = setting("bench.warmup", 20);
    private final int warmupRequests = setting("bench.warmupRequests", 100_000);
    private final int warmupLimit = setting("bench.warmupLimit", 45);
    private final int rounds = setting("bench.rounds", 3);
    private final int connections = setting("bench.connections", 64);
    private final int bigSeats = setting("bench.bigSeats", 1_000_000);
    private final int hung = setting("bench.hung", 1000);
    private final boolean postgres = Boolean.parseBoolean(System.getProperty("bench.postgres", "true"));
    private final int starts = setting("bench.starts", 5);
    private final List<String> only = List.of(System.getProperty("bench.only", preset.getOrDefault("bench.only", ""))
            .split(","));
    /** Requests each target answered, warm-ups included: a fake server's ledger must hold at least as many seats. */
    private final Map<String, Long> answered = new LinkedHashMap<>();
    private final boolean wrk;
    private final List<Target> targets = new ArrayList<>();
    private final List<Socket> hungSockets = new ArrayList<>();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    /**
     * One server under test. {@code id} names its row; {@code process} is what we started (RSS is its tree's);
     * {@code storeFile} is the database file of a fake server on a file store, else null; {@code timeOrderedKeys} sends
     * it keys that start with the time, as UUIDv7 keys do, instead of random ones.
     */
    private record Target(String id, String label, Process process, int port, Path storeFile, boolean timeOrderedKeys) {
        Target(String id, String label, Process process, int port, Path storeFile) {
            this(id, label, process, port, storeFile, false);
        }

        Target withTimeOrderedKeys() {
            return new Target(id, label, process, port, storeFile, true);
        }

        /** The store file's size in MB (with SQLite's write-ahead log beside it), or -1 when the target has none. */
        long storeFileMb() {
            if (storeFile == null) {
                return -1;
            }
            try {
                Path log = storeFile.resolveSibling(storeFile.getFileName() + "-wal");
                return (Files.size(storeFile) + (Files.exists(log) ? Files.size(log) : 0)) / (1024 * 1024);
            } catch (IOException e) {
                return -1;
            }
        }
    }

    /**
     * One load run against one target. {@code cpuUsPerRequest} is the server's CPU time (user + system, its
     * whole process tree) divided by the requests it answered: what a request costs, which a busy shared
     * machine disturbs far less than it disturbs requests per second.
     */
    private record Run(double perSecond, long p50us, long p99us, long errors, double cpuUsPerRequest) { }

    private ServerBenchmark(Path target) throws IOException {
        this.work = Files.createTempDirectory("server-bench");
        this.fakeServerJar = target.resolve("fake-server.jar");
        this.wiremockJar = target.resolve("bench").resolve("wiremock-standalone.jar");
        this.templates = target.resolve("bench").resolve("preloaded");
        String loadgen = System.getProperty("bench.loadgen", "auto");
        this.wrk = loadgen.equals("wrk") || (loadgen.equals("auto") && onPath("wrk").isPresent());
    }

    /** {@code ServerBenchmark TARGET_DIR}: the module's target directory, holding fake-server.jar and bench/. */
    public static void main(String[] args) throws Exception {
        ServerBenchmark bench = new ServerBenchmark(
                Path.of(args.length > 0 ? args[0] : "fake-server/target").toAbsolutePath());
        // Ctrl-C or a kill must not leave servers running or a gigabyte of stores in the temp directory.
        Thread cleanup = new Thread(() -> {
            bench.stopAll();
            try {
                bench.deleteWork();
            } catch (IOException ignored) {
                // best effort on the way out
            }
        }, "bench-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
            bench.run();
        } finally {
            bench.stopAll();
            bench.deleteWork();
        }
    }

    private static Map<String, String> presetSettings(String name) {
        return switch (name) {
            case "" -> Map.of();
            case "ratios" -> RATIOS;
            default -> throw new IllegalArgumentException("bench.preset: unknown preset " + name + " (ratios)");
        };
    }

    /** A setting given as a system property, else the preset's, else the default. */
    private int setting(String name, int otherwise) {
        String given = System.getProperty(name, preset.get(name));
        return given == null ? otherwise : Integer.parseInt(given);
    }

    private boolean wanted(String id) {
        return only.equals(List.of("")) || only.contains(id);
    }

    private void run() throws Exception {
        say("load generator: " + (wrk ? "wrk (1 thread)" : "LoadGenerator (a separate JVM)") + ", " + connections
                + " connections, " + warmup + " s warm-up, " + rounds + " rounds of " + seconds + " s per server");
        if (starts > 0 && wanted("startup")) {
            // First, on a machine nothing of ours loads yet.
            new StartupTimes(fakeServerJar, work.resolve("startup"), starts).run();
        }
        Optional<Path> nginx = onPath("nginx").or(() -> Optional.of(Path.of("/usr/sbin/nginx")).filter(Files::isExecutable));
        Target nginxTarget = null;
        if (nginx.isPresent() && (wanted("nginx") || wanted("proxy") || wanted("wiremock-proxy"))) {
            nginxTarget = startNginx(nginx.get());
            targets.add(nginxTarget);
        }
        if (nginxTarget == null && (wanted("proxy") || wanted("wiremock-proxy"))) {
            say("nginx is not installed: the proxy rows, which stand in front of it, are left out");
        } else if (nginxTarget != null) {
            // Both proxies in front of the same nginx, so what each adds to nginx's own answer is what is compared.
            String upstream = "http://127.0.0.1:" + nginxTarget.port();
            if (wanted("proxy")) {
                targets.add(startJava("proxy", "fake-server proxy in front of nginx", List.of("-jar",
                        fakeServerJar.toString(), "proxy", "--upstream", upstream, "--port", "0")));
            }
            if (wanted("wiremock-proxy")) {
                targets.add(startWireMock("wiremock-proxy", "WireMock standalone proxying to nginx, no journal", """
                        {"request": {"method": "POST", "urlPath": "/v1/seats"},
                         "response": {"proxyBaseUrl": "%s"}}
                        """.formatted(upstream)));
            }
        }
        if (wanted("bare")) {
            targets.add(startJava("bare", "bare Netty engine, static 201", List.of("-cp",
                    System.getProperty("java.class.path"), BareEngine.class.getName(), "0")));
        }
        if (wanted("wiremock")) {
            targets.add(startWireMock("wiremock", "WireMock standalone, static 201 stub, no journal", """
                    {"request": {"method": "POST", "urlPath": "/v1/seats"},
                     "response": {"status": 201, "headers": {"Content-Type": "application/json"}, "body": %s}}
                    """.formatted(jsonString(BareEngine.SEAT_JSON))));
        }
        if (wanted("mem")) {
            targets.add(startFakeServer("mem", "fake-server --db mem", "mem"));
        }
        String engine = DbSpec.DEFAULT_ENGINE == DbSpec.Kind.SQLITE ? "SQLite" : "H2";
        if (wanted("file")) {
            String small = preload("file-1k", DbSpec.DEFAULT_ENGINE, 1_000);
            targets.add(startFakeServer("file", "fake-server, " + engine + " file, 1k seats", small));
        }
        if (wanted("file-h2")) {
            // The engine the default was before, on the same seats and load: the comparison that chose the default.
            String h2 = preload("file-h2", DbSpec.Kind.H2, 1_000);
            targets.add(startFakeServer("file-h2", "fake-server, H2 file (h2:PATH), 1k seats", h2));
        }
        if (wanted("file-ordered")) {
            // The same server and store as "file"; only the keys differ. What this row gains over that one is
            // what the random key index costs (docs/benchmarks.md).
            String ordered = preload("file-ordered", DbSpec.DEFAULT_ENGINE, 1_000);
            targets.add(startFakeServer("file-ordered", "fake-server, " + engine + " file, 1k seats, time-ordered keys",
                    ordered).withTimeOrderedKeys());
        }
        if (bigSeats > 0 && wanted("file-big")) {
            String big = preload("file-big", DbSpec.DEFAULT_ENGINE, bigSeats);
            targets.add(startFakeServer("file-big", String.format(Locale.ROOT, "fake-server, %s file, %,d seats",
                    engine, bigSeats), big));
        }
        Target hungTarget = null;
        if (hung > 0 && wanted("file-hung")) {
            hungTarget = startFakeServer("file-hung", String.format(Locale.ROOT,
                    "fake-server, %s file, %,d hung connections", engine, hung),
                    work.resolve("file-hung").resolve("seats").toString());
            targets.add(hungTarget);
        }
        if (postgres && wanted("postgres")) {
            // zonky starts PostgreSQL with synchronous_commit=off; a grant here is measured as durable as on a
            // production server, with each commit's WAL flushed before the answer.
            String url = EmbeddedPostgresFixture.newDatabase() + "&options=-c%20synchronous_commit%3Don";
            targets.add(startFakeServer("postgres", "fake-server, embedded PostgreSQL", url));
        }

        Map<String, Long> seatsBefore = new LinkedHashMap<>();
        for (Target t : targets) {
            if (t.id().equals("mem") || t.id().equals("file")) {
                seatsBefore.put(t.id(), ledgerSeats(t));
            }
            warmUp(t);
        }
        if (hungTarget != null) {
            // After the warm-ups, so that a hang's 10-minute bound (the most a fault plan allows) covers the rounds.
            hang(hungTarget);
        }
        Map<String, List<Run>> runs = new LinkedHashMap<>();
        Map<String, Long> rss = new LinkedHashMap<>();
        Map<String, Long> threads = new LinkedHashMap<>();
        for (int round = 1; round <= rounds; round++) {
            for (Target t : targets) {
                long othersBefore = othersCpuTicks(t);
                long started = System.nanoTime();
                Run r = load(t, seconds, "r" + round);
                // The idle servers are not always idle (a JIT still compiling, H2's background work); what they
                // took from the two cores while this one was measured is printed beside its numbers.
                double othersCores = (othersCpuTicks(t) - othersBefore) / (double) TICKS_PER_SECOND
                        / ((System.nanoTime() - started) / 1e9);
                runs.computeIfAbsent(t.id(), k -> new ArrayList<>()).add(r);
                rss.merge(t.id(), rssKb(t.process()), Math::max);
                threads.merge(t.id(), threadCount(t.process()), Math::max);
                say(String.format(Locale.ROOT, "round %d %-50s %8.0f req/s  p50 %6.2f ms  p99 %7.2f ms  errors %d"
                                + "  CPU %5.0f us/req  others %.2f cores%s", round, t.label(), r.perSecond(),
                        r.p50us() / 1000.0, r.p99us() / 1000.0, r.errors(), r.cpuUsPerRequest(), othersCores,
                        t.storeFile() == null ? "" : "  file " + t.storeFileMb() + " MB"));
            }
        }
        Map<String, long[]> ledger = new LinkedHashMap<>();
        for (Target t : targets) {
            if (t.id().equals("mem") || t.id().equals("file")) {
                // Seats the grants of the runs wrote: the ledger's count less what it held before them.
                long seats = ledgerHead(t);
                ledger.put(t.id(), new long[] {seats < 0 ? -1 : seats - seatsBefore.get(t.id()), answered.get(t.id())});
            }
        }
        print(runs, rss, threads, ledger);
        if (!hungSockets.isEmpty()) {
            System.out.printf(Locale.ROOT, "- hung connections the server still held open after the last round: %d of %d%n",
                    stillHeld(), hungSockets.size());
        }
    }

    /** How many hung connections are still open: the server has neither answered nor closed them. */
    private long stillHeld() {
        long open = 0;
        for (Socket s : hungSockets) {
            try {
                s.setSoTimeout(1);
                if (s.getInputStream().read() >= 0) {
                    continue; // it answered after all
                }
            } catch (java.net.SocketTimeoutException e) {
                open++; // nothing to read and not closed: still hung
            } catch (IOException e) {
                // reset: not held
            }
        }
        return open;
    }

    // ------------------------------------------------------------------ the table

    private void print(Map<String, List<Run>> runs, Map<String, Long> rss, Map<String, Long> threads,
            Map<String, long[]> ledger) {
        if (runs.isEmpty()) {
            return;
        }
        Map<String, Run> median = new LinkedHashMap<>();
        runs.forEach((id, list) -> median.put(id, median(list)));
        System.out.println();
        System.out.printf(Locale.ROOT, "java %s, %d cores, %s, %d connections, median of %d rounds of %d s%n%n",
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(),
                wrk ? "wrk -t1" : "LoadGenerator", connections, rounds, seconds);
        System.out.println("| server | requests/s | p50 ms | p99 ms | errors | RSS MB | threads | server CPU µs/req"
                + " | store file MB | × WireMock | × bare engine |");
        System.out.println("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        Run wiremock = median.get("wiremock");
        Run bare = median.get("bare");
        for (Target t : targets) {
            Run r = median.get(t.id());
            System.out.printf(Locale.ROOT, "| %s | %.0f | %.2f | %.2f | %d | %d | %d | %.0f | %s | %s | %s |%n",
                    t.label(), r.perSecond(), r.p50us() / 1000.0, r.p99us() / 1000.0, r.errors(),
                    rss.get(t.id()) / 1024, threads.get(t.id()), medianCpu(runs.get(t.id())),
                    t.storeFile() == null ? "-" : String.valueOf(t.storeFileMb()), ratio(r, wiremock), ratio(r, bare));
        }
        System.out.println();
        System.out.println("Goals (issue 47; the million-seat and proxy ones from issues 12, 23 and 25):");
        if (wiremock != null && median.containsKey("nginx")) {
            System.out.printf(Locale.ROOT, "- nginx, static 201 (the box's ceiling): %.2fx WireMock%n",
                    median.get("nginx").perSecond() / wiremock.perSecond());
        }
        goal("--db mem >= 1.5x WireMock", median.get("mem"), wiremock, 1.5);
        p99Goal("mem", median.get("mem"), wiremock, 1.5);
        goal("the default file store (SQLite), random keys, >= 1.0x WireMock", median.get("file"), wiremock, 1.0);
        p99Goal("file", median.get("file"), wiremock, 1.5);
        p99Goal("file-big", median.get("file-big"), wiremock, 3);
        ledger.forEach((id, seatsAndAnswers) -> System.out.printf(Locale.ROOT,
                "- every grant %s answered is in its ledger: %,d seats written, %,d answers: %s%n", id,
                seatsAndAnswers[0], seatsAndAnswers[1], seatsAndAnswers[0] < 0 ? "not read (see above)"
                        : seatsAndAnswers[0] >= seatsAndAnswers[1] ? "met" : "NOT met"));
        if (median.containsKey("file") && median.containsKey("file-h2")) {
            Run h2 = median.get("file-h2");
            Run file = median.get("file");
            System.out.printf(Locale.ROOT, "- the default file store against H2 on the same seats and load: %.2fx its"
                    + " requests/s, %.2fx its CPU per request, %.2fx its p99%n", file.perSecond() / h2.perSecond(),
                    medianCpu(runs.get("file")) / medianCpu(runs.get("file-h2")), (double) file.p99us() / h2.p99us());
        }
        if (wiremock != null && median.containsKey("file") && median.containsKey("file-ordered")) {
            Run ordered = median.get("file-ordered");
            System.out.printf(Locale.ROOT, "- the same file store with time-ordered keys: %.2fx WireMock,"
                    + " %.2fx its rate with random keys%n", ordered.perSecond() / wiremock.perSecond(),
                    ordered.perSecond() / median.get("file").perSecond());
        }
        if (median.containsKey("file") && median.containsKey("file-big")) {
            double growth = (double) median.get("file-big").p99us() / median.get("file").p99us();
            System.out.printf(Locale.ROOT, "- p99 at %,d seats / p99 at 1k seats = %.2f (goal <= 1.5): %s%n", bigSeats,
                    growth, growth <= 1.5 ? "met" : "NOT met");
            long mb = rss.get("file-big") / 1024;
            System.out.printf(Locale.ROOT, "- RSS at %,d seats = %d MB (goal <= 512): %s%n", bigSeats, mb,
                    mb <= 512 ? "met" : "NOT met");
        }
        if (median.containsKey("file") && median.containsKey("file-hung")) {
            double cost = (double) median.get("file-hung").p99us() / median.get("file").p99us();
            System.out.printf(Locale.ROOT, "- p99 with %,d hung connections / p99 without = %.2f (goal <= 2.0): %s;"
                            + " threads %d with them, %d without%n", hung, cost, cost <= 2.0 ? "met" : "NOT met",
                    threads.get("file-hung"), threads.get("file"));
        }
        if (bare != null && median.containsKey("file")) {
            System.out.printf(Locale.ROOT, "- the full durable grant path runs at %.2fx the bare engine's ceiling"
                    + " (in memory %.2fx)%n", median.get("file").perSecond() / bare.perSecond(),
                    median.containsKey("mem") ? median.get("mem").perSecond() / bare.perSecond() : Double.NaN);
        }
        if (median.containsKey("proxy") && median.containsKey("wiremock-proxy")) {
            // Issue 23: the proxy in front of nginx against WireMock proxying to the same nginx, and against nginx.
            goal("fake-server proxy >= 1.0x WireMock proxying (both in front of nginx)", median.get("proxy"),
                    median.get("wiremock-proxy"), 1.0);
        }
        if (median.containsKey("proxy") && median.containsKey("nginx")) {
            Run proxied = median.get("proxy");
            Run direct = median.get("nginx");
            System.out.printf(Locale.ROOT, "- through the fake-server proxy nginx answers at %.2fx its direct rate"
                            + " (p50 %.2f ms vs %.2f ms; the proxy's own CPU %.0f us/req)%n",
                    proxied.perSecond() / direct.perSecond(), proxied.p50us() / 1000.0, direct.p50us() / 1000.0,
                    medianCpu(runs.get("proxy")));
        }
        if (median.containsKey("wiremock-proxy") && median.containsKey("nginx")) {
            System.out.printf(Locale.ROOT, "- through WireMock's proxying nginx answers at %.2fx its direct rate"
                            + " (WireMock's own CPU %.0f us/req)%n",
                    median.get("wiremock-proxy").perSecond() / median.get("nginx").perSecond(),
                    medianCpu(runs.get("wiremock-proxy")));
        }
        if (median.containsKey("nginx") && bare != null) {
            System.out.printf(Locale.ROOT, "- the bare engine runs at %.2fx nginx%n",
                    bare.perSecond() / median.get("nginx").perSecond());
        }
    }

    private static void goal(String what, Run r, Run base, double goal) {
        if (r == null || base == null) {
            return;
        }
        double x = r.perSecond() / base.perSecond();
        System.out.printf(Locale.ROOT, "- %s: %.2fx: %s%n", what, x, x >= goal ? "met" : "NOT met");
    }

    private static void p99Goal(String id, Run r, Run wiremock, double goal) {
        if (r == null || wiremock == null) {
            return;
        }
        double x = (double) r.p99us() / wiremock.p99us();
        System.out.printf(Locale.ROOT, "- p99 of %s / WireMock's p99 = %.2f (%.2f vs %.2f ms; goal <= %s): %s%n", id, x,
                r.p99us() / 1000.0, wiremock.p99us() / 1000.0, goal, x <= goal ? "met" : "NOT met");
    }

    private static String ratio(Run r, Run base) {
        return base == null ? "-" : String.format(Locale.ROOT, "%.2f", r.perSecond() / base.perSecond());
    }

    private static double medianCpu(List<Run> list) {
        double[] cpu = list.stream().mapToDouble(Run::cpuUsPerRequest).sorted().toArray();
        return cpu[cpu.length / 2];
    }

    /** The round with the median throughput; its latencies come with it, so a row is one real round. */
    private static Run median(List<Run> list) {
        List<Run> sorted = new ArrayList<>(list);
        sorted.sort(Comparator.comparingDouble(Run::perSecond));
        return sorted.get(sorted.size() / 2);
    }

    // ------------------------------------------------------------------ load

    /**
     * Warms a server until it has answered {@link #warmupRequests} requests, and for at least {@link #warmup}
     * seconds, bounded by {@link #warmupLimit} seconds: the JIT compiles after enough calls, not after enough
     * seconds, and on a busy machine ten seconds may be a few thousand requests.
     */
    private void warmUp(Target t) throws Exception {
        long requests = 0;
        int spent = 0;
        int part = 0;
        while (spent < warmupLimit && (spent < warmup || requests < warmupRequests)) {
            int slice = Math.min(5, warmupLimit - spent);
            Run r = load(t, slice, "warm" + part++);
            requests += Math.round(r.perSecond() * slice);
            spent += slice;
        }
        say(String.format(Locale.ROOT, "warmed %s: %,d requests in %d s", t.label(), requests, spent));
    }

    private Run load(Target t, int durationSeconds, String round) throws Exception {
        String prefix = t.id() + "-" + round;
        String keyOrder = t.timeOrderedKeys() ? "time" : "random";
        List<String> command;
        if (wrk) {
            Path script = work.resolve("grant.lua");
            if (!Files.exists(script)) {
                Files.writeString(script, WRK_SCRIPT);
            }
            command = List.of("wrk", "-t1", "-c" + connections, "-d" + durationSeconds + "s", "--timeout", "10s",
                    "-s", script.toString(), "http://127.0.0.1:" + t.port() + "/v1/seats", "--", prefix, keyOrder);
        } else {
            command = List.of(java(), "-cp", System.getProperty("java.class.path"), LoadGenerator.class.getName(),
                    "127.0.0.1", String.valueOf(t.port()), String.valueOf(durationSeconds),
                    String.valueOf(connections), prefix, keyOrder);
        }
        long cpuBefore = cpuTicks(t.process());
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(durationSeconds + 60L, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("the load generator did not finish");
        }
        Matcher m = RESULT.matcher(out);
        if (!m.find()) {
            throw new IllegalStateException("the load generator printed no result:\n" + out);
        }
        long cpuUs = (cpuTicks(t.process()) - cpuBefore) * 1_000_000L / TICKS_PER_SECOND;
        long requests = Long.parseLong(m.group(1));
        answered.merge(t.id(), requests - Long.parseLong(m.group(3)), Long::sum);
        double secondsTaken = Long.parseLong(m.group(2)) / 1e6;
        return new Run(requests / secondsTaken, Long.parseLong(m.group(4)), Long.parseLong(m.group(5)),
                Long.parseLong(m.group(3)), requests == 0 ? 0 : (double) cpuUs / requests);
    }

    /**
     * wrk, one thread: a fresh key per request, random first or time first as {@link LoadGenerator#key} makes
     * them (Lua's clock counts seconds; the counter orders the keys within one), and one result line in the
     * format LoadGenerator prints.
     */
    private static final String WRK_SCRIPT = """
            local prefix = "k"
            local timeOrdered = false
            local counter = 0
            local body = '%s'
            function init(args)
              prefix = args[1] or "k"
              timeOrdered = args[2] == "time"
              math.randomseed(os.time() + #prefix)
            end
            function request()
              counter = counter + 1
              local key
              if timeOrdered then
                key = string.format("%%010d-%%010d-%%08x-%%s", os.time(), counter, math.random(0, 2147483647), prefix)
              else
                key = string.format("%%08x%%08x-%%s-%%d", math.random(0, 2147483647), math.random(0, 2147483647),
                  prefix, counter)
              end
              return wrk.format("POST", "/v1/seats", {["Content-Type"] = "application/json",
                ["Idempotency-Key"] = key}, body)
            end
            function done(summary, latency, requests)
              local e = summary.errors
              io.write(string.format("BENCH requests=%%d duration_us=%%d errors=%%d p50_us=%%d p99_us=%%d\\n",
                summary.requests, summary.duration, e.connect + e.read + e.write + e.status + e.timeout,
                latency:percentile(50), latency:percentile(99)))
            end
            """.formatted(LoadGenerator.BODY);

    // ------------------------------------------------------------------ servers

    private Target startFakeServer(String id, String label, String db) throws Exception {
        Target t = startJava(id, label, List.of("-jar", fakeServerJar.toString(), "serve", "--port", "0", "--db", db));
        Path file = DbSpec.parse(db).storeFile(); // the server reads --db the same way
        if (file == null) {
            return t;
        }
        return new Target(t.id(), t.label(), t.process(), t.port(), file);
    }

    /** Starts {@code java ARGS} (no JVM flags of ours) and waits for its "listening on" line. */
    private Target startJava(String id, String label, List<String> args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(java());
        command.addAll(args);
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectError(work.resolve(id + ".stderr.log").toFile());
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        builder.environment().remove("JDK_JAVA_OPTIONS");
        say("starting " + label);
        Process p = builder.start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = CompletableFuture.supplyAsync(() -> {
            try {
                return out.readLine();
            } catch (IOException e) {
                return null;
            }
        }).get(START_LIMIT.toSeconds(), TimeUnit.SECONDS);
        Matcher m = line == null ? null : LISTENING.matcher(line);
        if (m == null || !m.find()) {
            p.destroyForcibly();
            throw new IllegalStateException(label + " did not start; see " + work.resolve(id + ".stderr.log"));
        }
        // Keep draining stdout so a chatty server never blocks on a full pipe.
        Thread drain = new Thread(() -> {
            try {
                out.transferTo(Writer.nullWriter());
            } catch (IOException ignored) {
                // the process ended
            }
        }, "drain-" + id);
        drain.setDaemon(true);
        drain.start();
        // A Java server prints its line once it listens (the fake server: once its store is open too).
        return new Target(id, label, p, URI.create(m.group(1)).getPort(), null);
    }

    /** WireMock standalone, with no request journal, serving the one {@code mapping} given. */
    private Target startWireMock(String id, String label, String mapping) throws Exception {
        if (!Files.exists(wiremockJar)) {
            throw new IllegalStateException(wiremockJar + " is missing: run the benchmark through the bench profile,"
                    + " which copies it there");
        }
        Path root = work.resolve(id);
        Files.createDirectories(root.resolve("mappings"));
        Files.createDirectories(root.resolve("__files"));
        Files.writeString(root.resolve("mappings").resolve("seat.json"), mapping);
        int port = freePort();
        List<String> command = List.of(java(), "-jar", wiremockJar.toString(), "--port", String.valueOf(port),
                "--bind-address", "127.0.0.1", "--root-dir", root.toString(), "--no-request-journal",
                "--disable-banner");
        say("starting " + label);
        Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(work.resolve(id + ".log").toFile()).start();
        Target t = new Target(id, label, p, port, null);
        awaitGrant(t);
        return t;
    }

    private Target startNginx(Path nginx) throws Exception {
        Path prefix = work.resolve("nginx");
        Files.createDirectories(prefix.resolve("logs"));
        int port = freePort();
        Path conf = prefix.resolve("nginx.conf");
        Files.writeString(conf, """
                daemon off;
                worker_processes auto;
                pid %1$s/nginx.pid;
                error_log %1$s/logs/error.log error;
                events { worker_connections 4096; }
                http {
                  access_log off;
                  keepalive_requests 100000000;
                  client_body_temp_path %1$s/body;
                  server {
                    listen 127.0.0.1:%2$d;
                    location /v1/seats {
                      default_type application/json;
                      return 201 '%3$s';
                    }
                  }
                }
                """.formatted(prefix, port, BareEngine.SEAT_JSON));
        say("starting nginx");
        Process p = new ProcessBuilder(nginx.toString(), "-p", prefix.toString(), "-c", conf.toString())
                .redirectErrorStream(true).redirectOutput(prefix.resolve("logs").resolve("stdout.log").toFile()).start();
        Target t = new Target("nginx", "nginx, static 201", p, port, null);
        awaitGrant(t);
        return t;
    }

    /** Waits, bounded, until the target answers a keyed grant with a 2xx. */
    private void awaitGrant(Target t) throws Exception {
        long deadline = System.nanoTime() + START_LIMIT.toNanos();
        HttpRequest grant = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + t.port() + "/v1/seats"))
                .timeout(Duration.ofSeconds(5)).header("Content-Type", "application/json")
                .header("Idempotency-Key", "ready-" + t.id()).POST(HttpRequest.BodyPublishers.ofString(LoadGenerator.BODY))
                .build();
        while (System.nanoTime() < deadline) {
            if (!t.process().isAlive()) {
                throw new IllegalStateException(t.label() + " exited; see the logs in " + work);
            }
            try {
                int status = http.send(grant, HttpResponse.BodyHandlers.discarding()).statusCode();
                if (status / 100 == 2 || status == 409) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException(t.label() + " never answered a grant");
    }

    private static final Pattern LEDGER_SEATS = Pattern.compile("\"seats\"\\s*:\\s*(\\d+)");

    /** The seats in a fake server's ledger. */
    private long ledgerSeats(Target t) throws Exception {
        HttpRequest ledger = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + t.port() + "/__admin/ledger"))
                .timeout(Duration.ofSeconds(10)).build();
        Matcher m = LEDGER_SEATS.matcher(http.send(ledger, HttpResponse.BodyHandlers.ofString()).body());
        if (!m.find()) {
            throw new IllegalStateException("the ledger named no seat count");
        }
        return Long.parseLong(m.group(1));
    }

    /**
     * The seats in a fake server's ledger, read from the start of its answer only: after a run the ledger lists
     * every seat of the load's one user as duplicates, tens of megabytes. -1, said, when it names no count.
     */
    private long ledgerHead(Target t) throws Exception {
        HttpRequest ledger = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + t.port() + "/__admin/ledger"))
                .timeout(Duration.ofSeconds(60)).build();
        HttpResponse<java.io.InputStream> answer = http.send(ledger, HttpResponse.BodyHandlers.ofInputStream());
        String head;
        try (java.io.InputStream body = answer.body()) {
            head = new String(body.readNBytes(200), StandardCharsets.UTF_8);
        }
        Matcher m = LEDGER_SEATS.matcher(head);
        if (answer.statusCode() == 200 && m.find()) {
            return Long.parseLong(m.group(1));
        }
        say("the ledger of " + t.label() + " answered " + answer.statusCode() + ": " + head);
        return -1;
    }

    /**
     * Installs a plan that hangs the next {@link #hung} grants after their commits, opens as many connections that
     * each send one, and waits for their seats.
     */
    private void hang(Target t) throws Exception {
        String plan = "{\"rules\": [{\"method\": \"POST\", \"path\": \"/v1/seats\", \"fault\": \"hang-after-commit\","
                + " \"times\": " + hung + ", \"delayMs\": " + FaultRule.MAX_DELAY_MS + "}]}";
        HttpResponse<String> installed = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + t.port() + "/__admin/faults"))
                .timeout(Duration.ofSeconds(10)).POST(HttpRequest.BodyPublishers.ofString(plan)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (installed.statusCode() != 200) {
            throw new IllegalStateException("the hang plan was refused: " + installed.body());
        }
        long before = ledgerSeats(t);
        byte[] body = LoadGenerator.BODY.getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < hung; i++) {
            Socket s = new Socket();
            s.connect(new InetSocketAddress("127.0.0.1", t.port()), 10_000);
            OutputStream out = s.getOutputStream();
            out.write(("POST /v1/seats HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + body.length + "\r\nIdempotency-Key: hung-" + i + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            hungSockets.add(s);
        }
        long deadline = System.nanoTime() + START_LIMIT.toNanos();
        while (System.nanoTime() < deadline) {
            if (ledgerSeats(t) >= before + hung) {
                say(hung + " connections hung after their commits");
                return;
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the hung grants never committed");
    }

    /**
     * Fills an H2 file store with {@code seats} completed keys and their seats, straight through JDBC in large
     * transactions (a million keyed POSTs would take minutes; the rows are the same ones a grant writes).
     */
    /**
     * A store of {@code kind} in {@code work/dir/} holding {@code seats} seats, copied from a kept template when
     * there is one; returns its {@code --db} value.
     */
    private String preload(String dir, DbSpec.Kind kind, int seats) throws Exception {
        String db = kind.name().toLowerCase(Locale.ROOT) + ":" + work.resolve(dir).resolve("seats");
        DbSpec spec = DbSpec.parse(db);
        Files.createDirectories(spec.file().getParent());
        Path template = templates.resolve("seats-" + seats + kind.extension());
        if (Files.exists(template)) {
            Files.copy(template, spec.storeFile());
            say(String.format(Locale.ROOT, "copied %,d preloaded seats from %s", seats, template));
            return db;
        }
        fill(spec, seats);
        Files.createDirectories(templates);
        Files.copy(spec.storeFile(), template);
        return db;
    }

    private void fill(DbSpec spec, int seats) throws Exception {
        JdbcSeatStore.open(spec, 1).close();
        long t0 = System.nanoTime();
        // Keys shaped like UUIDs (random), but inserted in sorted order, with seat ids and user ids that sort the
        // same way: every index then grows at its right edge and the file stays compact. Random-order inserts
        // made MVStore write gigabytes for a million rows; the finished indexes hold the same rows either way.
        java.util.Random random = new java.util.Random(seats);
        String[] keys = new String[seats];
        for (int i = 0; i < seats; i++) {
            keys[i] = String.format(Locale.ROOT, "%016x%016x", random.nextLong(), random.nextLong());
        }
        java.util.Arrays.sort(keys);
        long then = System.currentTimeMillis() - 86_400_000L - seats;
        try (Connection c = DriverManager.getConnection(spec.jdbcUrl());
             PreparedStatement key = c.prepareStatement("INSERT INTO idempotency_keys"
                     + " (idem_key, request_hash, state, owner, lease_until, seat_id, created_at)"
                     + " VALUES (?, 'preloaded', 'COMPLETED', NULL, ?, ?, ?)");
             PreparedStatement seat = c.prepareStatement("INSERT INTO seats"
                     + " (id, workspace_id, user_id, role, created_at, idempotency_key) VALUES (?, 'ws_bulk', ?, 'member', ?, ?)")) {
            c.setAutoCommit(false);
            for (int i = 0; i < seats; i++) {
                String id = String.format(Locale.ROOT, "seat_%016x%016x", (then + i) << 16, random.nextLong());
                key.setString(1, keys[i]);
                key.setLong(2, then + i);
                key.setString(3, id);
                key.setLong(4, then + i);
                key.addBatch();
                seat.setString(1, id);
                seat.setString(2, "user_" + keys[i].substring(0, 12));
                seat.setLong(3, then + i);
                seat.setString(4, keys[i]);
                seat.addBatch();
                if (i % 1000 == 999 || i == seats - 1) {
                    key.executeBatch();
                    seat.executeBatch();
                }
                if (i % 50_000 == 49_999 || i == seats - 1) {
                    c.commit();
                }
            }
            try (java.sql.Statement s = c.createStatement()) {
                if (spec.kind() == DbSpec.Kind.H2) {
                    // Bulk loading leaves most of the file as chunks of superseded pages, which H2 would then
                    // compact during the measured rounds; a server that has run for a while has compacted them.
                    s.execute("SHUTDOWN COMPACT");
                } else {
                    // Everything into the database file, so the template is that one file.
                    c.setAutoCommit(true);
                    s.execute("PRAGMA wal_checkpoint(TRUNCATE)");
                }
            }
        }
        say(String.format(Locale.ROOT, "preloaded %,d seats into %s in %.0f s", seats, spec.storeFile(),
                (System.nanoTime() - t0) / 1e9));
    }

    // ------------------------------------------------------------------ plumbing

    private void stopAll() {
        for (Socket s : hungSockets) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        for (Target t : targets) {
            // The parent first: an nginx master whose worker is killed starts a new one, which then outlives it.
            List<ProcessHandle> children = t.process().descendants().toList();
            t.process().destroyForcibly();
            children.forEach(ProcessHandle::destroyForcibly);
        }
    }

    private void deleteWork() throws IOException {
        try (var paths = Files.walk(work)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** The resident set of a process and its children (nginx's workers), in KiB, read from /proc. */
    private static long rssKb(Process p) {
        long total = statusField(p.pid(), "VmRSS:");
        for (ProcessHandle child : p.descendants().toList()) {
            total += statusField(child.pid(), "VmRSS:");
        }
        return total;
    }

    /** Linux's USER_HZ: /proc reports CPU time in these ticks (100 on every mainstream kernel build). */
    private static final long TICKS_PER_SECOND = 100;

    /** The CPU ticks of every started server but {@code measured}. */
    private long othersCpuTicks(Target measured) {
        long total = 0;
        for (Target other : targets) {
            if (other != measured) {
                total += cpuTicks(other.process());
            }
        }
        return total;
    }

    /** User plus system CPU time of a process and its children, in ticks, from /proc/PID/stat. */
    private static long cpuTicks(Process p) {
        long total = cpuTicks(p.pid());
        for (ProcessHandle child : p.descendants().toList()) {
            total += cpuTicks(child.pid());
        }
        return total;
    }

    private static long cpuTicks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
            // Fields after the command name, which is in parentheses and may hold spaces: state is field 3,
            // utime 14 and stime 15.
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** Threads of the process and its children (the fake server's own-heap child, nginx's workers). */
    private static long threadCount(Process p) {
        long total = statusField(p.pid(), "Threads:");
        for (ProcessHandle child : p.descendants().toList()) {
            total += statusField(child.pid(), "Threads:");
        }
        return total;
    }

    private static long statusField(long pid, String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(pid), "status"))) {
                if (line.startsWith(field)) {
                    return Long.parseLong(line.substring(field.length()).replace("kB", "").strip());
                }
            }
        } catch (IOException | NumberFormatException e) {
            // not Linux, or the process is gone: report 0 rather than fail the run
        }
        return 0;
    }

    private static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    private static Optional<Path> onPath(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(dir, program);
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static String jsonString(String raw) {
        return "\"" + raw.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static void say(String line) {
        System.out.println("[bench] " + line);
        System.out.flush();
    }
}
