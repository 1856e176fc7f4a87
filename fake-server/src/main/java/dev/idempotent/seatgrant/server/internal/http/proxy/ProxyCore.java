package dev.idempotent.seatgrant.server.internal.http.proxy;

import dev.idempotent.seatgrant.server.internal.FaultPlanner;
import dev.idempotent.seatgrant.server.internal.Journal;
import dev.idempotent.seatgrant.server.internal.ResetGenerations;

/**
 * Everything the proxy's routes need, wired once per proxy. Immutable; the parts it holds are thread-safe.
 *
 * @param boundHost     the host the proxy was told to bind: a name by which an absolute-form target may name it
 * @param defaultHangMs how long {@code hang-after-commit} holds a connection when its rule says nothing
 * @param generations   which requests a reset has outlived
 */
public record ProxyCore(Journal journal, FaultPlanner planner, ResourceLedger ledger, Upstream upstream,
                        UpstreamTarget target, OperationRule operations, CreatedRule created, String boundHost,
                        long defaultHangMs, ResetGenerations generations) {

    /**
     * Empties the ledger, the journal and the plan (with its attempt counts): what {@code POST /__admin/reset} does.
     * Requests still in flight are cut off first ({@link ResetGenerations}), so nothing of theirs lands after it.
     */
    public void reset() {
        generations.advance();
        ledger.clear();
        journal.clear();
        planner.reset();
    }
}
