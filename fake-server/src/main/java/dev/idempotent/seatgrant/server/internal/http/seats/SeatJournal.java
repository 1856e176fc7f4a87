package dev.idempotent.seatgrant.server.internal.http.seats;

import dev.idempotent.seatgrant.server.Fault;
import dev.idempotent.seatgrant.server.JournalEntry;
import dev.idempotent.seatgrant.server.internal.Journal;
import dev.idempotent.seatgrant.server.internal.http.Exchange;
import dev.idempotent.seatgrant.server.internal.http.LogSafe;
import dev.idempotent.seatgrant.server.internal.http.Reply;
import dev.idempotent.seatgrant.server.internal.http.faults.FaultRunner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One journal entry and one log line per seat-API request: an answered request's entry is recorded when its
 * answer is chosen and settled once the write completes; a struck fault's entry is recorded settled. Thread-safe.
 */
final class SeatJournal {

    private static final Logger LOG = LoggerFactory.getLogger(LogSafe.REQUEST_LOG);

    private final Journal journal;

    SeatJournal(Journal journal) {
        this.journal = journal;
    }

    /** Answers a request the fault plan was never asked about (refused as bad input, or not found). */
    void answer(Exchange exchange, JournalDraft draft, Reply reply) {
        answer(exchange, draft, 0, reply, null);
    }

    /** Journals the answer ({@code fault} nullable: none), then writes it. */
    void answer(Exchange exchange, JournalDraft draft, int attempt, Reply reply, Fault fault) {
        long seq = record(draft, draft.entry(attempt, fault, reply.committed(), reply.seatId(), reply.status()), false);
        exchange.answer(reply, answeredMs -> journal.settle(seq, answeredMs));
    }

    /** {@code draft} as the fault runner sees it: matched by its method and API path, journaled here. */
    FaultRunner.Journaled of(JournalDraft draft) {
        return new FaultRunner.Journaled() {
            @Override
            public String method() {
                return draft.method();
            }

            @Override
            public String path() {
                return draft.path();
            }

            @Override
            public String loggablePath() {
                return draft.loggablePath();
            }

            @Override
            public void answer(Exchange exchange, int attempt, Fault fault, Reply reply) {
                SeatJournal.this.answer(exchange, draft, attempt, reply, fault);
            }

            @Override
            public void struck(int attempt, Fault fault, Reply done) {
                SeatJournal.this.struck(draft, attempt, fault, done != null && done.committed(),
                        done == null ? null : done.seatId());
            }
        };
    }

    /** Journals a fault that replaced the answer: nothing will be written, so the entry is settled at once. */
    void struck(JournalDraft draft, int attempt, Fault fault, boolean committed, String seatId) {
        record(draft, draft.entry(attempt, fault, committed, seatId, null), true);
    }

    private long record(JournalDraft draft, JournalEntry entry, boolean settled) {
        long seq = journal.record(entry, settled);
        if (LOG.isDebugEnabled()) { // not otherwise: the loggable path is a regular expression's work per request
            LOG.debug("{} {} -> {} fault={} committed={}", entry.method(), draft.loggablePath(), entry.status(),
                    entry.fault(), entry.committed());
        }
        return seq;
    }
}
