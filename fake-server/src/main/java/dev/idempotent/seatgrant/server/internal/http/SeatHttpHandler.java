package dev.idempotent.seatgrant.server.internal.http;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
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
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes every request: the seat API (through the fault plan) and the admin API (never faulted).
 *
 * <p>Runs on Netty's event loop and never blocks it: store calls go to the core's executor, waits are timers
 * scheduled on the channel's own event loop, and a hung connection is just a channel with reads switched off.
 * One instance serves every channel.
 */
@ChannelHandler.Sharable
public final class SeatHttpHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

    static final String ADMIN_PREFIX = "/__admin";
    private static final String SEATS = "/v1/seats";
    private static final int MAX_KEY_LENGTH = 255;
    private static final int MAX_LIST = 1000;
    private static final String REPLAYED = "Idempotent-Replayed";
    private static final Logger LOG = LoggerFactory.getLogger("dev.idempotent.seatgrant.server.requests");

    private final ServerCore core;

    public SeatHttpHandler(ServerCore core) {
        super(true);
        this.core = core;
    }

    /** What the journal needs to know about a request whose outcome is not known yet. */
    private record Call(long place, Instant at, String method, String path, String key, boolean keepAlive) {
        JournalEntry entry(int attempt, Fault fault, boolean committed, String seatId, Integer status) {
            return new JournalEntry(at, method, path, key, attempt, fault == null ? null : fault.wireName(),
                    committed, seatId, status);
        }
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        // One request at a time per connection: reads resume when the answer is written (or never, for a hang).
        ctx.channel().config().setAutoRead(false);
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        Instant at = core.clock().instant();
        if (request.decoderResult().isFailure()) {
            respond(ctx, Problems.problem(400, "malformed-request", "the request is not valid HTTP/1.1"), false);
            return;
        }
        String path = new QueryStringDecoder(request.uri()).path();
        try {
            if (isAdmin(path)) {
                admin(ctx, request, path, keepAlive);
            } else {
                api(ctx, request, new Call(core.journal().arrive(), at, request.method().name(), path, null, keepAlive));
            }
        } catch (RuntimeException e) {
            LOG.error("unexpected failure handling {} {}", request.method().name(), safePath(path), e);
            respond(ctx, Problems.problem(500, "internal", "the server failed; see its log"), false);
        }
    }

    /** True for the admin API's paths, which are never faulted or journaled. */
    static boolean isAdmin(String path) {
        return path.equals(ADMIN_PREFIX) || path.startsWith(ADMIN_PREFIX + "/");
    }

    // ---------------------------------------------------------------- seat API

    private void api(ChannelHandlerContext ctx, FullHttpRequest request, Call call) {
        String path = call.path();
        HttpMethod method = request.method();
        if (path.equals(SEATS)) {
            if (method.equals(HttpMethod.POST)) {
                postSeat(ctx, request, call);
            } else if (method.equals(HttpMethod.GET)) {
                listSeats(ctx, request, call);
            } else {
                finish(ctx, call, 0, Problems.problem(405, "method-not-allowed", "use GET or POST on " + SEATS)
                        .withHeader(HttpHeaderNames.ALLOW, "GET, POST"));
            }
            return;
        }
        if (path.startsWith(SEATS + "/") && path.indexOf('/', SEATS.length() + 1) < 0 && path.length() > SEATS.length() + 1) {
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
                    "Idempotency-Key must be 1 to " + MAX_KEY_LENGTH + " printable ASCII characters"));
            return;
        }
        Call keyed = new Call(call.place(), call.at(), call.method(), call.path(), key, call.keepAlive());
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
        dispatch(ctx, keyed, identity, hold -> core.grants().grant(grant, key, hold).thenApply(this::grantReply));
    }

    private Reply grantReply(Outcome outcome) {
        if (outcome instanceof Outcome.Created created) {
            return Reply.json(201, JsonViews.seat(created.seat()))
                    .withHeader(HttpHeaderNames.LOCATION, SEATS + "/" + created.seat().id())
                    .withSeat(created.seat().id(), true);
        }
        if (outcome instanceof Outcome.Replayed replayed) {
            int status = core.replayStatus() == ReplayStatus.ORIGINAL ? 201 : 409;
            return Reply.json(status, JsonViews.seat(replayed.seat()))
                    .withHeader(HttpHeaderNames.LOCATION, SEATS + "/" + replayed.seat().id())
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

    private void listSeats(ChannelHandlerContext ctx, FullHttpRequest request, Call call) {
        QueryStringDecoder query = new QueryStringDecoder(request.uri());
        String workspaceId = single(query, "workspaceId");
        String userId = single(query, "userId");
        if ("".equals(workspaceId) || "".equals(userId)) {
            finish(ctx, call, 0, Problems.problem(400, "invalid-query", "workspaceId and userId must not be blank"));
            return;
        }
        if ((workspaceId != null && !plainText(workspaceId)) || (userId != null && !plainText(userId))) {
            // No grant can hold such a value (GrantRequest refuses it), and PostgreSQL would refuse a NUL with a 503.
            finish(ctx, call, 0, Problems.problem(400, "invalid-query",
                    "workspaceId and userId must not contain control characters"));
            return;
        }
        dispatch(ctx, call, "GET " + request.uri(), hold -> later(hold,
                () -> Reply.json(200, JsonViews.seats(core.store().list(workspaceId, userId, MAX_LIST)))));
    }

    private static String single(QueryStringDecoder query, String name) {
        List<String> values = query.parameters().get(name);
        return values == null || values.isEmpty() ? null : values.get(0).strip();
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
    private void dispatch(ChannelHandlerContext ctx, Call call, String identity, LongFunction<CompletableFuture<Reply>> work) {
        FaultPlanner.Decision decision = core.planner().decide(call.method(), call.path(), identity);
        FaultRule rule = decision.rule();
        int attempt = decision.attempt();
        if (rule != null && rule.fault().phase() == Fault.Phase.BEFORE_COMMIT && rule.fault() != Fault.DELAY) {
            after(ctx, delayOf(rule), () -> strike(ctx, call, attempt, rule, null));
            return;
        }
        long hold = rule != null && rule.fault() == Fault.DELAY ? delayOf(rule) : 0;
        work.apply(hold).whenComplete((reply, failure) -> ctx.executor().execute(() -> {
            Reply answer = reply;
            if (failure != null) {
                LOG.warn("store call failed for {} {}: {}", call.method(), safePath(call.path()), rootCause(failure));
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

    /** Carries out a fault. {@code done} is what the server did first (nullable: a before-commit fault). */
    private void strike(ChannelHandlerContext ctx, Call call, int attempt, FaultRule rule, Reply done) {
        boolean committed = done != null && done.committed();
        String seatId = done == null ? null : done.seatId();
        Fault fault = rule.fault();
        switch (fault) {
            case RESET, RESET_AFTER_COMMIT -> {
                record(call, call.entry(attempt, fault, committed, seatId, null));
                // SO_LINGER 0 makes close() send RST instead of FIN: the client sees "connection reset".
                ctx.channel().config().setOption(ChannelOption.SO_LINGER, 0);
                ctx.close();
            }
            case CLOSE, CLOSE_AFTER_COMMIT -> {
                record(call, call.entry(attempt, fault, committed, seatId, null));
                ctx.close();
            }
            case HANG_AFTER_COMMIT -> {
                record(call, call.entry(attempt, fault, committed, seatId, null));
                long hold = rule.delayMs() != null ? rule.delayMs() : core.defaultHangMs();
                // No thread waits here: the channel keeps reads off and a timer on its event loop ends the hang.
                ScheduledFuture<?> end = ctx.executor().schedule(() -> {
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
        record(call, call.entry(attempt, fault, reply.committed(), reply.seatId(), reply.status()));
        respond(ctx, reply, call.keepAlive());
    }

    private void record(Call call, JournalEntry entry) {
        core.journal().record(call.place(), entry);
        LOG.debug("{} {} -> {} fault={} committed={}", entry.method(), safePath(entry.path()),
                entry.status(), entry.fault(), entry.committed());
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

    private void admin(ChannelHandlerContext ctx, FullHttpRequest request, String path, boolean keepAlive) {
        if (AdminPage.owns(path)) {
            // The page holds no data, so it needs no token; everything it shows comes through the checks below.
            respond(ctx, AdminPage.reply(request.method(), path), keepAlive);
            return;
        }
        Optional<Reply> denied = adminDenied(ctx, request);
        if (denied.isPresent()) {
            respond(ctx, denied.get(), keepAlive);
            return;
        }
        HttpMethod method = request.method();
        switch (path) {
            case ADMIN_PREFIX + "/health" -> {
                if (method.equals(HttpMethod.GET)) {
                    respond(ctx, Reply.json(200, JsonNodeFactory.instance.objectNode().put("status", "ok")), keepAlive);
                } else {
                    respond(ctx, notAllowed("GET"), keepAlive);
                }
            }
            case ADMIN_PREFIX + "/faults" -> {
                if (method.equals(HttpMethod.GET)) {
                    respond(ctx, planReply(core.planner().plan()), keepAlive);
                } else if (method.equals(HttpMethod.POST) || method.equals(HttpMethod.PUT)) {
                    try {
                        FaultPlan plan = FaultPlan.parse(request.content().toString(StandardCharsets.UTF_8));
                        core.planner().replace(plan);
                        respond(ctx, planReply(plan), keepAlive);
                    } catch (InvalidFaultPlanException e) {
                        respond(ctx, Problems.problem(400, "invalid-fault-plan", e.getMessage()), keepAlive);
                    }
                } else if (method.equals(HttpMethod.DELETE)) {
                    core.planner().replace(FaultPlan.none());
                    respond(ctx, Reply.empty(204), keepAlive);
                } else {
                    respond(ctx, notAllowed("GET, POST, DELETE"), keepAlive);
                }
            }
            case ADMIN_PREFIX + "/requests" -> {
                if (method.equals(HttpMethod.GET)) {
                    respond(ctx, Reply.json(200, JsonViews.journal(core.journal().snapshot())), keepAlive);
                } else {
                    respond(ctx, notAllowed("GET"), keepAlive);
                }
            }
            case ADMIN_PREFIX + "/ledger" -> {
                if (method.equals(HttpMethod.GET)) {
                    async(ctx, keepAlive, () -> Reply.json(200, JsonViews.ledger(core.store().ledger())));
                } else {
                    respond(ctx, notAllowed("GET"), keepAlive);
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
                    respond(ctx, notAllowed("POST"), keepAlive);
                }
            }
            default -> respond(ctx, Problems.problem(404, "not-found", "no such admin resource"), keepAlive);
        }
    }

    private Optional<Reply> adminDenied(ChannelHandlerContext ctx, FullHttpRequest request) {
        if (core.adminToken() != null) {
            String header = request.headers().get(HttpHeaderNames.AUTHORIZATION);
            byte[] expected = ("Bearer " + core.adminToken()).getBytes(StandardCharsets.UTF_8);
            byte[] given = header == null ? new byte[0] : header.getBytes(StandardCharsets.UTF_8);
            // Constant-time comparison: the token must not leak through response timing.
            if (!MessageDigest.isEqual(expected, given)) {
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

    private static Reply planReply(FaultPlan plan) {
        try {
            return Reply.json(200, new com.fasterxml.jackson.databind.ObjectMapper().readTree(plan.toJson()));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("a plan always serialises", e);
        }
    }

    private static Reply notAllowed(String allow) {
        return Problems.problem(405, "method-not-allowed", "allowed: " + allow).withHeader(HttpHeaderNames.ALLOW, allow);
    }

    private void async(ChannelHandlerContext ctx, boolean keepAlive, java.util.function.Supplier<Reply> work) {
        CompletableFuture.supplyAsync(work, core.dbExecutor()).whenComplete((reply, failure) -> ctx.executor().execute(() -> {
            if (failure != null) {
                LOG.warn("admin store call failed: {}", rootCause(failure));
                respond(ctx, Problems.problem(503, "store-unavailable", "the seat store failed"), keepAlive);
            } else {
                respond(ctx, reply, keepAlive);
            }
        }));
    }

    // ---------------------------------------------------------------- wire helpers

    private static void respond(ChannelHandlerContext ctx, Reply reply, boolean keepAlive) {
        if (!ctx.channel().isActive()) {
            return;
        }
        ctx.writeAndFlush(toResponse(reply, keepAlive)).addListener((ChannelFutureListener) f -> {
            if (!keepAlive || !f.isSuccess()) {
                f.channel().close();
            } else {
                f.channel().config().setAutoRead(true);
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

    private static boolean plainText(String value) {
        return value.chars().noneMatch(Character::isISOControl);
    }

    private static boolean validKey(String key) {
        if (key.isEmpty() || key.length() > MAX_KEY_LENGTH) {
            return false;
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c < 0x20 || c > 0x7e) {
                return false;
            }
        }
        return true;
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

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // Mostly clients resetting connections; never log the message (it can carry request bytes).
        LOG.debug("connection error: {}", cause.getClass().getSimpleName());
        ctx.close();
    }
}
