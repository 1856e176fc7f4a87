// INTERVIEW MATERIAL: a regeneration of the take-home's agent-written worker that "fixes" duplicate seats with
// a process-local map of requestIds. Run it in the incident lab; do not copy it. Packet: docs/packets/seat-grant/.
package dev.idempotent.seatgrant.worker.variants;

import dev.idempotent.seatgrant.worker.SeatRequested;
import java.net.URI;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Remembers every requestId this process has started in memory, skips any it has seen, and POSTs once with
 * no key and no retry (the agent's reasoning: the retry loop made the duplicates, so stop retrying and dedupe).
 *
 * <p>Within one process it looks correct: a redelivery after a lost answer is skipped. The memory dies with the
 * process. After a restart the bus redelivers what was in flight, the new process has never seen those
 * requestIds, and it POSTs them again: a second seat for every grant whose ack was lost in the crash.
 *
 * <p>It has a second, quieter defect: the requestId is marked seen before the POST, so when a POST fails before
 * the server committed anything (a 503, a refused connection), the redelivery is skipped as a duplicate and the
 * grant never happens. The lab counts such an event as failed: acknowledged with no seat behind it.
 */
public final class LocalMapWorker implements GrantHandler {

    private static final Logger log = LoggerFactory.getLogger(LocalMapWorker.class);

    private final BareSeatsApi api;
    private final Set<String> seen = ConcurrentHashMap.newKeySet();

    /** @param baseUri the seat API's base URI */
    public LocalMapWorker(URI baseUri) {
        this.api = new BareSeatsApi(baseUri);
    }

    @Override
    public Handled handle(SeatRequested event) throws Exception {
        if (!seen.add(event.requestId())) {
            log.info("skipping duplicate {}", event.requestId());
            return Handled.REPLAYED;
        }
        BareSeatsApi.Response res = api.postGrant(event);
        if (!res.ok()) {
            throw new IllegalStateException("grant_failed:" + res.status());
        }
        log.info("granted {}", event.requestId());
        return Handled.GRANTED;
    }
}
