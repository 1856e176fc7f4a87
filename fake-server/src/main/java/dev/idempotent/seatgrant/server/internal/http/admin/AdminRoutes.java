package dev.idempotent.seatgrant.server.internal.http.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.idempotent.seatgrant.server.FaultPlan;
import dev.idempotent.seatgrant.server.InvalidFaultPlanException;
import dev.idempotent.seatgrant.server.JournalEntry;
import dev.idempotent.seatgrant.server.internal.FaultPlanner;
import dev.idempotent.seatgrant.server.internal.Journal;
import dev.idempotent.seatgrant.server.internal.http.Exchange;
import dev.idempotent.seatgrant.server.internal.http.LogSafe;
import dev.idempotent.seatgrant.server.internal.http.Problems;
import dev.idempotent.seatgrant.server.internal.http.Reply;
import dev.idempotent.seatgrant.server.internal.http.Routes;
import dev.idempotent.seatgrant.server.internal.http.UriParts;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin API under {@code /__admin}: health, the fault plan, the journal, the ledger, reset and the incident
 * page. Never faulted, never journaled, and the same in front of any API: it knows the API behind it only
 * through a {@link Backing}. {@link #inFrontOf} puts it before that API's routes.
 *
 * <p>Thread-safe. Store calls and journal renders run on the backing's executor, never on the event loop.
 */
public final class AdminRoutes implements Routes {

    /** Where the admin API lives, whatever base path the API behind it has. */
    public static final String PREFIX = "/__admin";

    private static final Logger LOG = LoggerFactory.getLogger(LogSafe.REQUEST_LOG);

    /**
     * What the admin API reads and changes.
     *
     * @param journal    what {@code GET /__admin/requests} lists
     * @param faults     the plan {@code /__admin/faults} reads and replaces
     * @param ledger     the JSON {@code GET /__admin/ledger} answers, read now; it may read a store, so it runs on
     *                   {@code executor}
     * @param reset      what {@code POST /__admin/reset} does (empty the store, the journal and the plan); runs on
     *                   {@code executor}
     * @param adminToken nullable: without it, only loopback clients may use the admin API
     * @param executor   where store calls and journal renders run
     * @param scenarios  how {@code POST /__admin/faults} with {@code {"scenario": NAME}} loads a shipped scenario
     *                   (a proxy aims it at its route); it throws {@code IllegalArgumentException} for no such name
     */
    public record Backing(Journal journal, FaultPlanner faults, Supplier<? extends JsonNode> ledger, Runnable reset,
                          String adminToken, Executor executor, Function<String, FaultPlan> scenarios) {

        /** The shipped scenarios as they are, on {@code POST /v1/seats}. */
        public Backing(Journal journal, FaultPlanner faults, Supplier<? extends JsonNode> ledger, Runnable reset,
                       String adminToken, Executor executor) {
            this(journal, faults, ledger, reset, adminToken, executor, FaultPlan::scenario);
        }
    }

    private final Backing backing;
    private final AdminAccess access;

    public AdminRoutes(Backing backing) {
        this.backing = backing;
        this.access = new AdminAccess(backing.adminToken());
    }

    /** True for the admin API's paths. */
    public static boolean owns(String path) {
        return path.equals(PREFIX) || path.startsWith(PREFIX + "/");
    }

    /** Routes that send the admin API's paths here and every other path to {@code api}. */
    public Routes inFrontOf(Routes api) {
        return new AdminFirst(this, api);
    }

    @Override
    public String loggablePath(String path) {
        return LogSafe.path(path);
    }

    @Override
    public void serve(Exchange exchange) {
        UriParts uri;
        try {
            uri = exchange.uri();
        } catch (UriParts.Invalid e) {
            exchange.answer(Problems.problem(400, "invalid-query", e.getMessage()));
            return;
        }
        HttpMethod method = exchange.request().method();
        if (AdminPage.owns(uri.path())) {
            // The page holds no data, so it needs no token; everything it shows comes through the checks below.
            exchange.answer(AdminPage.reply(method, uri.path()));
            return;
        }
        Optional<Reply> denied = access.denied(exchange);
        if (denied.isPresent()) {
            exchange.answer(denied.get());
            return;
        }
        switch (uri.path()) {
            case PREFIX + "/health" -> {
                if (method.equals(HttpMethod.GET)) {
                    exchange.answer(Reply.json(200, JsonNodeFactory.instance.objectNode().put("status", "ok")));
                } else {
                    exchange.answer(notAllowed("GET"));
                }
            }
            case PREFIX + "/faults" -> faults(exchange, method);
            case PREFIX + "/requests" -> requests(exchange, method, uri);
            case PREFIX + "/ledger" -> {
                if (method.equals(HttpMethod.GET)) {
                    async(exchange, () -> Reply.json(200, backing.ledger().get()));
                } else {
                    exchange.answer(notAllowed("GET"));
                }
            }
            case PREFIX + "/reset" -> {
                if (method.equals(HttpMethod.POST)) {
                    async(exchange, () -> {
                        backing.reset().run();
                        return Reply.empty(204);
                    });
                } else {
                    exchange.answer(notAllowed("POST"));
                }
            }
            default -> exchange.answer(Problems.problem(404, "not-found", "no such admin resource"));
        }
    }

    private void faults(Exchange exchange, HttpMethod method) {
        if (method.equals(HttpMethod.GET)) {
            exchange.answer(FaultPlanJson.planReply(backing.faults().plan()));
        } else if (method.equals(HttpMethod.POST) || method.equals(HttpMethod.PUT)) {
            try {
                FaultPlan plan = FaultPlanJson.planFrom(exchange.request(), backing.scenarios());
                backing.faults().replace(plan);
                exchange.answer(FaultPlanJson.planReply(plan));
            } catch (InvalidFaultPlanException e) {
                exchange.answer(Problems.problem(400, "invalid-fault-plan", e.getMessage()));
            }
        } else if (method.equals(HttpMethod.DELETE)) {
            backing.faults().replace(FaultPlan.none());
            exchange.answer(Reply.empty(204));
        } else {
            exchange.answer(notAllowed("GET, POST, DELETE"));
        }
    }

    private void requests(Exchange exchange, HttpMethod method, UriParts uri) {
        if (!method.equals(HttpMethod.GET)) {
            exchange.answer(notAllowed("GET"));
            return;
        }
        String after = uri.first("after");
        if (after == null) {
            journalReply(exchange, () -> backing.journal().snapshot());
            return;
        }
        long seq;
        try {
            seq = Long.parseLong(after);
        } catch (NumberFormatException e) {
            seq = -1;
        }
        if (seq < 0 || !after.matches("[0-9]+")) {
            exchange.answer(Problems.problem(400, "invalid-query", "after must be a journal seq, 0 or more"));
            return;
        }
        long from = seq;
        // after=0 is the whole journal too.
        journalReply(exchange, () -> backing.journal().after(from));
    }

    private static Reply notAllowed(String allow) {
        return Problems.problem(405, "method-not-allowed", "allowed: " + allow)
                .withHeader(HttpHeaderNames.ALLOW, allow);
    }

    /** Runs an admin store call on the executor; a failure is a 503, since the store is what failed. */
    private void async(Exchange exchange, Supplier<Reply> work) {
        answerWhenDone(exchange, CompletableFuture.supplyAsync(work, backing.executor()), failure -> {
            LOG.warn("admin store call failed: {}", LogSafe.rootCause(failure));
            return Problems.problem(503, "store-unavailable", "the seat store failed");
        });
    }

    /**
     * Renders the journal (or a part of it) off the event loop, one render at a time across the server; a failure
     * is the server's own, a 500.
     */
    private void journalReply(Exchange exchange, Supplier<List<JournalEntry>> entries) {
        answerWhenDone(exchange, backing.journal().renderInTurn(
                () -> Reply.json(200, JournalJson.journal(entries.get(), backing.journal().forwarded())),
                backing.executor()), failure -> {
                    LOG.error("unexpected failure rendering the journal: {}", LogSafe.describe(failure));
                    return Problems.problem(500, "internal", "the server failed; see its log");
                });
    }

    /**
     * Answers, on the connection's event loop, with a reply built elsewhere: store calls, and replies that are not
     * store calls but may be large (the whole journal: tens of megabytes of JSON), so the loop keeps serving its
     * other connections meanwhile.
     */
    private static void answerWhenDone(Exchange exchange, CompletableFuture<Reply> work,
                                       Function<Throwable, Reply> onFailure) {
        work.whenComplete((reply, failure) -> exchange.loop().execute(
                () -> exchange.answer(failure == null ? reply : onFailure.apply(failure))));
    }

    /** The admin API first, then the API behind it. */
    private static final class AdminFirst implements Routes {
        private final AdminRoutes admin;
        private final Routes api;

        AdminFirst(AdminRoutes admin, Routes api) {
            this.admin = admin;
            this.api = api;
        }

        @Override
        public void serve(Exchange exchange) {
            (owns(exchange.path()) ? admin : api).serve(exchange);
        }

        @Override
        public void refused(Exchange exchange, Reply problem) {
            (owns(exchange.path()) ? admin : api).refused(exchange, problem);
        }

        @Override
        public String loggablePath(String path) {
            return (owns(path) ? admin : api).loggablePath(path);
        }
    }
}
