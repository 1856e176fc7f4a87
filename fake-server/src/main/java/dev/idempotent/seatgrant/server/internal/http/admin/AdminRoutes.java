package dev.idempotent.seatgrant.server.internal.http.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.idempotent.seatgrant.server.FaultPlan;
import dev.idempotent.seatgrant.server.InvalidFaultPlanException;
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
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admin API under {@code /__admin}: health, the fault plan, the journal, the ledger, reset and the incident
 * page. Never faulted, never journaled, and the same in front of any API: it knows the API behind it only
 * through a {@link Backing}. {@link #inFrontOf} puts it before that API's routes.
 *
 * <p>Who may use it, by which name and from which page is {@link AdminAccess}'s to decide, before anything
 * else. Thread-safe. Store calls and the journal's JSON are made on the backing's executor, never on the event
 * loop; the journal is streamed a part at a time ({@link JournalStream}).
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
     * @param access     who may use the admin API, by which name, from which page ({@link AdminAccess})
     * @param executor   where store calls run and the journal's JSON is made
     * @param scenarios  how {@code POST /__admin/faults} with {@code {"scenario": NAME}} loads a shipped scenario
     *                   (a proxy aims it at its route); it throws {@code IllegalArgumentException} for no such name
     */
    public record Backing(Journal journal, FaultPlanner faults, Supplier<? extends JsonNode> ledger, Runnable reset,
                          AdminAccess access, Executor executor, Function<String, FaultPlan> scenarios) {

        /** The shipped scenarios as they are, on {@code POST /v1/seats}. */
        public Backing(Journal journal, FaultPlanner faults, Supplier<? extends JsonNode> ledger, Runnable reset,
                       AdminAccess access, Executor executor) {
            this(journal, faults, ledger, reset, access, executor, FaultPlan::scenario);
        }
    }

    /** How many entries a page of {@code GET /__admin/requests?after=SEQ} holds unless {@code limit} says. */
    public static final int DEFAULT_PAGE = 1_000;
    /** The most entries a page may hold. */
    public static final int MAX_PAGE = 10_000;

    private final Backing backing;

    public AdminRoutes(Backing backing) {
        this.backing = backing;
    }

    /** True for the admin API's paths. */
    public static boolean owns(String path) {
        return path.equals(PREFIX) || path.startsWith(PREFIX + "/");
    }

    /** Routes that send the admin API's paths here and every other path to {@code api}. */
    public Routes inFrontOf(Routes api) {
        return inFrontOf(api, exchange -> owns(exchange.path()));
    }

    /**
     * Routes that send the requests {@code isAdmin} picks here and every other one to {@code api}; a request refused
     * before it was whole goes by its path ({@link #owns}).
     */
    public Routes inFrontOf(Routes api, Predicate<Exchange> isAdmin) {
        return new AdminFirst(this, api, isAdmin);
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
        // The page holds no data, so it needs no token; everything it shows comes through the full checks.
        boolean page = AdminPage.owns(uri.path());
        Optional<Reply> refused = backing.access().refusal(exchange, page);
        if (refused.isPresent()) {
            exchange.answer(refused.get());
            return;
        }
        if (page) {
            exchange.answer(AdminPage.reply(method, uri.path()));
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
        String limit = uri.first("limit");
        if (after == null) {
            if (limit != null) {
                exchange.answer(Problems.problem(400, "invalid-query", "limit goes with after: ?after=0&limit=N"));
                return;
            }
            // The shape the tools have always read, streamed: a full journal is tens of megabytes of JSON.
            exchange.stream(200, "application/json", JournalStream.whole(backing.journal(), backing.executor()));
            return;
        }
        long seq = wholeNumber(after, Long.MAX_VALUE);
        if (seq < 0) {
            exchange.answer(Problems.problem(400, "invalid-query", "after must be a journal seq, 0 or more"));
            return;
        }
        long size = limit == null ? DEFAULT_PAGE : wholeNumber(limit, MAX_PAGE);
        if (size < 1) {
            exchange.answer(Problems.problem(400, "invalid-query", "limit must be a whole number from 1 to " + MAX_PAGE));
            return;
        }
        exchange.stream(200, "application/json",
                JournalStream.page(backing.journal(), backing.executor(), seq, (int) size));
    }

    /** {@code text} as a whole number from 0 to {@code max}, written in digits only; -1 for anything else. */
    private static long wholeNumber(String text, long max) {
        if (text.isEmpty() || text.length() > 19 || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return -1;
        }
        try {
            long n = Long.parseLong(text);
            return n <= max ? n : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
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

    /** Answers, on the connection's event loop, with a reply built elsewhere (a store call). */
    private static void answerWhenDone(Exchange exchange, CompletableFuture<Reply> work,
                                       Function<Throwable, Reply> onFailure) {
        work.whenComplete((reply, failure) -> exchange.loop().execute(
                () -> exchange.answer(failure == null ? reply : onFailure.apply(failure))));
    }

    /** The admin API first, then the API behind it. */
    private static final class AdminFirst implements Routes {
        private final AdminRoutes admin;
        private final Routes api;
        private final Predicate<Exchange> isAdmin;

        AdminFirst(AdminRoutes admin, Routes api, Predicate<Exchange> isAdmin) {
            this.admin = admin;
            this.api = api;
            this.isAdmin = isAdmin;
        }

        @Override
        public void serve(Exchange exchange) {
            (isAdmin.test(exchange) ? admin : api).serve(exchange);
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
