package dev.idempotent.seatgrant.server.internal.http.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.idempotent.seatgrant.server.FaultPlan;
import dev.idempotent.seatgrant.server.ProxyLedger;
import dev.idempotent.seatgrant.server.internal.ResetGenerations;
import dev.idempotent.seatgrant.server.internal.http.Exchange;
import dev.idempotent.seatgrant.server.internal.http.KeyHeader;
import dev.idempotent.seatgrant.server.internal.http.LogSafe;
import dev.idempotent.seatgrant.server.internal.http.Problems;
import dev.idempotent.seatgrant.server.internal.http.Reply;
import dev.idempotent.seatgrant.server.internal.http.Routes;
import dev.idempotent.seatgrant.server.internal.http.UriParts;
import dev.idempotent.seatgrant.server.internal.http.admin.AdminAccess;
import dev.idempotent.seatgrant.server.internal.http.admin.AdminRoutes;
import dev.idempotent.seatgrant.server.internal.http.faults.FaultRunner;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * Every method and path, forwarded to the upstream under the fault plan: a before-commit fault keeps the request
 * from the upstream, an after-commit fault forwards it, waits for the upstream's whole answer and then loses it.
 * What the upstream created is read from each answer to a write into the {@link ResourceLedger}; every request is
 * journaled, refused ones included. A target that names another host is refused: this is not an open proxy.
 *
 * <p>Thread-safe. A request and its upstream call run on its connection's event loop.
 */
public final class ProxyRoutes implements Routes {

    /** The methods whose 2xx answers create something, per the ledger. */
    private static final Set<String> WRITES = Set.of("POST", "PUT", "PATCH");

    private final ProxyCore core;
    private final Forwarding forwarding;
    private final FaultRunner faults;
    private final OwnAuthority own;

    public ProxyRoutes(ProxyCore core) {
        this.core = core;
        this.forwarding = new Forwarding(core.target());
        this.faults = new FaultRunner(core.planner(), core.defaultHangMs(),
                failure -> Problems.problem(502, "proxy-failed", "the proxy failed to forward this request"),
                core.generations());
        this.own = new OwnAuthority(core.boundHost());
    }

    /**
     * The proxy behind the admin API, as {@code proxy} runs it.
     *
     * @param access    who may use the admin API, by which name, from which page: the same rules as {@code serve}'s
     * @param executor  where the admin API writes the journal and the ledger
     * @param scenarios how the admin API loads a shipped scenario (aimed at the proxy's route)
     */
    public static Routes withAdmin(ProxyCore core, AdminAccess access, Executor executor,
                                   Function<String, FaultPlan> scenarios) {
        AdminRoutes admin = new AdminRoutes(new AdminRoutes.Backing(core.journal(), core.planner(),
                () -> ledgerJson(core.ledger().snapshot()), core::reset, access, executor, scenarios));
        // Only its exact paths: what else normalises to /__admin is refused by the proxy, never forwarded.
        return admin.inFrontOf(new ProxyRoutes(core),
                exchange -> AdminPaths.own(path(UriParts.originForm(exchange.request().uri()))));
    }

    @Override
    public void serve(Exchange exchange) {
        FullHttpRequest request = exchange.request();
        String method = exchange.method();
        String target = request.uri();
        boolean connect = request.method().equals(HttpMethod.CONNECT);
        if (connect || !target.startsWith("/")) {
            if (connect || !own.names(target, exchange.localAddress())) {
                refused(exchange, Problems.problem(400, "not-an-open-proxy",
                        "this proxy forwards only to its own upstream, never to a host a request names"));
                return;
            }
            target = UriParts.originForm(target);
        }
        if (AdminPaths.readAsAdmin(path(target))) {
            // Not its own admin API's exact path, yet an upstream that normalises paths may read it as its own.
            refused(exchange, Problems.problem(400, "invalid-path", "the path reads as /__admin once normalised (case, "
                    + "empty segments, ';', backslashes, percent-encoding): never forwarded"));
            return;
        }
        OperationRule rule = core.operations();
        String keyValue;
        try {
            keyValue = rule.keyValue(request);
        } catch (KeyHeader.Ambiguous e) {
            refused(exchange, Problems.problem(400, "ambiguous-key", "two different " + rule.header()
                    + " values (two headers, or a list in one): send one key"));
            return;
        }
        if (OperationRule.emptyKey(keyValue)) {
            // As serve refuses it: an empty key names no operation, and would make all such requests one.
            refused(exchange, Problems.problem(400, "invalid-idempotency-key",
                    rule.header() + " is empty: send a key, or no " + rule.header() + " header"));
            return;
        }
        boolean write = WRITES.contains(method);
        SuspectRule suspects = core.ledger().suspectRule();
        JsonNode json;
        try {
            // Parsed once, on this event loop, and only when a rule reads the body.
            json = rule.readsBody() || (write && suspects.readsBody()) ? BodyJson.parse(request.content()) : null;
        } catch (BodyJson.BeyondLimits e) {
            refused(exchange, Problems.problem(400, "malformed-request", "the JSON body is past what the proxy"
                    + " reads exactly (a number over 1,000 characters, nesting over 1,000 deep)"));
            return;
        }
        OperationRule.Operation operation = rule.of(keyValue, request, target, json);
        ResourceLedger.Write sent = write ? new ResourceLedger.Write(method, exchange.path(),
                suspects.shape(method, exchange.path(), request.content(), json),
                exchange.firstByteAt().toEpochMilli()) : null;
        ProxiedRequest proxied = new ProxiedRequest(core.journal(), exchange.firstByteAt(), method, exchange.path(),
                operation);
        HttpMethod httpMethod = request.method();
        String origin = target;
        long generation = core.generations().current();
        faults.run(exchange, proxied, operation.name(), generation, hold -> {
            // Built before any delay: the client may leave meanwhile, and its request with it.
            FullHttpRequest outbound = forwarding.outbound(request, origin, exchange.remoteAddress());
            if (keyValue != null && !List.of(keyValue).equals(request.headers().getAll(rule.header()))) {
                // Values that named one key (two lines, "k, k") go upstream as one, so it too reads one key.
                outbound.headers().set(rule.header(), keyValue);
            }
            CompletableFuture<Reply> reply = new CompletableFuture<>();
            exchange.schedule(hold, () -> {
                if (!core.generations().isCurrent(generation)) {
                    // A reset outlived the hold: the request belongs to a test that is over; never forward it.
                    outbound.release();
                    reply.completeExceptionally(new ResetGenerations.Outdated());
                    return;
                }
                core.upstream().send(exchange.loop(), outbound).thenAccept(result -> {
                    proxied.upstream(result);
                    try {
                        reply.complete(core.generations().write(generation,
                                () -> replyFor(result, httpMethod, operation.name(), sent)));
                    } catch (RuntimeException e) {
                        reply.completeExceptionally(e);
                    }
                });
            });
            return reply;
        });
    }

    /** The path of an origin-form target: up to its query or fragment. */
    private static String path(String target) {
        int end = target.length();
        for (char stop : new char[] {'?', '#'}) {
            int at = target.indexOf(stop);
            if (at >= 0 && at < end) {
                end = at;
            }
        }
        return target.substring(0, end);
    }

    /** Journaled like any request, with no operation: its body never came whole, or it was refused before it. */
    @Override
    public void refused(Exchange exchange, Reply problem) {
        new ProxiedRequest(core.journal(), exchange.firstByteAt(), exchange.method(), exchange.path(), null)
                .refuse(exchange, problem);
    }

    @Override
    public String loggablePath(String path) {
        return LogSafe.path(path);
    }

    /**
     * The upstream's answer for the client, marked with what it created; or the problem its failure is.
     *
     * @param sent the write, for the ledger; null for a method that creates nothing
     */
    private Reply replyFor(UpstreamResult result, HttpMethod method, String operation, ResourceLedger.Write sent) {
        if (result instanceof UpstreamResult.Answer answer) {
            Reply reply = Forwarding.reply(answer, method);
            if (sent == null) {
                return reply;
            }
            ResourceLedger.Mark mark = core.ledger().record(operation, true, answer, core.created().idIn(answer),
                    sent);
            return reply.withSeat(mark.resource(), mark.created());
        }
        UpstreamError error = ((UpstreamResult.Failure) result).error();
        if (sent != null && error.mayHaveActed()) {
            // It may have reached the upstream and acted: the operation counts, though no answer names a resource.
            core.ledger().record(operation, true, null, null);
        }
        Reply problem = Problems.problem(error.status(), error.slug(), error.detail());
        return error == UpstreamError.IN_FLIGHT_LIMIT ? problem.withHeader(HttpHeaderNames.RETRY_AFTER, 1) : problem;
    }

    /** {@code GET /__admin/ledger} on a proxy. */
    static ObjectNode ledgerJson(ProxyLedger ledger) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("kind", "proxy");
        node.put("operations", ledger.operations());
        node.put("created", ledger.created());
        ArrayNode array = node.putArray("duplicates");
        for (ProxyLedger.Duplicate d : ledger.duplicates()) {
            ObjectNode item = array.addObject();
            item.put("operation", d.operation());
            ArrayNode ids = item.putArray("created");
            d.created().forEach(ids::add);
        }
        ArrayNode suspects = node.putArray("suspected");
        for (ProxyLedger.Suspected group : ledger.suspected()) {
            ObjectNode item = suspects.addObject();
            item.put("method", group.method());
            item.put("path", group.path());
            ArrayNode operations = item.putArray("operations");
            group.operations().forEach(operations::add);
            ArrayNode ids = item.putArray("created");
            group.created().forEach(ids::add);
        }
        return node;
    }
}
