package dev.idempotent.seatgrant.server.internal.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idempotent.seatgrant.server.Fault;
import dev.idempotent.seatgrant.server.FaultPlan;
import dev.idempotent.seatgrant.server.FaultRule;
import dev.idempotent.seatgrant.server.InvalidFaultPlanException;
import dev.idempotent.seatgrant.server.JournalEntry;
import dev.idempotent.seatgrant.server.ReplayStatus;
import dev.idempotent.seatgrant.server.internal.FaultPlanner;
import dev.idempotent.seatgrant.server.internal.GrantRequest;
import dev.idempotent.seatgrant.server.internal.GrantService.Outcome;
import dev.idempotent.seatgrant.server.internal.ServerCore;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes every request of one connection: the seat API (through the fault plan) and the admin API (never
 * faulted).
 *
 * <p>Requests are handled one at a time and answered in the order they arrived, as HTTP/1.1 pipelining needs:
 * the codec may decode several requests from one read, so they wait in a queue, and the next one starts only
 * once the previous answer is written (or its fault has struck). A request that asks to close the connection
 * is answered after everything before it, and then the connection closes.
 *
 * <p>Runs on Netty's event loop and never blocks it: store calls and rendering the journal go to the core's
 * executor, waits are timers scheduled on the channel's own event loop, and a hung connection is just a channel
 * with reads switched off.
 */
final class SeatHttpHandler extends ChannelInboundHandlerAdapter {

    static final String ADMIN_PREFIX = "/__admin";
    private static final String SEATS = "/v1/seats";
    private static final int MAX_KEY_LENGTH = 255;
    private static final int MAX_LIST = 1000;
    private static final String REPLAYED = "Idempotent-Replayed";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Logger LOG = LoggerFactory.getLogger("dev.idempotent.seatgrant.server.requests");

    private final ServerCore core;
    private final HttpSettings settings;
    private final ConnectionGuard guard;
    private final Deque<Object> queue = new ArrayDeque<>();
    private boolean busy;
    private boolean closing;
    private boolean inputClosed;
    /** A {@code 100 Continue} held back until the requests before its own are answered; null for none. */
    private Object owedContinue;

    SeatHttpHandler(ServerCore core, HttpSettings settings, ConnectionGuard guard) {
        this.core = core;
        this.settings = settings;
        this.guard = guard;
    }

    /** What the journal needs to know about a request whose outcome is not known yet. */
    private record Call(Instant at, String method, String path, String key, String workspaceId, String userId,
                        boolean keepAlive, boolean outside) {

        Call withKey(String newKey) {
            return new Call(at, method, path, newKey, workspaceId, userId, keepAlive, outside);
        }

        Call withIds(String newWorkspaceId, String newUserId) {
            return new Call(at, method, path, key, newWorkspaceId, newUserId, keepAlive, outside);
        }

        JournalEntry entry(int attempt, Fault fault, boolean committed, String seatId, Integer status) {
            return new JournalEntry(0, at, method, path, key, workspaceId, userId, attempt,
                    fault == null ? null : fault.wireName(), committed, seatId, status, false);
        }
    }

    // ---------------------------------------------------------------- the queue

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        // The aggregator hands on one message at a time, so this is the request a held-back 100 was for: its body
        // came without waiting for it, and a 100 now would only arrive after its answer's turn has begun.
        forgetContinue();
        if (closing) {
            ReferenceCountUtil.release(msg);
            return;
        }
        queue.add(msg);
        // Backpressure: no more reads while requests wait; reads resume when the queue is empty again.
        ctx.channel().config().setAutoRead(false);
        if (!busy) {
            next(ctx);
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent) {
            // The client sent all it will send: answer what is queued, then close.
            inputClosed = true;
            if (!busy) {
                ctx.close();
            }
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        closing = true;
        drop();
        ctx.fireChannelInactive();
    }

    /** Starts the next queued request, or, with none left, goes back to reading. */
    private void next(ChannelHandlerContext ctx) {
        Object msg = queue.poll();
        if (msg == null || closing) {
            busy = false;
            guard.working(false);
            if (inputClosed && !closing) {
                ctx.close();
                return;
            }
            if (!closing && ctx.channel().isActive()) {
                if (owedContinue != null) {
                    // Everything before the expecting request is answered: now its 100 is next in line.
                    Object interim = owedContinue;
                    owedContinue = null;
                    ctx.writeAndFlush(interim);
                }
                ctx.channel().config().setAutoRead(true);
            }
            return;
        }
        busy = true;
        guard.working(true);
        try {
            if (msg instanceof Refusal refusal) {
                refuse(ctx, refusal);
            } else if (((FullHttpRequest) msg).decoderResult().isFailure()) {
                // A request cut short (its client shut down mid-body): never served, whatever its bytes so far say.
                refuse(ctx, new Refusal(400, "malformed-request", "the request ended before its body was complete",
                        null, null));
            } else {
                serve(ctx, (FullHttpRequest) msg);
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    /** True when a {@code 100 Continue} for the request being read now would be the next response on the wire. */
    boolean mayContinueNow() {
        return !busy && queue.isEmpty() && !closing;
    }

    /** Holds a {@code 100 Continue} back until every request before its own is answered. */
    void oweContinue(Object interim) {
        forgetContinue();
        if (closing) {
            ReferenceCountUtil.release(interim);
        } else {
            owedContinue = interim;
        }
    }

    private void forgetContinue() {
        if (owedContinue != null) {
            ReferenceCountUtil.release(owedContinue);
            owedContinue = null;
        }
    }

    private void drop() {
        forgetContinue();
        Object msg;
        while ((msg = queue.poll()) != null) {
            ReferenceCountUtil.release(msg);
        }
    }

    // ---------------------------------------------------------------- routing

    private void serve(ChannelHandlerContext ctx, FullHttpRequest request) {
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        Instant at = core.clock().instant();
        String method = request.method().name();
        String path = null;
        try {
            UriParts uri;
            try {
                uri = UriParts.parse(request.uri());
            } catch (UriParts.Invalid e) {
                if (e.inPath()) {
                    // The path cannot be named, so this request cannot be journaled or logged by it.
                    respond(ctx, Problems.problem(400, "invalid-path", e.getMessage()), keepAlive, 0);
                    return;
                }
                String origin = UriParts.originForm(request.uri());
                String rawPath = origin.substring(0, origin.indexOf('?'));
                uri = UriParts.parse(rawPath);
                path = uri.path();
                Reply bad = Problems.problem(400, "invalid-query", e.getMessage());
                if (isAdmin(path)) {
                    respond(ctx, bad, keepAlive, 0);
                } else {
                    String apiPath = settings.apiPath(path);
                    finish(ctx, new Call(at, method, apiPath == null ? path : apiPath, null, null, null, keepAlive,
                            apiPath == null), 0, bad);
                }
                return;
            }
            path = uri.path();
            if (isAdmin(path)) {
                admin(ctx, request, uri, keepAlive);
                return;
            }
            String apiPath = settings.apiPath(path);
            if (apiPath == null) {
                // Journaled with its own path (the admin API may see it); logged without it, since it may hold a
                // near-miss of a secret base path.
                finish(ctx, new Call(at, method, path, null, null, null, keepAlive, true), 0,
                        Problems.problem(404, "not-found", "no such resource"));
                return;
            }
            api(ctx, request, uri, new Call(at, method, apiPath, null, null, null, keepAlive, false));
        } catch (RuntimeException | UriParts.Invalid e) {
            // Never the exception's message: it may quote the request (a query string, a header value).
            LOG.error("unexpected failure handling {} {}: {}", method, path == null ? "(path unread)" : logPath(path),
                    describe(e));
            respond(ctx, Problems.problem(500, "internal", "the server failed; see its log"), false, 0);
        }
    }

    /** True for the admin API's paths, which are never faulted or journaled. */
    static boolean isAdmin(String path) {
        return path.equals(ADMIN_PREFIX) || path.startsWith(ADMIN_PREFIX + "/");
    }

    /** Answers a request refused before it was whole; journaled when its head named a seat-API path. */
    private void refuse(ChannelHandlerContext ctx, Refusal refusal) {
        Reply reply = Problems.problem(refusal.status(), refusal.slug(), refusal.detail());
        if (refusal.uri() != null) {
            try {
                String path = UriParts.parse(refusal.uri()).path();
                String apiPath = isAdmin(path) ? null : settings.apiPath(path);
                if (apiPath != null) {
                    finish(ctx, new Call(core.clock().instant(), refusal.method(), apiPath, null, null, null, false,
                            false), 0, reply);
                    return;
                }
            } catch (UriParts.Invalid e) {
                // Not journaled: its path cannot be named.
            }
        }
        respond(ctx, reply, false, 0);
    }

    // ---------------------------------------------------------------- seat API

    private void api(ChannelHandlerContext ctx, FullHttpRequest request, UriParts uri, Call call) {
        String path = call.path();
        HttpMethod method = request.method();
        if (path.equals(SEATS)) {
            if (method.equals(HttpMethod.POST)) {
                postSeat(ctx, request, call);
            } else if (method.equals(HttpMethod.GET)) {
                listSeats(ctx, request, uri, call);
            } else {
                finish(ctx, call, 0, Problems.problem(405, "method-not-allowed", "use GET or POST on " + SEATS)
                        .withHeader(HttpHeaderNames.ALLOW, "GET, POST"));
            }
            return;
        }
        if (path.startsWith(SEATS + "/") && path.indexOf('/', SEATS.length() + 1) < 0
                && path.length() > SEATS.length() + 1) {
            if (method.equals(HttpMethod.GET)) {
                String id = path.substring(SEATS.length() + 1);
                if (!plainText(id)) {
                    // No seat id holds one; asking the store would make PostgreSQL refuse a NUL with a 503.
                    finish(ctx, call, 0, Problems.problem(404, "seat-not-found", "no seat has this id"));
                    return;
                }
                dispatch(ctx, call, "GET " + path, hold -> later(hold, () -> core.store().find(id)
                        .map(seat -> Reply.json(200, JsonViews.seat(seat)).withSeat(seat.id(), false))
                        .orElseGet(() -> Problems.problem(404, "seat-not-found", "no seat has this id"))));
            } else {
                finish(ctx, call, 0, Problems.problem(405, "method-not-allowed", "use GET on a seat")
                        .withHeader(HttpHeaderNames.ALLOW, "GET"));
            }
            return;
        }
        finish(ctx, call, 0, Problems.problem(404, "not-found", "no such resource"));
    }

    private void postSeat(ChannelHandlerContext ctx, FullHttpRequest request, Call call) {
        List<String> keys = request.headers().getAll("Idempotency-Key");
        if (keys.size() > 1) {
            finish(ctx, call, 0, Problems.problem(400, "invalid-idempotency-key", "send one Idempotency-Key header"));
            return;
        }
        String key = keys.isEmpty() ? null : keys.get(0);
        if (key != null && !validKey(key)) {
            finish(ctx, call, 0, Problems.problem(400, "invalid-idempotency-key",
                    "Idempotency-Key must be 1 to " + MAX_KEY_LENGTH + " visible ASCII characters (no spaces)"));
            return;
        }
        Call keyed = call.withKey(key);
        if (key == null && core.requireKey()) {
            finish(ctx, keyed, 0, Problems.problem(400, "missing-idempotency-key",
                    "this server requires an Idempotency-Key on POST " + SEATS));
            return;
        }
        Optional<String> badType = contentTypeProblem(request.headers().get(HttpHeaderNames.CONTENT_TYPE));
        if (badType.isPresent()) {
            finish(ctx, keyed, 0, Problems.problem(415, "unsupported-media-type", badType.get()));
            return;
        }
        byte[] body = new byte[request.content().readableBytes()];
        request.content().getBytes(request.content().readerIndex(), body);
        GrantRequest grant;
        try {
            grant = GrantRequest.parse(body);
        } catch (GrantRequest.Invalid e) {
            finish(ctx, keyed, 0, Problems.problem(400, e.slug(), e.getMessage()));
            return;
        }
        String identity = key != null ? "key:" + key : "body:" + grant.canonicalHash();
        // The grant completes on the store's writer thread; the answer is built on this connection's event loop,
        // so the writer (the durable store's throughput) spends no time on JSON and headers.
        dispatch(ctx, keyed.withIds(grant.workspaceId(), grant.userId()), identity,
                hold -> core.grants().grant(grant, key, hold).thenApplyAsync(this::grantReply, ctx.executor()));
    }

    private Reply grantReply(Outcome outcome) {
        if (outcome instanceof Outcome.Created created) {
            return Reply.json(201, JsonViews.seat(created.seat()))
                    .withHeader(HttpHeaderNames.LOCATION, settings.basePath() + SEATS + "/" + created.seat().id())
                    .withSeat(created.seat().id(), true);
        }
        if (outcome instanceof Outcome.Replayed replayed) {
            int status = core.replayStatus() == ReplayStatus.ORIGINAL ? 201 : 409;
            return Reply.json(status, JsonViews.seat(replayed.seat()))
                    .withHeader(HttpHeaderNames.LOCATION, settings.basePath() + SEATS + "/" + replayed.seat().id())
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

    private void listSeats(ChannelHandlerContext ctx, FullHttpRequest request, UriParts uri, Call call) {
        String workspaceId = uri.first("workspaceId");
        String userId = uri.first("userId");
        Call filtered = call.withIds(workspaceId, userId);
        for (String value : new String[] {workspaceId, userId}) {
            if (value == null) {
                continue;
            }
            String why = GrantRequest.idProblem(value);
            if (why != null) {
                // The same rule as a POST body's ids: a filter no grant could hold is refused, not trimmed into
                // another id (a check-then-POST client would then never see its own seat).
                finish(ctx, filtered, 0, Problems.problem(400, "invalid-query", "workspaceId and userId " + why));
                return;
            }
        }
        dispatch(ctx, filtered, "GET " + UriParts.originForm(request.uri()), hold -> later(hold,
                () -> Reply.json(200, JsonViews.seats(core.store().list(workspaceId, userId, MAX_LIST)))));
    }

    private CompletableFuture<Reply> later(long holdMs, java.util.function.Supplier<Reply> read) {
        java.util.concurrent.Executor executor = holdMs <= 0 ? core.dbExecutor()
                : CompletableFuture.delayedExecutor(holdMs, TimeUnit.MILLISECONDS, core.dbExecutor());
        return CompletableFuture.supplyAsync(read, executor);
    }

    /**
     * Asks the plan once and obeys: a before-commit fault replaces the work; otherwise the work runs (held for
     * a {@code delay}) and an after-commit fault replaces its answer.
     */
    private void dispatch(ChannelHandlerContext ctx, Call call, String identity,
                          LongFunction<CompletableFuture<Reply>> work) {
        FaultPlanner.Decision decision = core.planner().decide(call.method(), call.path(), identity);
        FaultRule rule = decision.rule();
        int attempt = decision.attempt();
        if (rule != null && rule.fault().phase() == Fault.Phase.BEFORE_COMMIT && rule.fault() != Fault.DELAY) {
            after(ctx, delayOf(rule), () -> strike(ctx, call, attempt, rule, null));
            return;
        }
        long hold = rule != null && rule.fault() == Fault.DELAY ? delayOf(rule) : 0;
        work.apply(hold).whenComplete((reply, failure) -> onEventLoop(ctx, () -> {
            Reply answer = reply;
            if (failure != null) {
                LOG.warn("store call failed for {} {}: {}", call.method(), logPath(call), rootCause(failure));
                answer = Problems.problem(503, "store-unavailable", "the seat store failed; retry later")
                        .withHeader(HttpHeaderNames.RETRY_AFTER, 1);
            }
            if (rule != null && rule.fault().phase() == Fault.Phase.AFTER_COMMIT) {
                Reply committed = answer;
                long wait = rule.fault() == Fault.HANG_AFTER_COMMIT ? 0 : delayOf(rule);
                after(ctx, wait, () -> strike(ctx, call, attempt, rule, committed));
            } else {
                finish(ctx, call, attempt, answer, rule == null ? null : rule.fault());
            }
        }));
    }

    private static void onEventLoop(ChannelHandlerContext ctx, Runnable action) {
        if (ctx.executor().inEventLoop()) {
            action.run();
        } else {
            ctx.executor().execute(action);
        }
    }

    /** Carries out a fault. {@code done} is what the server did first (nullable: a before-commit fault). */
    private void strike(ChannelHandlerContext ctx, Call call, int attempt, FaultRule rule, Reply done) {
        boolean committed = done != null && done.committed();
        String seatId = done == null ? null : done.seatId();
        Fault fault = rule.fault();
        switch (fault) {
            case RESET, RESET_AFTER_COMMIT -> {
                record(call, call.entry(attempt, fault, committed, seatId, null), true);
                closing = true;
                // SO_LINGER 0 makes close() send RST instead of FIN: the client sees "connection reset".
                ctx.channel().config().setOption(ChannelOption.SO_LINGER, 0);
                ctx.close();
            }
            case CLOSE, CLOSE_AFTER_COMMIT -> {
                record(call, call.entry(attempt, fault, committed, seatId, null), true);
                closing = true;
                ctx.close();
            }
            case HANG_AFTER_COMMIT -> {
                record(call, call.entry(attempt, fault, committed, seatId, null), true);
                long hold = rule.delayMs() != null ? rule.delayMs() : core.defaultHangMs();
                // Nothing more is answered on this connection; reading on (and dropping) lets a client's close end
                // the hang at once, so a departed client frees its place under the connection cap.
                closing = true;
                drop();
                guard.discardInput();
                // No thread waits here: the handler stays busy (so reads stay off and the guard sets no
                // deadline) and a timer on the channel's event loop ends the hang.
                io.netty.util.concurrent.ScheduledFuture<?> end = ctx.executor().schedule(() -> {
                    closing = true;
                    ctx.close();
                }, hold, TimeUnit.MILLISECONDS);
                ctx.channel().closeFuture().addListener(f -> end.cancel(false));
            }
            case STATUS, STATUS_AFTER_COMMIT -> {
                Reply reply = Problems.problem(rule.status(), "injected-fault",
                        "the fault plan answered this request with " + rule.status());
                if (rule.retryAfter() != null) {
                    reply = reply.withHeader(HttpHeaderNames.RETRY_AFTER, rule.retryAfter());
                }
                finish(ctx, call, attempt, reply.withSeat(seatId, committed), fault);
            }
            case DELAY -> throw new IllegalStateException("delay is not a striking fault");
        }
    }

    private void finish(ChannelHandlerContext ctx, Call call, int attempt, Reply reply) {
        finish(ctx, call, attempt, reply, null);
    }

    private void finish(ChannelHandlerContext ctx, Call call, int attempt, Reply reply, Fault fault) {
        long seq = record(call, call.entry(attempt, fault, reply.committed(), reply.seatId(), reply.status()), false);
        respond(ctx, reply, call.keepAlive(), seq);
    }

    private long record(Call call, JournalEntry entry, boolean settled) {
        long seq = core.journal().record(entry, settled);
        LOG.debug("{} {} -> {} fault={} committed={}", entry.method(), logPath(call), entry.status(), entry.fault(),
                entry.committed());
        return seq;
    }

    private static void after(ChannelHandlerContext ctx, long delayMs, Runnable action) {
        if (delayMs <= 0) {
            action.run();
        } else {
            ctx.executor().schedule(action, delayMs, TimeUnit.MILLISECONDS);
        }
    }

    private static long delayOf(FaultRule rule) {
        return rule.delayMs() == null ? 0 : rule.delayMs();
    }

    // ---------------------------------------------------------------- admin API

    private void admin(ChannelHandlerContext ctx, FullHttpRequest request, UriParts uri, boolean keepAlive) {
        if (AdminPage.owns(uri.path())) {
            // The page holds no data, so it needs no token; everything it shows comes through the checks below.
            respond(ctx, AdminPage.reply(request.method(), uri.path()), keepAlive, 0);
            return;
        }
        Optional<Reply> denied = adminDenied(ctx, request);
        if (denied.isPresent()) {
            respond(ctx, denied.get(), keepAlive, 0);
            return;
        }
        HttpMethod method = request.method();
        switch (uri.path()) {
            case ADMIN_PREFIX + "/health" -> {
                if (method.equals(HttpMethod.GET)) {
                    respond(ctx, Reply.json(200, JsonNodeFactory.instance.objectNode().put("status", "ok")),
                            keepAlive, 0);
                } else {
                    respond(ctx, notAllowed("GET"), keepAlive, 0);
                }
            }
            case ADMIN_PREFIX + "/faults" -> {
                if (method.equals(HttpMethod.GET)) {
                    respond(ctx, planReply(core.planner().plan()), keepAlive, 0);
                } else if (method.equals(HttpMethod.POST) || method.equals(HttpMethod.PUT)) {
                    try {
                        FaultPlan plan = planFrom(request);
                        core.planner().replace(plan);
                        respond(ctx, planReply(plan), keepAlive, 0);
                    } catch (InvalidFaultPlanException e) {
                        respond(ctx, Problems.problem(400, "invalid-fault-plan", e.getMessage()), keepAlive, 0);
                    }
                } else if (method.equals(HttpMethod.DELETE)) {
                    core.planner().replace(FaultPlan.none());
                    respond(ctx, Reply.empty(204), keepAlive, 0);
                } else {
                    respond(ctx, notAllowed("GET, POST, DELETE"), keepAlive, 0);
                }
            }
            case ADMIN_PREFIX + "/requests" -> {
                if (!method.equals(HttpMethod.GET)) {
                    respond(ctx, notAllowed("GET"), keepAlive, 0);
                    return;
                }
                String after = uri.first("after");
                if (after == null) {
                    journalReply(ctx, keepAlive, () -> core.journal().snapshot());
                    return;
                }
                long seq;
                try {
                    seq = Long.parseLong(after);
                } catch (NumberFormatException e) {
                    seq = -1;
                }
                if (seq < 0 || !after.matches("[0-9]+")) {
                    respond(ctx, Problems.problem(400, "invalid-query", "after must be a journal seq, 0 or more"),
                            keepAlive, 0);
                    return;
                }
                long from = seq;
                // after=0 is the whole journal too.
                journalReply(ctx, keepAlive, () -> core.journal().after(from));
            }
            case ADMIN_PREFIX + "/ledger" -> {
                if (method.equals(HttpMethod.GET)) {
                    async(ctx, keepAlive, () -> Reply.json(200, JsonViews.ledger(core.store().ledger())));
                } else {
                    respond(ctx, notAllowed("GET"), keepAlive, 0);
                }
            }
            case ADMIN_PREFIX + "/reset" -> {
                if (method.equals(HttpMethod.POST)) {
                    async(ctx, keepAlive, () -> {
                        core.store().reset();
                        core.journal().clear();
                        core.planner().reset();
                        return Reply.empty(204);
                    });
                } else {
                    respond(ctx, notAllowed("POST"), keepAlive, 0);
                }
            }
            default -> respond(ctx, Problems.problem(404, "not-found", "no such admin resource"), keepAlive, 0);
        }
    }

    /**
     * The plan a {@code POST /__admin/faults} body asks for: a whole plan, or {@code {"scenario": "NAME"}} for a
     * shipped one.
     */
    private static FaultPlan planFrom(FullHttpRequest request) {
        String text;
        try {
            text = strictUtf8(request.content().nioBuffer());
        } catch (CharacterCodingException e) {
            throw new InvalidFaultPlanException("fault plan is not valid UTF-8");
        }
        JsonNode root;
        try {
            root = JSON.readTree(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            root = null;
        }
        if (root != null && root.isObject() && root.has("scenario")) {
            JsonNode name = root.get("scenario");
            if (root.size() != 1 || !name.isTextual()) {
                throw new InvalidFaultPlanException("a scenario request is {\"scenario\": \"NAME\"} and nothing else");
            }
            if (!FaultPlan.SCENARIOS.contains(name.textValue())) {
                throw new InvalidFaultPlanException("unknown scenario; known: " + String.join(", ", FaultPlan.SCENARIOS));
            }
            return FaultPlan.scenario(name.textValue());
        }
        return FaultPlan.parse(text);
    }

    /** The shipped scenarios' plans, loaded once, to name the one a plan in force came from. */
    private static final class Shipped {
        static final Map<String, FaultPlan> PLANS;

        static {
            Map<String, FaultPlan> plans = new LinkedHashMap<>();
            FaultPlan.SCENARIOS.forEach(name -> plans.put(name, FaultPlan.scenario(name)));
            PLANS = Map.copyOf(plans);
        }

        static String nameOf(FaultPlan plan) {
            for (String name : FaultPlan.SCENARIOS) {
                if (PLANS.get(name).equals(plan)) {
                    return name;
                }
            }
            return null;
        }
    }

    private Optional<Reply> adminDenied(ChannelHandlerContext ctx, FullHttpRequest request) {
        if (core.adminToken() != null) {
            if (!bearerMatches(request.headers().get(HttpHeaderNames.AUTHORIZATION), core.adminToken())) {
                return Optional.of(Problems.problem(401, "unauthorized", "the admin API needs the bearer token")
                        .withHeader(HttpHeaderNames.WWW_AUTHENTICATE, "Bearer"));
            }
            return Optional.empty();
        }
        if (ctx.channel().remoteAddress() instanceof InetSocketAddress remote
                && remote.getAddress() != null && remote.getAddress().isLoopbackAddress()) {
            return Optional.empty();
        }
        return Optional.of(Problems.problem(403, "admin-loopback-only",
                "the admin API answers loopback clients unless the server has an admin token"));
    }

    /**
     * True when {@code header} is {@code Bearer <token>}: the scheme in any case (RFC 9110 makes it
     * case-insensitive), one or more spaces, then exactly the token, compared in constant time so the token does
     * not leak through response timing.
     */
    static boolean bearerMatches(String header, String token) {
        if (header == null) {
            return false;
        }
        int space = header.indexOf(' ');
        if (space < 0 || !header.substring(0, space).equalsIgnoreCase("Bearer")) {
            return false;
        }
        String given = header.substring(space).stripLeading();
        return MessageDigest.isEqual(token.getBytes(StandardCharsets.UTF_8), given.getBytes(StandardCharsets.UTF_8));
    }

    private static Reply planReply(FaultPlan plan) {
        try {
            ObjectNode node = (ObjectNode) JSON.readTree(plan.toJson());
            node.put("scenario", Shipped.nameOf(plan));
            return Reply.json(200, node);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("a plan always serialises", e);
        }
    }

    private static Reply notAllowed(String allow) {
        return Problems.problem(405, "method-not-allowed", "allowed: " + allow).withHeader(HttpHeaderNames.ALLOW, allow);
    }

    /** Runs an admin store call on the store's executor; a failure is a 503, since the store is what failed. */
    private void async(ChannelHandlerContext ctx, boolean keepAlive, java.util.function.Supplier<Reply> work) {
        answerWhenDone(ctx, keepAlive, CompletableFuture.supplyAsync(work, core.dbExecutor()), failure -> {
            LOG.warn("admin store call failed: {}", rootCause(failure));
            return Problems.problem(503, "store-unavailable", "the seat store failed");
        });
    }

    /**
     * Writes back, on this channel's loop, a reply built elsewhere: store calls, and replies that are not store
     * calls but may be large (the whole journal: tens of megabytes of JSON), so the loop keeps serving its other
     * connections meanwhile.
     */
    private void answerWhenDone(ChannelHandlerContext ctx, boolean keepAlive, CompletableFuture<Reply> work,
                                java.util.function.Function<Throwable, Reply> onFailure) {
        work.whenComplete((reply, failure) -> ctx.executor().execute(
                () -> respond(ctx, failure == null ? reply : onFailure.apply(failure), keepAlive, 0)));
    }

    /**
     * Renders the journal (or a part of it) off the event loop, one render at a time across the server; a failure
     * is the server's own, a 500.
     */
    private void journalReply(ChannelHandlerContext ctx, boolean keepAlive,
                              java.util.function.Supplier<List<JournalEntry>> entries) {
        answerWhenDone(ctx, keepAlive, core.journal().renderInTurn(
                () -> Reply.json(200, JsonViews.journal(entries.get())), core.dbExecutor()), failure -> {
            LOG.error("unexpected failure rendering the journal: {}", describe(failure));
            return Problems.problem(500, "internal", "the server failed; see its log");
        });
    }

    // ---------------------------------------------------------------- wire helpers

    /**
     * Writes the answer to the current request, then settles its journal entry ({@code seq}, 0 for none) and
     * either closes the connection or moves on to the next queued request.
     */
    private void respond(ChannelHandlerContext ctx, Reply reply, boolean keepAlive, long seq) {
        if (!ctx.channel().isActive()) {
            if (seq > 0) {
                core.journal().settle(seq, false);
            }
            return;
        }
        guard.writing(true);
        ctx.writeAndFlush(toResponse(reply, keepAlive)).addListener((ChannelFutureListener) f -> {
            guard.writing(false);
            if (seq > 0) {
                core.journal().settle(seq, f.isSuccess());
            }
            if (!f.isSuccess()) {
                closing = true;
                f.channel().close();
            } else if (!keepAlive) {
                // The response said "connection: close": nothing after this request is answered.
                closing = true;
                drop();
                guard.lingerClose();
            } else {
                // Not inline: a write can complete within writeAndFlush, and a long pipeline must not recurse.
                ctx.executor().execute(() -> next(ctx));
            }
        });
    }

    static FullHttpResponse toResponse(Reply reply, boolean keepAlive) {
        // 204 and 304 never carry a body (RFC 9110): bytes after their headers would be read as the start of the
        // next response on a kept-alive connection. A status fault may ask for either.
        boolean bodyless = reply.status() == 204 || reply.status() == 304;
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                HttpResponseStatus.valueOf(reply.status()),
                bodyless ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(reply.body()));
        response.headers().add(reply.headers());
        if (bodyless) {
            return keepAlive ? response : withClose(response);
        }
        if (reply.contentType() != null) {
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, reply.contentType());
        }
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, reply.body().length);
        return keepAlive ? response : withClose(response);
    }

    private static FullHttpResponse withClose(FullHttpResponse response) {
        response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        return response;
    }

    private static Optional<String> contentTypeProblem(String contentType) {
        if (contentType == null) {
            return Optional.of("send the body as application/json");
        }
        String[] parts = contentType.split(";");
        String type = parts[0].strip().toLowerCase(Locale.ROOT);
        if (!type.equals("application/json") && !(type.startsWith("application/") && type.endsWith("+json"))) {
            return Optional.of("the body must be application/json");
        }
        for (int i = 1; i < parts.length; i++) {
            String param = parts[i].strip().toLowerCase(Locale.ROOT);
            if (param.startsWith("charset=") && !param.equals("charset=utf-8") && !param.equals("charset=\"utf-8\"")) {
                return Optional.of("the body must be UTF-8");
            }
        }
        return Optional.empty();
    }

    static String strictUtf8(ByteBuffer bytes) throws CharacterCodingException {
        return StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(bytes).toString();
    }

    private static boolean plainText(String value) {
        return value.chars().noneMatch(Character::isISOControl);
    }

    /** 1 to 255 characters, each visible ASCII (0x21 to 0x7E): no space, no control character, nothing else. */
    private static boolean validKey(String key) {
        if (key.isEmpty() || key.length() > MAX_KEY_LENGTH) {
            return false;
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c < 0x21 || c > 0x7e) {
                return false;
            }
        }
        return true;
    }

    private String logPath(Call call) {
        return call.outside() ? "(outside the base path)" : safePath(call.path());
    }

    /** A request path as a log line may show it: never the base path, which may hold a secret-looking token. */
    private String logPath(String path) {
        if (isAdmin(path)) {
            return safePath(path);
        }
        String apiPath = settings.apiPath(path);
        return apiPath == null ? "(outside the base path)" : safePath(apiPath);
    }

    /**
     * Paths are logged, but never query strings; a path longer than a screen line is cut, and control characters
     * (a decoded {@code %0A} would start a forged log line) become {@code ?}.
     */
    private static String safePath(String path) {
        String cut = path.length() > 80 ? path.substring(0, 80) + "..." : path;
        return cut.replaceAll("\\p{Cntrl}", "?");
    }

    private static String rootCause(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName();
    }

    /** A failure as a log line may show it: the classes in its cause chain and where it was thrown, no message. */
    private static String describe(Throwable t) {
        StringBuilder out = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (out.length() > 0) {
                out.append(" <- ");
            }
            out.append(c.getClass().getName());
            if (c.getStackTrace().length > 0) {
                out.append(" at ").append(c.getStackTrace()[0]);
            }
        }
        return out.toString();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // Mostly clients resetting connections; never log the message (it can carry request bytes).
        LOG.debug("connection error: {}", cause.getClass().getSimpleName());
        closing = true;
        ctx.close();
    }
}
