// INTERVIEW MATERIAL: a regeneration of the take-home's agent-written worker that adds the Idempotency-Key and
// stops there. Run it in the incident lab; do not copy it. Packet: docs/packets/seat-grant/.
package dev.idempotent.seatgrant.worker.variants;

import dev.idempotent.seatgrant.worker.SeatRequested;
import dev.idempotent.seatgrant.worker.Sleeper;
import java.net.URI;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends {@code Idempotency-Key: requestId}, but keeps the fixture's {@code !res.ok} check, so the server's 409
 * replay of the seat it already created is one more error in the sleep loop.
 *
 * <p>It never creates a second seat: the key works. It loses the event instead: after a lost answer every
 * retry and every redelivery is answered 409, the loop runs out, and a grant that exists is reported failed
 * (and, on a real bus, dead-lettered). The agent failure mode "treating 409 as a hard failure".
 */
public final class ConflictIsFailureWorker implements GrantHandler {

    private static final Logger log = LoggerFactory.getLogger(ConflictIsFailureWorker.class);

    private final BareSeatsApi api;
    private final AgentRetryLoop loop;

    /**
     * @param baseUri the seat API's base URI
     * @param sleeper how the inherited retry loop waits
     */
    public ConflictIsFailureWorker(URI baseUri, Sleeper sleeper) {
        this.api = new BareSeatsApi(baseUri);
        this.loop = new AgentRetryLoop(sleeper);
    }

    @Override
    public Handled handle(SeatRequested event) throws Exception {
        return loop.run(event.requestId(), () -> {
            BareSeatsApi.Response res = api.postGrantWithKey(event);
            if (!res.ok()) {
                throw new IllegalStateException("grant_failed:" + res.status());
            }
            log.info("granted {}", event.requestId());
            return Handled.GRANTED;
        });
    }
}
