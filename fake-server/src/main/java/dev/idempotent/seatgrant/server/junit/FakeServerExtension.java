package dev.idempotent.seatgrant.server.junit;

import dev.idempotent.seatgrant.server.FakeProxy;
import dev.idempotent.seatgrant.server.FakeSeatServer;
import dev.idempotent.seatgrant.server.FakeServer;
import dev.idempotent.seatgrant.server.FaultPlan;
import dev.idempotent.seatgrant.server.JournalEntry;
import dev.idempotent.seatgrant.server.Ledger;
import dev.idempotent.seatgrant.server.ProxyConfig;
import dev.idempotent.seatgrant.server.ProxyLedger;
import dev.idempotent.seatgrant.server.ServerConfig;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A fake seat server, or a fault proxy in front of your own service, for a JUnit 5 test: register it with
 * {@code @RegisterExtension}, point the client under test at {@link #baseUri()}, choose how answers get lost, and
 * end with {@link #assertNoDuplicates()}.
 *
 * <pre>{@code
 * @RegisterExtension
 * static FakeServerExtension fake = FakeServerExtension.server();
 *
 * @Test
 * void oneSeatPerGrantWhenTheAnswerIsLost() {
 *     fake.scenario("incident");                     // every first POST is committed, then answered 504
 *     new MySeatClient(fake.baseUri()).grant("ws_1", "user_1");
 *     fake.assertNoDuplicates();
 * }
 * }</pre>
 *
 * <p><b>Lifecycle.</b> In a {@code static} field, one server serves the test class and its {@code @Nested}
 * classes: started before all their tests, closed after them. In an instance field, every test gets its own server,
 * closed after it. Either way each test starts clean: no seats, no keys, an empty journal, no attempt counts, and
 * the fault plan the server was configured with (data a {@code @BeforeAll} method wrote is gone too; write it in
 * {@code @BeforeEach}).
 *
 * <p><b>Parallel tests.</b> Test classes that run in parallel each get their own server. A server in a static field
 * serves one test at a time, since a test's reset would wipe another's evidence: a test that starts while another
 * test of the same server is running waits its turn, up to {@link #DEFAULT_TURN_WAIT}, and then fails with an
 * {@link ExtensionConfigurationException} that says why. Use an instance field (a server per test) for a class
 * whose tests should run side by side.
 *
 * <p><b>Parameters.</b> A test or lifecycle method parameter of type {@link URI} receives {@link #baseUri()}. With two
 * of these extensions registered, both offer it and JUnit refuses the parameter: use the fields then.
 *
 * <p>The accessors are thread-safe, so a test's client threads may use them; they throw
 * {@link IllegalStateException} when no server is running (outside a test).
 */
public final class FakeServerExtension
        implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback, ParameterResolver {

    /** How long a test waits for another test of the same server to finish before it fails. */
    public static final Duration DEFAULT_TURN_WAIT = Duration.ofMinutes(2);

    private static final Logger LOG = LoggerFactory.getLogger(FakeServerExtension.class);

    private final Supplier<? extends FakeServer> starter;
    /** True when the server starts at the first test rather than before all: its config is read only then. */
    private final boolean startAtFirstTest;
    private final Duration turnWait;
    private volatile FakeServer server;
    /** The plan the server started with, which each test starts from again. */
    private FaultPlan startPlan;
    /** Test classes (outer and nested, or several sharing a base class's static field) using the server now. */
    private int containers;
    /** The unique id of the test using the server now; null between tests. */
    private String activeTest;
    /** Tests waiting for their turn on the server now. */
    private int waiting;

    /**
     * An extension over any {@link FakeServer}: the public factories pass how to start theirs.
     *
     * @param starter starts a new server each time it is called; called once per class or once per test
     */
    FakeServerExtension(Supplier<? extends FakeServer> starter) {
        this(starter, false, DEFAULT_TURN_WAIT);
    }

    /** As {@link #FakeServerExtension(Supplier)}, with a bound of its own on a test's wait for its turn. */
    FakeServerExtension(Supplier<? extends FakeServer> starter, Duration turnWait) {
        this(starter, false, turnWait);
    }

    private FakeServerExtension(Supplier<? extends FakeServer> starter, boolean startAtFirstTest, Duration turnWait) {
        this.starter = Objects.requireNonNull(starter, "starter");
        this.startAtFirstTest = startAtFirstTest;
        this.turnWait = Objects.requireNonNull(turnWait, "turnWait");
    }

    /**
     * A fake seat server with the test defaults of {@link ServerConfig#builder()}: an in-memory store of its own,
     * loopback only, a free port, no faults.
     */
    public static FakeServerExtension server() {
        return server(ServerConfig.builder().build());
    }

    /**
     * A fake seat server with this configuration. Its fault plan is the one each test starts with; its store is
     * emptied before each test, so a file or PostgreSQL store loses its seats.
     */
    public static FakeServerExtension server(ServerConfig config) {
        Objects.requireNonNull(config, "config");
        return new FakeServerExtension(() -> FakeSeatServer.start(config));
    }

    /**
     * A fault proxy in front of your own service ({@code config}'s upstream, which must be listening by the time a
     * test sends a request): the same faults, reset and assertions, per operation instead of per user.
     * {@link #scenario(String)} aims a shipped scenario at the config's {@linkplain ProxyConfig.Builder#route
     * route}; the upstream's own data is yours to reset.
     *
     * <pre>{@code
     * @RegisterExtension
     * static FakeServerExtension fake = FakeServerExtension.proxy(ProxyConfig.builder(URI.create("http://127.0.0.1:9000"))
     *         .route("POST", "/orders").build());
     * }</pre>
     */
    public static FakeServerExtension proxy(ProxyConfig config) {
        Objects.requireNonNull(config, "config");
        return new FakeServerExtension(() -> FakeProxy.start(config));
    }

    /**
     * A fault proxy whose config is read when the first test starts, not when the class loads: for a service that
     * the test class starts itself, in a {@code @BeforeAll} method or another extension, so its address is known
     * only then. {@code config} is called once per server, just before the first test's {@code @BeforeEach}
     * methods (in a static field, once for the class; in an instance field, before each test). Everything else is
     * {@link #proxy(ProxyConfig)}'s.
     *
     * <p>The proxy is not running before that first test: {@link #baseUri()} and the other accessors throw
     * {@link IllegalStateException} in a {@code @BeforeAll} method, and a {@link URI} parameter cannot be resolved
     * there; take it in a test or a {@code @BeforeEach} method.
     *
     * <pre>{@code
     * static OrdersService orders;
     *
     * @RegisterExtension
     * static FakeServerExtension fake = FakeServerExtension.proxy(
     *         () -> ProxyConfig.builder(orders.baseUri()).route("POST", "/orders").build());
     *
     * @BeforeAll
     * static void startOrders() {
     *     orders = OrdersService.start();
     * }
     * }</pre>
     *
     * @param config gives the proxy's config, upstream included; called at the first test, never before
     */
    public static FakeServerExtension proxy(Supplier<ProxyConfig> config) {
        Objects.requireNonNull(config, "config");
        return new FakeServerExtension(() -> FakeProxy.start(Objects.requireNonNull(config.get(),
                "the ProxyConfig supplier gave null")), true, DEFAULT_TURN_WAIT);
    }

    @Override
    public synchronized void beforeAll(ExtensionContext context) {
        if (containers == 0 && !startAtFirstTest) {
            start();
        }
        containers++;
    }

    @Override
    public synchronized void afterAll(ExtensionContext context) {
        if (containers == 0) {
            return;
        }
        containers--;
        if (containers == 0) {
            stop();
        }
    }

    @Override
    public synchronized void beforeEach(ExtensionContext context) {
        awaitTurn(context);
        activeTest = context.getUniqueId();
        if (server == null) {
            start();
        } else {
            server.reset();
            server.faultPlan(startPlan);
        }
    }

    @Override
    public synchronized void afterEach(ExtensionContext context) {
        if (!context.getUniqueId().equals(activeTest)) {
            // A test refused in beforeEach: the server belongs to the test that holds it.
            return;
        }
        activeTest = null;
        if (containers == 0) {
            stop();
        }
        notifyAll();
    }

    /** Waits, bounded, until no other test uses the server; a test's reset would wipe the other's evidence. */
    private void awaitTurn(ExtensionContext context) {
        long deadline = System.nanoTime() + turnWait.toNanos();
        waiting++;
        try {
            for (long left = turnWait.toNanos(); activeTest != null; left = deadline - System.nanoTime()) {
                if (left <= 0) {
                    throw new ExtensionConfigurationException("a FakeServerExtension with one server per class (a "
                            + "static field) serves one test at a time, and " + context.getDisplayName()
                            + " waited " + turnWait.toMillis() + " ms for another test to finish with it; use an "
                            + "instance field (a server per test), or run these tests one at a time");
                }
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ExtensionConfigurationException("interrupted while " + context.getDisplayName()
                    + " waited for its turn on the fake server", e);
        } finally {
            waiting--;
        }
    }

    /** How many tests are waiting for their turn on the server now. */
    synchronized int testsWaiting() {
        return waiting;
    }

    private void start() {
        FakeServer started = starter.get();
        startPlan = started.faultPlan();
        server = started;
        // The port and the kind of store only: a URL could name an upstream's path or a database's password.
        String what = started instanceof FakeSeatServer seats ? "a fake seat server (store: "
                + seats.storeDescription() + ")" : started instanceof FakeProxy ? "a fault proxy" : "a fake server";
        LOG.info("FakeServerExtension started {} on port {}; faults: {}", what, started.baseUri().getPort(),
                describe(startPlan));
    }

    private static String describe(FaultPlan plan) {
        if (plan.rules().isEmpty()) {
            return "none";
        }
        return plan.scenarioName().map(name -> "scenario " + name)
                .orElse(plan.rules().size() + (plan.rules().size() == 1 ? " rule" : " rules"));
    }

    private void stop() {
        FakeServer running = server;
        server = null;
        if (running != null) {
            running.close();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == URI.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        FakeServer running = server;
        if (running == null) {
            throw new ParameterResolutionException("no fake server is running yet for " + parameter.getParameter()
                    + ": an instance-field FakeServerExtension starts its server before each test, after the test "
                    + "class's constructor, and one made by proxy(Supplier) at the first test, after @BeforeAll; "
                    + "take the URI in the test or a @BeforeEach method");
        }
        return running.baseUri();
    }

    /** {@code http://127.0.0.1:port/} (or the configured host): the root the client under test calls. */
    public URI baseUri() {
        return running().baseUri();
    }

    /**
     * The seat server's ledger, read now: seats, keys and every user holding more than one seat.
     *
     * @throws IllegalStateException for a {@linkplain #proxy(ProxyConfig) proxy}: use {@link #proxyLedger()}
     */
    public Ledger ledger() {
        return seatServer().ledger();
    }

    /**
     * The proxy's ledger, read now: write operations, the resources they created, and every operation that created
     * more than one.
     *
     * @throws IllegalStateException for a {@linkplain #server() seat server}: use {@link #ledger()}
     */
    public ProxyLedger proxyLedger() {
        return fakeProxy().ledger();
    }

    /** The current test's requests, faulted ones included, in arrival order (see {@link JournalEntry}). */
    public List<JournalEntry> journal() {
        return running().journal();
    }

    /** The fault plan in force for the current test. */
    public FaultPlan faultPlan() {
        return running().faultPlan();
    }

    /** Replaces the fault plan for the rest of the current test; the next test starts from the configured one. */
    public void faultPlan(FaultPlan plan) {
        running().faultPlan(Objects.requireNonNull(plan, "plan"));
    }

    /**
     * Loads a shipped scenario ({@code incident}, {@code reset}, {@code flaky}) as the fault plan for the rest of
     * the current test; a proxy aims it at its route.
     *
     * @throws IllegalArgumentException for an unknown scenario, naming the known ones
     */
    public void scenario(String name) {
        FakeServer running = running();
        running.faultPlan(running.scenario(name));
    }

    /**
     * Each user (or operation) holding more than one seat (or resource) now, with the requests that reached the
     * server for it: what {@link #assertNoDuplicates()} reports, for a test that asserts something of its own.
     */
    public List<FakeServer.Duplication> duplications() {
        return running().duplications();
    }

    /**
     * Passes when no user holds more than one seat (for a proxy: no operation made the upstream create more than
     * one resource); otherwise throws an {@link AssertionError} that names each such user (or operation), its seats
     * (or resources), the Idempotency-Keys they were written under, and the requests that made them, as the
     * journal recorded them (attempt number, key, what was committed, what the client was answered and, through a
     * proxy, what the upstream had answered). Through a proxy, the message then also names the suspected duplicates
     * ({@link ProxyLedger#suspected()}), which alone do not fail it: {@link #assertNoSuspectedDuplicates()} does.
     */
    public void assertNoDuplicates() {
        FakeServer running = running();
        List<FakeServer.Duplication> duplications = running.duplications();
        if (!duplications.isEmpty()) {
            String suspects = running instanceof FakeProxy proxy
                    ? SuspectsMessage.after(proxy.ledger().suspected(), proxy.journal()) : "";
            throw new AssertionError(DuplicatesMessage.describe(duplications) + suspects);
        }
    }

    /**
     * Passes when the proxy suspects no duplicates: no two operations with the same method and path, whose bodies
     * differ only in the {@linkplain ProxyConfig.Builder#volatileField volatile fields}, each created a resource
     * within the {@linkplain ProxyConfig.Builder#suspectWindow suspect window} of the other. A client whose body
     * changes on every attempt, or that mints a key per attempt, passes {@link #assertNoDuplicates()} however many
     * resources it makes, and fails this; so do two intents that really were the same order twice. Otherwise throws
     * an {@link AssertionError} naming each group's operations, what each created and their requests.
     *
     * @throws IllegalStateException for a {@linkplain #server() seat server}, whose ledger counts seats per user
     *                               and has no suspects
     */
    public void assertNoSuspectedDuplicates() {
        FakeProxy proxy = fakeProxy();
        List<ProxyLedger.Suspected> suspected = proxy.ledger().suspected();
        if (!suspected.isEmpty()) {
            throw new AssertionError(SuspectsMessage.describe(suspected, proxy.journal()));
        }
    }

    /** The running seat server itself, for what this class does not repeat: its port, config, API base URI. */
    public FakeSeatServer seatServer() {
        FakeServer running = running();
        if (running instanceof FakeSeatServer seats) {
            return seats;
        }
        throw new IllegalStateException("this FakeServerExtension runs " + running.getClass().getSimpleName()
                + ", not a FakeSeatServer");
    }

    /** The running proxy itself, for what this class does not repeat: its port, config, upstream. */
    public FakeProxy fakeProxy() {
        FakeServer running = running();
        if (running instanceof FakeProxy proxy) {
            return proxy;
        }
        throw new IllegalStateException("this FakeServerExtension runs " + running.getClass().getSimpleName()
                + ", not a FakeProxy");
    }

    private FakeServer running() {
        FakeServer running = server;
        if (running == null) {
            throw new IllegalStateException("no fake server is running: FakeServerExtension starts one before all "
                    + "tests when registered in a static field, before each test when in an instance field; use it "
                    + "from a test or a @BeforeEach or @AfterEach method");
        }
        return running;
    }

    @Override
    public String toString() {
        FakeServer running = server;
        return "FakeServerExtension[" + (running == null ? "not running" : running) + "]";
    }
}
