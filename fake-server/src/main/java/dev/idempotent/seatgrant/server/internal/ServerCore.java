package dev.idempotent.seatgrant.server.internal;

import dev.idempotent.seatgrant.server.ReplayStatus;
import dev.idempotent.seatgrant.server.internal.store.SeatStore;
import java.time.Clock;
import java.util.concurrent.ExecutorService;

/**
 * Everything a request handler needs, wired once per server: the store, the planner, the journal and the
 * settings. Immutable; the parts it holds are themselves thread-safe.
 *
 * @param adminToken  nullable: without it the admin API answers loopback clients only
 * @param generations which requests a reset has outlived; shared with {@link #grants()}
 */
public record ServerCore(
        SeatStore store,
        GrantService grants,
        FaultPlanner planner,
        Journal journal,
        Clock clock,
        ExecutorService dbExecutor,
        ReplayStatus replayStatus,
        boolean requireKey,
        String adminToken,
        long defaultHangMs,
        ResetGenerations generations) {

    /**
     * Empties the seats, the keys, the journal and the plan: what {@code POST /__admin/reset} does. Requests still in
     * flight are cut off first ({@link ResetGenerations}), so nothing of theirs lands after the reset.
     */
    public void reset() {
        generations.advance();
        store.reset();
        journal.clear();
        planner.reset();
    }

    @Override
    public String toString() {
        return "ServerCore[replayStatus=" + replayStatus + ", requireKey=" + requireKey + "]";
    }
}
