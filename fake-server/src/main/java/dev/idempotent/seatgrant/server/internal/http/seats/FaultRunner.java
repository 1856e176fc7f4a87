package dev.idempotent.seatgrant.server.internal.http.seats;

import dev.idempotent.seatgrant.server.Fault;
import dev.idempotent.seatgrant.server.FaultRule;
import dev.idempotent.seatgrant.server.internal.FaultPlanner;
import dev.idempotent.seatgrant.server.internal.http.Exchange;
import dev.idempotent.seatgrant.server.internal.http.LogSafe;
import dev.idempotent.seatgrant.server.internal.http.Problems;
import dev.idempotent.seatgrant.server.internal.http.Reply;
import io.netty.handler.codec.http.HttpHeaderNames;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a valid seat-API request's work under the fault plan: asks the plan once and obeys. A before-commit fault
 * replaces the work; otherwise the work runs (held for a {@code delay}) and an after-commit fault replaces its
 * answer. Every outcome is journaled. Thread-safe; waits are timers on the connection's event loop.
 */
final class FaultRunner {

    private static final Logger LOG = LoggerFactory.getLogger(LogSafe.REQUEST_LOG);

    private final FaultPlanner planner;
    private final SeatJournal journal;
    private final long defaultHangMs;

    FaultRunner(FaultPlanner planner, SeatJournal journal, long defaultHangMs) {
        this.planner = planner;
        this.journal = journal;
        this.defaultHangMs = defaultHangMs;
    }

    /**
     * @param identity what makes two requests the same attempt chain (a key, a body hash, a GET's target)
     * @param work     the request's work, given how long to hold it (0 for none); its reply may say it committed
     */
    void run(Exchange exchange, JournalDraft draft, String identity, LongFunction<CompletableFuture<Reply>> work) {
        FaultPlanner.Decision decision = planner.decide(draft.method(), draft.path(), identity);
        FaultRule rule = decision.rule();
        int attempt = decision.attempt();
        if (rule != null && rule.fault().phase() == Fault.Phase.BEFORE_COMMIT && rule.fault() != Fault.DELAY) {
            exchange.schedule(delayOf(rule), () -> strike(exchange, draft, attempt, rule, null));
            return;
        }
        long hold = rule != null && rule.fault() == Fault.DELAY ? delayOf(rule) : 0;
        work.apply(hold).whenComplete((reply, failure) -> exchange.onLoop(() -> {
            Reply answer = reply;
            if (failure != null) {
                LOG.warn("store call failed for {} {}: {}", draft.method(), draft.loggablePath(),
                        LogSafe.rootCause(failure));
                answer = Problems.problem(503, "store-unavailable", "the seat store failed; retry later")
                        .withHeader(HttpHeaderNames.RETRY_AFTER, 1);
            }
            if (rule != null && rule.fault().phase() == Fault.Phase.AFTER_COMMIT) {
                Reply committed = answer;
                long wait = rule.fault() == Fault.HANG_AFTER_COMMIT ? 0 : delayOf(rule);
                exchange.schedule(wait, () -> strike(exchange, draft, attempt, rule, committed));
            } else {
                journal.answer(exchange, draft, attempt, answer, rule == null ? null : rule.fault());
            }
        }));
    }

    /** Carries out a fault. {@code done} is what the server did first (nullable: a before-commit fault). */
    private void strike(Exchange exchange, JournalDraft draft, int attempt, FaultRule rule, Reply done) {
        boolean committed = done != null && done.committed();
        String seatId = done == null ? null : done.seatId();
        Fault fault = rule.fault();
        switch (fault) {
            case RESET, RESET_AFTER_COMMIT -> {
                journal.struck(draft, attempt, fault, committed, seatId);
                exchange.reset();
            }
            case CLOSE, CLOSE_AFTER_COMMIT -> {
                journal.struck(draft, attempt, fault, committed, seatId);
                exchange.close();
            }
            case HANG_AFTER_COMMIT -> {
                journal.struck(draft, attempt, fault, committed, seatId);
                exchange.holdOpen(rule.delayMs() != null ? rule.delayMs() : defaultHangMs);
            }
            case STATUS, STATUS_AFTER_COMMIT -> {
                Reply reply = Problems.problem(rule.status(), "injected-fault",
                        "the fault plan answered this request with " + rule.status());
                if (rule.retryAfter() != null) {
                    reply = reply.withHeader(HttpHeaderNames.RETRY_AFTER, rule.retryAfter());
                }
                journal.answer(exchange, draft, attempt, reply.withSeat(seatId, committed), fault);
            }
            case DELAY -> throw new IllegalStateException("delay is not a striking fault");
        }
    }

    private static long delayOf(FaultRule rule) {
        return rule.delayMs() == null ? 0 : rule.delayMs();
    }
}
