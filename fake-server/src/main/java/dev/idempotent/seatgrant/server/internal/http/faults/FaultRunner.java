package dev.idempotent.seatgrant.server.internal.http.faults;

import dev.idempotent.seatgrant.server.Fault;
import dev.idempotent.seatgrant.server.FaultRule;
import dev.idempotent.seatgrant.server.internal.FaultPlanner;
import dev.idempotent.seatgrant.server.internal.ResetGenerations;
import dev.idempotent.seatgrant.server.internal.http.Exchange;
import dev.idempotent.seatgrant.server.internal.http.LogSafe;
import dev.idempotent.seatgrant.server.internal.http.Problems;
import dev.idempotent.seatgrant.server.internal.http.Reply;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.LongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a valid request's work under the fault plan: asks the plan once and obeys. A before-commit fault replaces
 * the work; otherwise the work runs (held for a {@code delay}) and an after-commit fault replaces its answer. The
 * work is whatever commits for the route: a grant in the seat store, a request forwarded to a proxy's upstream.
 * Every outcome goes to the route's {@link Journaled} request. Thread-safe; waits are timers on the connection's
 * event loop.
 */
public final class FaultRunner {

    private static final Logger LOG = LoggerFactory.getLogger(LogSafe.REQUEST_LOG);
    private static final Logger FAULTS = LoggerFactory.getLogger(LogSafe.FAULT_LOG);

    /** One request as its route matches it against the plan and journals its outcome. */
    public interface Journaled {

        /** The method the plan's rules match. */
        String method();

        /** The path the plan's rules match. */
        String path();

        /** The path as a log line may show it. */
        String loggablePath();

        /** Journals {@code reply} as the answer ({@code fault} nullable: none struck), then writes it. */
        void answer(Exchange exchange, int attempt, Fault fault, Reply reply);

        /**
         * Journals a fault that replaced the answer: nothing will be written.
         *
         * @param done what the work answered before the fault struck; null for a fault before the work
         */
        void struck(int attempt, Fault fault, Reply done);
    }

    private final FaultPlanner planner;
    private final long defaultHangMs;
    private final Function<Throwable, Reply> onWorkFailure;
    private final ResetGenerations generations;

    /**
     * @param defaultHangMs how long {@code hang-after-commit} holds a connection when its rule says nothing
     * @param onWorkFailure the answer when the work itself fails (the seat store: a 503)
     * @param generations   which requests a reset outlived: their connections are closed, their outcomes dropped
     */
    public FaultRunner(FaultPlanner planner, long defaultHangMs, Function<Throwable, Reply> onWorkFailure,
                       ResetGenerations generations) {
        this.planner = planner;
        this.defaultHangMs = defaultHangMs;
        this.onWorkFailure = onWorkFailure;
        this.generations = generations;
    }

    /**
     * @param identity   what makes two requests the same attempt chain (a key, a body hash, a GET's target)
     * @param generation the reset generation the request belongs to ({@link ResetGenerations#current()}, read by
     *                   the route when the request came whole): a later reset cuts it off
     * @param work       the request's work, given how long to hold it first (0 for none); its reply may say it
     *                   committed
     */
    public void run(Exchange exchange, Journaled request, String identity, long generation,
                    LongFunction<CompletableFuture<Reply>> work) {
        generations.begin(exchange, generation, exchange::abandon);
        FaultPlanner.Decision decision = planner.decide(request.method(), request.path(), identity);
        FaultRule rule = decision.rule();
        int attempt = decision.attempt();
        if (rule != null) {
            FAULTS.info("fault {} on {} {}, attempt {}", rule.fault().wireName(), request.method(),
                    request.loggablePath(), attempt);
        }
        if (rule != null && rule.fault().phase() == Fault.Phase.BEFORE_COMMIT && rule.fault() != Fault.DELAY) {
            exchange.schedule(delayOf(rule), () -> finish(exchange, request, generation,
                    () -> strike(exchange, request, attempt, rule, null)));
            return;
        }
        long hold = rule != null && rule.fault() == Fault.DELAY ? delayOf(rule) : 0;
        work.apply(hold).whenComplete((reply, failure) -> exchange.onLoop(() -> {
            if (!generations.isCurrent(generation)) {
                // A reset outlived this request: its outcome belongs to a test that is over.
                dropped(exchange, request);
                return;
            }
            Reply answer = reply;
            if (failure != null) {
                LOG.warn("the work behind {} {} failed: {}", request.method(), request.loggablePath(),
                        LogSafe.rootCause(failure));
                answer = onWorkFailure.apply(failure);
            }
            if (rule != null && rule.fault().phase() == Fault.Phase.AFTER_COMMIT) {
                Reply committed = answer;
                long wait = rule.fault() == Fault.HANG_AFTER_COMMIT ? 0 : delayOf(rule);
                exchange.schedule(wait, () -> finish(exchange, request, generation,
                        () -> strike(exchange, request, attempt, rule, committed)));
            } else {
                Reply done = answer;
                finish(exchange, request, generation,
                        () -> request.answer(exchange, attempt, rule == null ? null : rule.fault(), done));
            }
        }));
    }

    /**
     * Journals and answers, unless a reset has outlived the request since it began: then nothing is journaled and
     * its connection is closed. A reset waits for a journal entry under way, so it clears that one too.
     */
    private void finish(Exchange exchange, Journaled request, long generation, Runnable journalAndAnswer) {
        if (!generations.enter(generation)) {
            dropped(exchange, request);
            return;
        }
        generations.done(exchange);
        try {
            journalAndAnswer.run();
        } finally {
            generations.exit(generation);
        }
    }

    private void dropped(Exchange exchange, Journaled request) {
        generations.done(exchange);
        exchange.abandon();
        LOG.debug("{} {}: a reset outlived it; its outcome is dropped", request.method(), request.loggablePath());
    }

    /** Carries out a fault. {@code done} is what the work answered first (nullable: a before-commit fault). */
    private void strike(Exchange exchange, Journaled request, int attempt, FaultRule rule, Reply done) {
        Fault fault = rule.fault();
        switch (fault) {
            case RESET, RESET_AFTER_COMMIT -> {
                request.struck(attempt, fault, done);
                exchange.reset();
            }
            case CLOSE, CLOSE_AFTER_COMMIT -> {
                request.struck(attempt, fault, done);
                exchange.close();
            }
            case HANG_AFTER_COMMIT -> {
                request.struck(attempt, fault, done);
                exchange.holdOpen(rule.delayMs() != null ? rule.delayMs() : defaultHangMs);
            }
            case STATUS, STATUS_AFTER_COMMIT -> {
                Reply reply = Problems.problem(rule.status(), "injected-fault",
                        "the fault plan answered this request with " + rule.status());
                if (rule.retryAfter() != null) {
                    reply = reply.withHeader(HttpHeaderNames.RETRY_AFTER, rule.retryAfter());
                }
                boolean committed = done != null && done.committed();
                request.answer(exchange, attempt, fault, reply.withSeat(done == null ? null : done.seatId(),
                        committed));
            }
            case DELAY -> throw new IllegalStateException("delay is not a striking fault");
        }
    }

    private static long delayOf(FaultRule rule) {
        return rule.delayMs() == null ? 0 : rule.delayMs();
    }
}
