package dev.idempotent.seatgrant.server;

import dev.idempotent.seatgrant.server.internal.FaultPlanner;
import dev.idempotent.seatgrant.server.internal.Journal;
import dev.idempotent.seatgrant.server.internal.ResetGenerations;
import dev.idempotent.seatgrant.server.internal.http.HttpEngine;
import dev.idempotent.seatgrant.server.internal.http.HttpSettings;
import dev.idempotent.seatgrant.server.internal.http.InFlightBytes;
import dev.idempotent.seatgrant.server.internal.http.admin.AdminAccess;
import dev.idempotent.seatgrant.server.internal.http.proxy.CreatedRule;
import dev.idempotent.seatgrant.server.internal.http.proxy.OperationRule;
import dev.idempotent.seatgrant.server.internal.http.proxy.ProxyCore;
import dev.idempotent.seatgrant.server.internal.http.proxy.ProxyRoutes;
import dev.idempotent.seatgrant.server.internal.http.proxy.ResourceLedger;
import dev.idempotent.seatgrant.server.internal.http.proxy.SuspectRule;
import dev.idempotent.seatgrant.server.internal.http.proxy.Upstream;
import dev.idempotent.seatgrant.server.internal.http.proxy.UpstreamTarget;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.URI;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A fault proxy in front of any HTTP service, started in-process: every request is forwarded to one upstream under
 * the same fault plans as {@link FakeSeatServer}'s, so an answer can be lost after the upstream acted on the
 * request; the journal records every attempt and the ledger which operations made the upstream create two things.
 * What {@code java -jar fake-server.jar proxy} wraps.
 *
 * <pre>{@code
 * try (FakeProxy proxy = FakeProxy.start(ProxyConfig.builder(URI.create("http://127.0.0.1:9000"))
 *         .faultPlan(FaultPlan.scenario("incident").onRoute("POST", "/orders")).build())) {
 *     URI orders = proxy.baseUri().resolve("/orders");
 *     ... drive the client under test against it ...
 *     assertEquals(List.of(), proxy.ledger().duplicates());
 * }
 * }</pre>
 *
 * <p>Thread-safe. {@link #close()} stops listening, drops open connections and closes the upstream connections. In
 * a JUnit 5 test, {@link dev.idempotent.seatgrant.server.junit.FakeServerExtension#proxy(ProxyConfig)} starts,
 * resets and closes it for you.
 */
public final class FakeProxy implements FakeServer {

    private final ProxyConfig config;
    private final ProxyCore core;
    private final HttpEngine engine;
    private final ExecutorService admin;

    private FakeProxy(ProxyConfig config, ProxyCore core, HttpEngine engine, ExecutorService admin) {
        this.config = config;
        this.core = core;
        this.engine = engine;
        this.admin = admin;
    }

    /**
     * Resolves the upstream and starts listening. Nothing is sent upstream until a request comes.
     *
     * @throws IllegalArgumentException if the upstream's host cannot be resolved (the message names the host only)
     * @throws java.io.UncheckedIOException if the address cannot be bound
     */
    public static FakeProxy start(ProxyConfig config) {
        UpstreamTarget target = UpstreamTarget.resolve(config.upstream());
        EventLoopGroup loops = HttpEngine.eventLoops();
        // One count of the bodies held, requests and answers alike, across every connection.
        InFlightBytes inFlight = new InFlightBytes(config.maxInFlightBytes());
        Upstream upstream = new Upstream(loops, target, config.upstreamTimeout(), config.maxBody(),
                config.maxUpstreamConnections(), inFlight);
        ProxyCore core = new ProxyCore(new Journal(config.journalCapacity(), true),
                new FaultPlanner(config.faultPlan()), new ResourceLedger(SuspectRule.of(config.volatileFields(), config.suspectWindow())), upstream, target,
                OperationRule.parse(config.operation()), CreatedRule.parse(config.created()), config.host(),
                config.defaultHang().toMillis(), new ResetGenerations());
        // The journal's renders and the ledger's snapshots: small work, off the event loops.
        ExecutorService admin = Executors.newSingleThreadExecutor(new DefaultThreadFactory("proxy-admin", true));
        try {
            HttpEngine engine = HttpEngine.start(loops, config.host(), config.port(),
                    new HttpSettings(config.headerTimeout(), config.bodyTimeout(), config.idleTimeout(),
                            config.maxConnections(), config.clock(), config.maxBody()),
                    ProxyRoutes.withAdmin(core, new AdminAccess(config.adminToken(), config.host(),
                            config.allowedHosts()), admin, config::scenario), inFlight);
            return new FakeProxy(config, core, engine, admin);
        } catch (RuntimeException e) {
            // The engine has shut the event loops down; the pools never opened a connection.
            admin.shutdownNow();
            throw e;
        }
    }

    /** The configuration this proxy started with (its fault plan may have changed since). */
    public ProxyConfig config() {
        return config;
    }

    /** The port it listens on, the real one when the config asked for 0. */
    public int port() {
        return engine.localAddress().getPort();
    }

    /** {@code http://host:port/}: resolve the upstream's paths, or {@code /__admin/ledger}, against it. */
    @Override
    public URI baseUri() {
        return engine.baseUri();
    }

    /** The upstream as a log line may show it: {@code http://host:port[/path]}, without userinfo or query. */
    public String upstream() {
        return core.target().display();
    }

    /**
     * The requests the journal holds, faulted and refused ones included, in {@code seq} order, each with its
     * {@code operation}, {@code upstreamStatus} and {@code upstreamError}. Like {@link FakeSeatServer#journal()}, it
     * first waits, at most two seconds, until no answer is still being written, so an entry read just after the
     * client got its answer says {@code sent: true}.
     */
    @Override
    public List<JournalEntry> journal() {
        return core.journal().settledSnapshot();
    }

    /** The journal's entries with {@code seq > after}, as {@code GET /__admin/requests?after=SEQ} gives them. */
    public List<JournalEntry> journal(long after) {
        return core.journal().after(after);
    }

    /** What the upstream created per operation, and every operation that created more than one thing. */
    public ProxyLedger ledger() {
        return core.ledger().snapshot();
    }

    /** The fault plan in force. */
    @Override
    public FaultPlan faultPlan() {
        return core.planner().plan();
    }

    /** Replaces the fault plan, with fresh rule counters; attempt counts per operation carry on. */
    @Override
    public void faultPlan(FaultPlan plan) {
        core.planner().replace(plan);
    }

    /** Empties the ledger, the journal and the plan, as {@code POST /__admin/reset} does; the upstream is untouched. */
    @Override
    public void reset() {
        core.reset();
    }

    /** The shipped scenario {@code name}, aimed at this proxy's route when it has one. */
    @Override
    public FaultPlan scenario(String name) {
        return config.scenario(name);
    }

    /**
     * Each operation that made the upstream create more than one resource, from the {@linkplain #ledger() ledger},
     * with the journal's requests of that operation.
     */
    @Override
    public List<Duplication> duplications() {
        List<ProxyLedger.Duplicate> duplicates = ledger().duplicates();
        if (duplicates.isEmpty()) {
            return List.of();
        }
        List<JournalEntry> journal = journal();
        return duplicates.stream().map(d -> {
            List<JournalEntry> requests = journal.stream().filter(e -> d.operation().equals(e.operation())).toList();
            List<String> keys = requests.stream().map(JournalEntry::idempotencyKey).filter(Objects::nonNull)
                    .distinct().toList();
            return new Duplication("operation " + d.operation(), "resource", d.created(), keys, requests);
        }).toList();
    }

    /** Requests waiting for a pooled upstream connection now: lets a test know it has filled the pool. */
    int upstreamWaiting() {
        return core.upstream().waiting();
    }

    @Override
    public void close() {
        try {
            core.upstream().close();
        } finally {
            engine.close();
            admin.shutdown();
        }
    }

    @Override
    public String toString() {
        return "FakeProxy[" + baseUri() + " -> " + upstream() + "]";
    }
}
