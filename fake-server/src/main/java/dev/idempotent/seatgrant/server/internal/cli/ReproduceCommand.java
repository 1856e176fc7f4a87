package dev.idempotent.seatgrant.server.internal.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idempotent.seatgrant.server.FaultPlan;
import dev.idempotent.seatgrant.server.lab.IncidentLab;
import dev.idempotent.seatgrant.server.lab.VariantResult;
import dev.idempotent.seatgrant.worker.variants.Variant;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code fake-server reproduce}: runs the incident lab and prints one table (or JSON). Exit codes: 0 when the lab
 * shows what it should (the fixture duplicates; the minimal patch and the answer key hold one seat per grant and
 * lose no event), 1 when it does not, 2 on a bad command line.
 */
public final class ReproduceCommand {

    public static final String USAGE = """
            usage: fake-server reproduce [flags]
              --events N          events in the batch (default 20)
              --variant NAME      a worker variant to run; repeat for several (default: all, in this order)
                                  %s
              --scenario NAME     the fault plan: incident, reset, flaky (default incident)
              --seed N            decides twin deliveries, lost acks and random faults (default 7)
              --server URL        use a running fake server (its data is reset!) instead of embedded ones;
                                  its admin token, if any, from FAKE_SERVER_ADMIN_TOKEN
              --json              print {"variants": [...]} instead of the table
              --help              this text
            """.formatted(String.join(", ", Variant.cliNames()));

    private static final long PROGRESS_EVERY_SECONDS = 2;

    private ReproduceCommand() {
    }

    /** What {@code reproduce}'s flags ask for; {@code help} short-circuits everything else. */
    public record Options(boolean help, IncidentLab.Settings settings, boolean json) { }

    /**
     * Reads {@code reproduce}'s flags.
     *
     * @param tokenFromEnv the admin token for {@code --server}; nullable
     * @throws UsageException naming the first bad flag
     */
    public static Options parse(List<String> args, String tokenFromEnv) throws UsageException {
        int events = 20;
        List<Variant> variants = new ArrayList<>();
        String scenario = "incident";
        long seed = 7;
        URI server = null;
        boolean json = false;
        Deque<String> queue = Flags.tokens(args);
        while (!queue.isEmpty()) {
            String flag = queue.poll();
            switch (flag) {
                case "--help", "-h" -> {
                    return new Options(true, null, false);
                }
                case "--events" -> {
                    events = number(Flags.value(queue, flag), flag);
                    if (events < 1 || events > 10_000) {
                        throw new UsageException("--events must be from 1 to 10000");
                    }
                }
                case "--variant" -> {
                    String name = Flags.value(queue, flag);
                    Variant variant = Variant.byName(name).orElseThrow(() -> new UsageException(
                            "--variant: unknown variant; known: " + String.join(", ", Variant.cliNames())));
                    if (!variants.contains(variant)) {
                        variants.add(variant);
                    }
                }
                case "--scenario" -> {
                    scenario = Flags.value(queue, flag);
                    if (!FaultPlan.SCENARIOS.contains(scenario)) {
                        throw new UsageException("--scenario: unknown scenario; known: "
                                + String.join(", ", FaultPlan.SCENARIOS));
                    }
                }
                case "--seed" -> {
                    try {
                        seed = Long.parseLong(Flags.value(queue, flag));
                    } catch (NumberFormatException e) {
                        throw new UsageException("--seed must be a whole number");
                    }
                }
                case "--server" -> server = serverUri(Flags.value(queue, flag));
                case "--json" -> json = true;
                default -> throw new UsageException(flag.startsWith("-")
                        ? Flags.unknownFlag(flag) : "unexpected argument (reproduce takes only flags)");
            }
        }
        if (variants.isEmpty()) {
            variants.addAll(Arrays.asList(Variant.values()));
        }
        String token = tokenFromEnv == null || tokenFromEnv.isBlank() ? null : tokenFromEnv;
        return new Options(false, new IncidentLab.Settings(events, variants, scenario, seed, server, token), json);
    }

    /** Runs the lab and prints the result; returns the exit code. */
    public static int run(Options options, PrintStream out, PrintStream err) {
        quietWorkers();
        IncidentLab lab = new IncidentLab(options.settings());
        try {
            // Before the page's URL is printed: a URL to a server that is down only sends the user there.
            lab.checkServer();
        } catch (IOException e) {
            err.println("fake-server reproduce: " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("fake-server reproduce: interrupted");
            return 1;
        }
        int total = options.settings().variants().size();
        AtomicInteger done = new AtomicInteger();
        long started = System.nanoTime();
        ScheduledExecutorService progress = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "reproduce-progress");
            t.setDaemon(true);
            return t;
        });
        progress.scheduleAtFixedRate(() -> err.printf(Locale.ROOT, "reproduce: %d of %d variants done after %d s%n",
                        done.get(), total, TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started)),
                PROGRESS_EVERY_SECONDS, PROGRESS_EVERY_SECONDS, TimeUnit.SECONDS);
        if (options.settings().server() != null) {
            err.println("reproduce: watch it live at " + pageOf(options.settings().server()));
        }
        List<VariantResult> rows;
        try {
            rows = lab.run(row -> done.incrementAndGet());
        } catch (IOException e) {
            // The JDK's connect failures carry no message; the class name is the useful part, and neither names
            // the server's URL.
            err.println("fake-server reproduce: cannot drive the server: "
                    + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
            return 1;
        } catch (RuntimeException e) {
            err.println("fake-server reproduce: the lab failed: " + e.getClass().getSimpleName());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("fake-server reproduce: interrupted");
            return 1;
        } finally {
            progress.shutdownNow();
        }
        if (options.json()) {
            out.println(json(options.settings(), lab, rows));
        } else {
            out.print(table(options.settings(), lab, rows));
        }
        return rows.stream().allMatch(VariantResult::asExpected) ? 0 : 1;
    }

    static String table(IncidentLab.Settings settings, IncidentLab lab, List<VariantResult> rows) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT,
                "Incident lab: %d events, scenario %s, seed %d. The bus delivered %d of them twice at once;%n"
                        + "a worker restart lost the ack of %d. Worker backoff ran %dx faster than asked.%n%n",
                settings.events(), settings.scenario(), settings.seed(), lab.twinCount(), lab.inFlightCount(),
                IncidentLab.BACKOFF_SPEEDUP));
        String format = "%-15s %6s %6s %6s %10s %6s  %-15s  %s%n";
        out.append(String.format(Locale.ROOT, format,
                "variant", "events", "POSTs", "seats", "duplicates", "failed", "verdict", "which fault did it"));
        for (VariantResult r : rows) {
            out.append(String.format(Locale.ROOT, format, r.variant().cliName(), r.events(), r.posts(), r.seats(),
                    r.duplicates(), r.failed(), r.verdict().words() + (r.asExpected() ? "" : " (!)"), r.causes()));
        }
        boolean ok = rows.stream().allMatch(VariantResult::asExpected);
        out.append(System.lineSeparator()).append(ok
                ? asExpected(rows)
                : "Not as expected: a row marked (!) did not show what its variant is here to show.");
        out.append(System.lineSeparator());
        return out.toString();
    }

    /** The closing line of a run that went as expected, claiming only what the rows in the table show. */
    private static String asExpected(List<VariantResult> rows) {
        List<String> shown = new ArrayList<>();
        if (rows.stream().anyMatch(r -> r.variant().expectedToDuplicate())) {
            shown.add("without a key the grant is duplicated");
        }
        if (rows.stream().anyMatch(r -> r.variant().expectedToBeSafe())) {
            shown.add("with the key read correctly, one seat each");
        }
        return shown.isEmpty()
                ? "As expected: every row shows what its variant is here to show."
                : "As expected: " + String.join("; ", shown) + ".";
    }

    static String json(IncidentLab.Settings settings, IncidentLab lab, List<VariantResult> rows) {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = mapper.createObjectNode();
        root.put("scenario", settings.scenario());
        root.put("seed", settings.seed());
        root.put("events", settings.events());
        root.put("twinDeliveries", lab.twinCount());
        root.put("lostAcksAtRestart", lab.inFlightCount());
        ArrayNode variants = root.putArray("variants");
        for (VariantResult r : rows) {
            ObjectNode v = variants.addObject();
            v.put("name", r.variant().cliName());
            v.put("events", r.events());
            v.put("posts", r.posts());
            v.put("seats", r.seats());
            v.put("duplicates", r.duplicates());
            v.put("failed", r.failed());
            v.put("verdict", r.verdict().words());
            ObjectNode causes = v.putObject("causes");
            causes.put("afterLostAnswer", r.afterLostAnswer());
            causes.put("onTwinDeliveries", r.onTwins());
            causes.put("afterRestart", r.afterRestart());
            causes.put("deadLettered", r.deadLettered());
            causes.put("ackedWithoutSeat", r.ackedWithoutSeat());
            v.put("asExpected", r.asExpected());
        }
        return root.toString();
    }

    /**
     * The workers' own per-attempt log lines would bury the table; the table is the lab's output. Warnings still
     * show. Only touches logback, which is what the runnable jar ships.
     */
    private static void quietWorkers() {
        OptionalDependencies.warnOnly("dev.idempotent.seatgrant.worker");
    }

    private static int number(String value, String flag) throws UsageException {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new UsageException(flag + " must be a whole number");
        }
    }

    /** The incident page of {@code server}, without any user-info the URL carried. */
    static URI pageOf(URI server) {
        try {
            return new URI(server.getScheme(), null, server.getHost(), server.getPort(), "/__admin/ui", null, null);
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException("not a server URL", e);
        }
    }

    private static URI serverUri(String value) throws UsageException {
        URI uri;
        try {
            uri = new URI(value);
        } catch (java.net.URISyntaxException e) {
            throw new UsageException("--server must be an http:// URL");
        }
        if (!"http".equals(uri.getScheme()) || uri.getHost() == null || uri.getRawQuery() != null) {
            throw new UsageException("--server must be an http:// URL with a host and no query");
        }
        return uri;
    }
}
