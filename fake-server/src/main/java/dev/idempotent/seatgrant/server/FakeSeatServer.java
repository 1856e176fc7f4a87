package dev.idempotent.seatgrant.server;

import dev.idempotent.seatgrant.server.internal.FaultPlanner;
import dev.idempotent.seatgrant.server.internal.GrantService;
import dev.idempotent.seatgrant.server.internal.Journal;
import dev.idempotent.seatgrant.server.internal.ResetGenerations;
import dev.idempotent.seatgrant.server.internal.ServerCore;
import dev.idempotent.seatgrant.server.internal.http.HttpEngine;
import dev.idempotent.seatgrant.server.internal.http.HttpSettings;
import dev.idempotent.seatgrant.server.internal.http.admin.AdminAccess;
import dev.idempotent.seatgrant.server.internal.http.seats.SeatRoutes;
import dev.idempotent.seatgrant.server.internal.store.DbSpec;
import dev.idempotent.seatgrant.server.internal.store.SeatStore;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A running seat-grant server, started in-process: what tests and the incident lab use, and what
 * {@code java -jar fake-server.jar serve} wraps.
 *
 * <pre>{@code
 * try (FakeSeatServer server = FakeSeatServer.start(ServerConfig.builder()
 *         .faultPlan(FaultPlan.scenario("incident")).build())) {
 *     URI seats = server.baseUri().resolve("/v1/seats");
 *     ... drive a client ...
 *     assertEquals(List.of(), server.ledger().duplicates());
 * }
 * }</pre>
 *
 * <p>Thread-safe. {@link #close()} stops listening, drops open connections and closes the store. In a JUnit 5 test,
 * {@link dev.idempotent.seatgrant.server.junit.FakeServerExtension} starts, resets and closes it for you.
 */
public final class FakeSeatServer implements FakeServer {

    /** Store calls run on this many threads (and the pool holds as many connections): enough for a 2-core box. */
    private static final int DB_THREADS = 8;
    private final ServerConfig config;
    private final ServerCore core;
    private final HttpEngine engine;
    private final String storeDescription;

    private FakeSeatServer(ServerConfig config, ServerCore core, HttpEngine engine, String storeDescription) {
        this.config = config;
        this.core = core;
        this.engine = engine;
        this.storeDescription = storeDescription;
    }

    /**
     * Opens the store (creating its schema if needed) and starts listening.
     *
     * @throws IllegalArgumentException if {@code config.db()} is not a supported store
     * @throws java.io.UncheckedIOException if the address cannot be bound
     * @throws RuntimeException if the store cannot be opened (the message never includes its URL)
     */
    public static FakeSeatServer start(ServerConfig config) {
        DbSpec spec = DbSpec.parse(config.db());
        SeatStore store = SeatStore.open(spec, DB_THREADS);
        ExecutorService db = Executors.newFixedThreadPool(DB_THREADS, new DefaultThreadFactory("seat-db", true));
        ResetGenerations generations = new ResetGenerations();
        ServerCore core = new ServerCore(store,
                new GrantService(store, config.clock(), config.claimLease(), db, generations),
                new FaultPlanner(config.faultPlan()), new Journal(config.journalCapacity()), config.clock(), db,
                config.replayStatus(), config.requireKey(), config.adminToken(), config.defaultHang().toMillis(),
                generations);
        try {
            HttpEngine engine = HttpEngine.start(config.host(), config.port(),
                    new HttpSettings(config.headerTimeout(), config.bodyTimeout(), config.idleTimeout(),
                            config.maxConnections(), config.clock()),
                    config.adminApi()
                            ? SeatRoutes.withAdmin(core, config.basePath(),
                                    new AdminAccess(config.adminToken(), config.host(), config.allowedHosts()),
                                    config.apiNames())
                            : new SeatRoutes(core, config.basePath(), config.apiNames()));
            return new FakeSeatServer(config, core, engine, spec.description());
        } catch (RuntimeException e) {
            db.shutdownNow();
            store.close();
            throw e;
        }
    }

    /** The configuration this server started with (its fault plan may have changed since; see {@link #faultPlan()}). */
    public ServerConfig config() {
        return config;
    }

    /** The port it listens on, the real one when the config asked for 0. */
    public int port() {
        return engine.localAddress().getPort();
    }

    /** {@code http://host:port/}: resolve {@code /v1/seats} or {@code /__admin/ledger} against it. */
    @Override
    public URI baseUri() {
        return engine.baseUri();
    }

    /**
     * Where the seat API lives: {@code http://host:port} plus the base path, with no trailing slash; append
     * {@code /v1/seats}. Without a base path it is {@link #baseUri()} without its trailing slash.
     */
    public URI apiBaseUri() {
        String root = baseUri().toString();
        return URI.create(root.substring(0, root.length() - 1) + config.basePath());
    }

    /** A loggable description of the store, e.g. {@code SQLite file /tmp/x/seats.sqlite}; never a credential. */
    public String storeDescription() {
        return storeDescription;
    }

    /**
     * The seat-API requests the journal holds (the last {@link ServerConfig#journalCapacity()}), faulted ones
     * included, in {@code seq} order: the order their outcomes became known, which is arrival order for requests
     * sent one after another.
     *
     * <p>A client can read its answer a moment before the server hears that the answer reached the socket, so this
     * first waits, at most two seconds, until no entry is waiting for its answer to be written: an entry
     * read just after the client got a 201 says {@code sent: true}. (An answer its reader does not take is settled
     * as not sent within a second.)
     */
    @Override
    public List<JournalEntry> journal() {
        return core.journal().settledSnapshot();
    }

    /**
     * When the oldest grant a {@code delay} fault still holds began its hold; empty when no grant is held. A held
     * request enters the journal only once its hold has ended.
     */
    public Optional<Instant> heldSince() {
        return core.grants().heldSince();
    }

    /**
     * Ends every {@code delay} fault's hold under way now: each held grant goes on to its commit at once, as if its
     * delay had run out. A hold that starts later waits as usual.
     */
    public void releaseHolds() {
        core.grants().releaseHolds();
    }

    /**
     * The journal's entries with {@code seq > after}, as {@code GET /__admin/requests?after=SEQ} gives them: it stops
     * before an entry whose response is still being written, so a follower never misses one.
     */
    public List<JournalEntry> journal(long after) {
        return core.journal().after(after);
    }

    /** The store's seats, keys and duplicate seats, read now. */
    public Ledger ledger() {
        return core.store().ledger();
    }

    /** The fault plan in force. */
    @Override
    public FaultPlan faultPlan() {
        return core.planner().plan();
    }

    /** Replaces the fault plan, with fresh rule counters; attempt counts per key carry on. */
    @Override
    public void faultPlan(FaultPlan plan) {
        core.planner().replace(plan);
    }

    /** Empties the seats, keys, journal and plan, as {@code POST /__admin/reset} does. */
    @Override
    public void reset() {
        core.reset();
    }

    /**
     * Each user with more than one seat in a workspace, from the {@linkplain #ledger() ledger}, with the journal's
     * requests that named that workspace and user (the POSTs that wrote the seats, and a check-then-post client's
     * list reads).
     */
    @Override
    public List<Duplication> duplications() {
        List<Ledger.Duplicate> duplicates = ledger().duplicates();
        if (duplicates.isEmpty()) {
            return List.of();
        }
        List<JournalEntry> journal = journal();
        return duplicates.stream().map(d -> new Duplication(
                "user " + d.userId() + " in workspace " + d.workspaceId(), "seat", d.seatIds(), d.idempotencyKeys(),
                journal.stream().filter(e -> d.workspaceId().equals(e.workspaceId()) && d.userId().equals(e.userId()))
                        .toList())).toList();
    }

    @Override
    public void close() {
        try {
            engine.close();
        } finally {
            core.dbExecutor().shutdown();
            try {
                core.dbExecutor().awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            core.store().close();
        }
    }

    @Override
    public String toString() {
        return "FakeSeatServer[" + baseUri() + ", " + storeDescription + "]";
    }
}
