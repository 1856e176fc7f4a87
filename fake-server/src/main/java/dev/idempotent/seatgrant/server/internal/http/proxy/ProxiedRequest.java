package dev.idempotent.seatgrant.server.internal.http.proxy;

import dev.idempotent.seatgrant.server.Fault;
import dev.idempotent.seatgrant.server.JournalEntry;
import dev.idempotent.seatgrant.server.internal.Journal;
import dev.idempotent.seatgrant.server.internal.http.Exchange;
import dev.idempotent.seatgrant.server.internal.http.LogSafe;
import dev.idempotent.seatgrant.server.internal.http.Reply;
import dev.idempotent.seatgrant.server.internal.http.faults.FaultRunner;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One request through the proxy, as the fault runner matches it and as the journal records it: one entry and one
 * log line each. What the upstream answered is filled in once, when the forwarded call ends, before the entry is
 * written; so an entry keeps the upstream's status even when a fault kept it from the client.
 *
 * <p>Touched on its connection's event loop only.
 */
final class ProxiedRequest implements FaultRunner.Journaled {

    private static final Logger LOG = LoggerFactory.getLogger(LogSafe.REQUEST_LOG);

    private final Journal journal;
    private final Instant at;
    private final String method;
    private final String path;
    private final OperationRule.Operation operation;
    private Integer upstreamStatus;
    private UpstreamError upstreamError;

    /** @param operation nullable: a request refused before its operation could be read */
    ProxiedRequest(Journal journal, Instant at, String method, String path, OperationRule.Operation operation) {
        this.journal = journal;
        this.at = at;
        this.method = method;
        this.path = path;
        this.operation = operation;
    }

    /** Records what the upstream gave back. */
    void upstream(UpstreamResult result) {
        if (result instanceof UpstreamResult.Answer answer) {
            upstreamStatus = answer.status();
        } else if (result instanceof UpstreamResult.Failure failure) {
            upstreamError = failure.error();
        }
    }

    @Override
    public String method() {
        return method;
    }

    @Override
    public String path() {
        return path;
    }

    @Override
    public String loggablePath() {
        return LogSafe.path(path);
    }

    /** Answers a request the fault plan was never asked about (refused before it could be forwarded). */
    void refuse(Exchange exchange, Reply problem) {
        answer(exchange, 0, null, problem);
    }

    @Override
    public void answer(Exchange exchange, int attempt, Fault fault, Reply reply) {
        long seq = record(entry(attempt, fault, reply.committed(), reply.seatId(), reply.status()), false);
        exchange.answer(reply, answeredMs -> journal.settle(seq, answeredMs));
    }

    @Override
    public void struck(int attempt, Fault fault, Reply done) {
        record(entry(attempt, fault, done != null && done.committed(), done == null ? null : done.seatId(), null),
                true);
    }

    private JournalEntry entry(int attempt, Fault fault, boolean created, String resource, Integer status) {
        return new JournalEntry(0, at, method, path, operation == null ? null : operation.key(), null, null, attempt,
                fault == null ? null : fault.wireName(), created, resource, status, false, null, false,
                operation == null ? null : operation.name(), upstreamStatus,
                upstreamError == null ? null : upstreamError.wireName());
    }

    private long record(JournalEntry entry, boolean settled) {
        long seq = journal.record(entry, settled);
        LOG.debug("{} {} -> {} fault={} upstream={}", method, loggablePath(), entry.status(), entry.fault(),
                upstreamError != null ? upstreamError.wireName() : upstreamStatus);
        return seq;
    }
}
