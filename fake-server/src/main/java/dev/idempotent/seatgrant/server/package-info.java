/**
 * A runnable seat-grant server that commits a grant and then loses the answer, on demand.
 *
 * <p>{@link dev.idempotent.seatgrant.server.FakeSeatServer} starts it in-process (tests, the incident lab);
 * {@link dev.idempotent.seatgrant.server.Main} runs it from the command line. A
 * {@link dev.idempotent.seatgrant.server.FaultPlan} says which requests lose their answer and how; the
 * {@linkplain dev.idempotent.seatgrant.server.JournalEntry journal} and the
 * {@linkplain dev.idempotent.seatgrant.server.Ledger ledger} show what happened.
 *
 * <p>Null rules: parameters and return values are never null unless a method or record component says
 * "nullable" (optional fault-rule selectors and optional journal fields are). Passing null where it is not
 * allowed throws {@link java.lang.NullPointerException}.
 */
package dev.idempotent.seatgrant.server;
