package dev.idempotent.seatgrant.server.internal.http.seats;

import dev.idempotent.seatgrant.server.ApiNames;
import dev.idempotent.seatgrant.server.ReplayStatus;
import dev.idempotent.seatgrant.server.internal.FaultPlanner;
import dev.idempotent.seatgrant.server.internal.GrantRequest;
import dev.idempotent.seatgrant.server.internal.GrantService.Outcome;
import dev.idempotent.seatgrant.server.internal.ServerCore;
import dev.idempotent.seatgrant.server.internal.http.Exchange;
import dev.idempotent.seatgrant.server.internal.http.KeyHeader;
import dev.idempotent.seatgrant.server.internal.http.LogSafe;
import dev.idempotent.seatgrant.server.internal.http.Problems;
import dev.idempotent.seatgrant.server.internal.http.Reply;
import dev.idempotent.seatgrant.server.internal.http.Routes;
import dev.idempotent.seatgrant.server.internal.http.SfString;
import dev.idempotent.seatgrant.server.internal.http.UriParts;
import dev.idempotent.seatgrant.server.internal.http.admin.AdminAccess;
import dev.idempotent.seatgrant.server.internal.http.admin.AdminRoutes;
import dev.idempotent.seatgrant.server.internal.http.faults.FaultRunner;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The seat API: {@code POST /v1/seats} (the grant), {@code GET /v1/seats} (the list) and
 * {@code GET /v1/seats/{id}}, under the server's base path. Bad input gets its {@code 4xx} before the fault plan
 * is asked; a valid request's work runs under the plan ({@link FaultRunner}); every request is journaled, those
 * outside the base path included (with their own path, and a {@code 404}).
 *
 * <p>Thread-safe. Grants complete on the store's writer, reads on the store's executor; the answer is built on
 * the connection's event loop.
 */
public final class SeatRoutes implements Routes {

    private static final String SEATS = "/v1/seats";
    private static final int MAX_LIST = 1000;
    private static final String REPLAYED = "Idempotent-Replayed";

    private final ServerCore core;
    private final String basePath;
    /** The names on the wire; the journal and the fault rules keep the packet's ({@link #SEATS}). */
    private final ApiNames names;
    private final SeatJournal journal;
    private final FaultRunner faults;

    /** @param basePath the prefix the seat API is served under ({@code ""} for the root); never logged */
    public SeatRoutes(ServerCore core, String basePath) {
        this(core, basePath, ApiNames.PACKET);
    }

    /**
     * @param basePath the prefix the seat API is served under ({@code ""} for the root); never logged
     * @param names    the route and fields the API speaks on the wire (a handout's, or {@link ApiNames#PACKET})
     */
    public SeatRoutes(ServerCore core, String basePath, ApiNames names) {
        this.core = core;
        this.basePath = basePath;
        this.names = names;
        this.journal = new SeatJournal(core.journal());
        this.faults = new FaultRunner(core.planner(), core.defaultHangMs(),
                failure -> Problems.problem(503, "store-unavailable", "the seat store failed; retry later")
                        .withHeader(HttpHeaderNames.RETRY_AFTER, 1), core.generations());
    }

    /** The seat API behind the admin API, as {@code serve} runs it, with {@code access} deciding who may use the latter. */
    public static Routes withAdmin(ServerCore core, String basePath, AdminAccess access) {
        return withAdmin(core, basePath, access, ApiNames.PACKET);
    }

    /** As above, the seat API in {@code names}. */
    public static Routes withAdmin(ServerCore core, String basePath, AdminAccess access, ApiNames names) {
        AdminRoutes admin = new AdminRoutes(new AdminRoutes.Backing(core.journal(), core.planner(),
                () -> SeatJson.ledger(core.store().ledger()), core::reset, access, core.dbExecutor()));
        return admin.inFrontOf(new SeatRoutes(core, basePath, names));
    }

    @Override
    public void serve(Exchange exchange) {
        String path = exchange.path();
        String apiPath = apiPath(path);
        JournalDraft draft = JournalDraft.of(exchange.firstByteAt(), exchange.method(),
                apiPath == null ? path : apiPath, apiPath == null);
        UriParts uri;
        try {
            uri = exchange.uri();
        } catch (UriParts.Invalid e) {
            journal.answer(exchange, draft, Problems.problem(400, "invalid-query", e.getMessage()));
            return;
        }
        if (apiPath == null) {
            // Journaled with its own path (the admin API may see it); logged without it, since it may hold a
            // near-miss of a secret base path.
            journal.answer(exchange, draft, Problems.problem(404, "not-found", "no such resource"));
            return;
        }
        route(exchange, uri, draft);
    }

    /** Journaled when its head named a seat-API path; a request outside the base path is answered and forgotten. */
    @Override
    public void refused(Exchange exchange, Reply problem) {
        String apiPath = apiPath(exchange.path());
        if (apiPath == null) {
            exchange.answer(problem);
            return;
        }
        journal.answer(exchange, JournalDraft.of(exchange.firstByteAt(), exchange.method(), apiPath, false), problem);
    }

    /** Never the base path, which may hold a secret-looking token. */
    @Override
    public String loggablePath(String path) {
        String apiPath = apiPath(path);
        return apiPath == null ? "(outside the base path)" : LogSafe.path(apiPath);
    }

    /**
     * The seat-API path this request path names once the base path is taken off ({@code /v1/seats}), or null when
     * the path lies outside the base path.
     */
    private String apiPath(String path) {
        if (basePath.isEmpty()) {
            return canonical(path);
        }
        if (path.equals(basePath)) {
            return "/";
        }
        if (path.startsWith(basePath) && path.charAt(basePath.length()) == '/') {
            return canonical(path.substring(basePath.length()));
        }
        return null;
    }

    /**
     * An API path in the packet's names: the wire's route becomes {@link #SEATS}; the packet's own route, when the
     * wire has another, is kept apart ({@code /-}-prefixed), so it is journaled and answered 404 as any unknown path.
     */
    private String canonical(String apiPath) {
        String route = names.seats();
        if (route.equals(SEATS)) {
            // The constant, not the request's copy: the journal keeps this string for its next 100,000 requests,
            // and each kept copy is one more object every young collection copies (docs/benchmarks.md).
            return apiPath.equals(SEATS) ? SEATS : apiPath;
        }
        if (apiPath.equals(route) || apiPath.startsWith(route + "/")) {
            return SEATS + apiPath.substring(route.length());
        }
        if (apiPath.equals(SEATS) || apiPath.startsWith(SEATS + "/")) {
            return "/-" + apiPath;
        }
        return apiPath;
    }

    private void route(Exchange exchange, UriParts uri, JournalDraft draft) {
        String path = draft.path();
        HttpMethod method = exchange.request().method();
        if (path.equals(SEATS)) {
            if (method.equals(HttpMethod.POST)) {
                postSeat(exchange, draft);
            } else if (method.equals(HttpMethod.GET)) {
                listSeats(exchange, uri, draft);
            } else {
                journal.answer(exchange, draft,
                        Problems.problem(405, "method-not-allowed", "use GET or POST on " + names.seats())
                                .withHeader(HttpHeaderNames.ALLOW, "GET, POST"));
            }
            return;
        }
        if (path.startsWith(SEATS + "/") && path.indexOf('/', SEATS.length() + 1) < 0
                && path.length() > SEATS.length() + 1) {
            if (method.equals(HttpMethod.GET)) {
                getSeat(exchange, draft, path.substring(SEATS.length() + 1));
            } else {
                journal.answer(exchange, draft, Problems.problem(405, "method-not-allowed", "use GET on a seat")
                        .withHeader(HttpHeaderNames.ALLOW, "GET"));
            }
            return;
        }
        journal.answer(exchange, draft, Problems.problem(404, "not-found", "no such resource"));
    }

    private void postSeat(Exchange exchange, JournalDraft draft) {
        FullHttpRequest request = exchange.request();
        String key;
        try {
            String value = KeyHeader.single(request.headers().getAll("Idempotency-Key"));
            key = value == null ? null : SeatInput.key(value);
        } catch (KeyHeader.Ambiguous e) {
            journal.answer(exchange, draft, Problems.problem(400, "ambiguous-key",
                    "two different Idempotency-Key values (two headers, or a list in one): send one key"));
            return;
        } catch (SfString.Invalid e) {
            journal.answer(exchange, draft, Problems.problem(400, "invalid-idempotency-key",
                    "Idempotency-Key starts with a double quote but is not a structured-field string: "
                            + e.getMessage()));
            return;
        }
        if (key != null && !SeatInput.validKey(key)) {
            journal.answer(exchange, draft, Problems.problem(400, "invalid-idempotency-key",
                    "Idempotency-Key must be 1 to " + SeatInput.MAX_KEY_LENGTH
                            + " visible ASCII characters (no spaces), not starting with a double quote"
                            + " (in either form: as it is, or as a structured-field string)"));
            return;
        }
        JournalDraft keyed = draft.withKey(key);
        if (key == null && core.requireKey()) {
            journal.answer(exchange, keyed, Problems.problem(400, "missing-idempotency-key",
                    "this server requires an Idempotency-Key on POST " + names.seats()));
            return;
        }
        Optional<String> badType = SeatInput.contentTypeProblem(request.headers().get(HttpHeaderNames.CONTENT_TYPE));
        if (badType.isPresent()) {
            journal.answer(exchange, keyed, Problems.problem(415, "unsupported-media-type", badType.get()));
            return;
        }
        byte[] body = new byte[request.content().readableBytes()];
        request.content().getBytes(request.content().readerIndex(), body);
        GrantRequest grant;
        try {
            grant = GrantRequest.parse(body, names);
        } catch (GrantRequest.Invalid e) {
            journal.answer(exchange, keyed, Problems.problem(400, e.slug(), e.getMessage()));
            return;
        }
        String identity = key != null ? "key:" + key : "body:" + grant.canonicalHash();
        // The grant completes on the store's writer thread; the answer is built on this connection's event loop,
        // so the writer (the durable store's throughput) spends no time on JSON and headers.
        long generation = core.generations().current();
        faults.run(exchange, journal.of(keyed.withIds(grant.workspaceId(), grant.userId())), identity, generation,
                hold -> core.grants().grant(grant, key, hold, generation)
                        .thenApplyAsync(this::grantReply, exchange.loop()));
    }

    private Reply grantReply(Outcome outcome) {
        if (outcome instanceof Outcome.Created created) {
            return Reply.json(201, SeatJson.seat(created.seat(), names))
                    .withHeader(HttpHeaderNames.LOCATION, basePath + names.seats() + "/" + created.seat().id())
                    .withSeat(created.seat().id(), true);
        }
        if (outcome instanceof Outcome.Replayed replayed) {
            int status = core.replayStatus() == ReplayStatus.ORIGINAL ? 201 : 409;
            return Reply.json(status, SeatJson.seat(replayed.seat(), names))
                    .withHeader(HttpHeaderNames.LOCATION, basePath + names.seats() + "/" + replayed.seat().id())
                    .withHeader(REPLAYED, "true")
                    .withSeat(replayed.seat().id(), false);
        }
        if (outcome instanceof Outcome.InProgress inProgress) {
            return Problems.problem(409, "request-in-progress",
                            "another request with this Idempotency-Key is still being processed; retry later")
                    .withHeader(HttpHeaderNames.RETRY_AFTER, inProgress.retryAfterSeconds());
        }
        return Problems.problem(422, "idempotency-key-reused",
                "this Idempotency-Key was already used with a different payload");
    }

    private void listSeats(Exchange exchange, UriParts uri, JournalDraft draft) {
        String workspaceId = uri.first(names.workspaceId());
        String userId = uri.first(names.userId());
        JournalDraft filtered = draft.withIds(workspaceId, userId);
        for (String value : new String[] {workspaceId, userId}) {
            if (value == null) {
                continue;
            }
            String why = GrantRequest.idProblem(value);
            if (why != null) {
                // The same rule as a POST body's ids: a filter no grant could hold is refused, not trimmed into
                // another id (a check-then-POST client would then never see its own seat).
                journal.answer(exchange, filtered,
                        Problems.problem(400, "invalid-query", names.workspaceId() + " and " + names.userId() + " "
                                + why));
                return;
            }
        }
        String identity = FaultPlanner.targetIdentity("GET", UriParts.originForm(exchange.request().uri()));
        faults.run(exchange, journal.of(filtered), identity, core.generations().current(), hold -> later(hold,
                () -> Reply.json(200, SeatJson.seats(core.store().list(workspaceId, userId, MAX_LIST), names))));
    }

    private void getSeat(Exchange exchange, JournalDraft draft, String id) {
        if (!SeatInput.plainText(id)) {
            // No seat id holds one; asking the store would make PostgreSQL refuse a NUL with a 503.
            journal.answer(exchange, draft, Problems.problem(404, "seat-not-found", "no seat has this id"));
            return;
        }
        faults.run(exchange, journal.of(draft), FaultPlanner.targetIdentity("GET", draft.path()),
                core.generations().current(), hold -> later(hold,
                () -> core.store().find(id)
                        .map(seat -> Reply.json(200, SeatJson.seat(seat, names)).withSeat(seat.id(), false))
                        .orElseGet(() -> Problems.problem(404, "seat-not-found", "no seat has this id"))));
    }

    /** A store read on the store's executor, after {@code holdMs} (a {@code delay} fault) on a timer. */
    private CompletableFuture<Reply> later(long holdMs, Supplier<Reply> read) {
        Executor executor = holdMs <= 0 ? core.dbExecutor()
                : CompletableFuture.delayedExecutor(holdMs, TimeUnit.MILLISECONDS, core.dbExecutor());
        return CompletableFuture.supplyAsync(read, executor);
    }
}
