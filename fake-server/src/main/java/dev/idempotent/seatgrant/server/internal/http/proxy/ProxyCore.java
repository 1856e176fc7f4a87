package dev.idempotent.seatgrant.server.internal.http.proxy;

import dev.idempotent.seatgrant.server.internal.FaultPlanner;
import dev.idempotent.seatgrant.server.internal.Journal;

/**
 * Everything the proxy's routes need, wired once per proxy. Immutable; the parts it holds are thread-safe.
 *
 * @param boundHost     the host the proxy was told to bind: a name by which an absolute-form target may name it
 * @param defaultHangMs how long {@code hang-after-commit} holds a connection when its rule says nothing
 */
public record ProxyCore(Journal journal, FaultPlanner planner, ResourceLedger ledger, Upstream upstream,
                        UpstreamTarget target, OperationRule operations, CreatedRule created, String boundHost,
                        long defaultHangMs) {

    /** Empties the ledger, the journal and the plan (with its attempt counts): what {@code POST /__admin/reset} does. */
    public void reset() {
        ledger.clear();
        journal.clear();
        planner.reset();
    }
}
