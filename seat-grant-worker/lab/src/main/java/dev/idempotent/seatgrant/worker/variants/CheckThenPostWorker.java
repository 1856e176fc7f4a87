// INTERVIEW MATERIAL: a regeneration of the take-home's agent-written worker that "fixes" duplicate seats by
// looking before it leaps. Run it in the incident lab; do not copy it. Packet: docs/packets/seat-grant/.
package dev.idempotent.seatgrant.worker.variants;

import dev.idempotent.seatgrant.worker.SeatRequested;
import dev.idempotent.seatgrant.worker.Sleeper;
import java.net.URI;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * GET the seats for the pair, POST only when there are none, no Idempotency-Key.
 *
 * <p>It survives a lost answer when deliveries come one at a time: the retry looks first and finds the seat
 * the lost POST committed. It does not survive two deliveries of one event at the same moment: both look,
 * both see nothing, both POST. Nothing on the server makes the check and the write one step, which is the
 * reviewer failure mode "GET-then-POST without a unique constraint".
 */
public final class CheckThenPostWorker implements GrantHandler {

    private static final Logger log = LoggerFactory.getLogger(CheckThenPostWorker.class);

    private final BareSeatsApi api;
    private final AgentRetryLoop loop;
    private final Consumer<SeatRequested> betweenCheckAndPost;

    /**
     * @param baseUri             the seat API's base URI
     * @param sleeper             how the inherited retry loop waits
     * @param betweenCheckAndPost runs after a check found nothing and before the POST; the lab uses it to line up
     *                            two deliveries of one event inside the race window that load finds by chance
     */
    public CheckThenPostWorker(URI baseUri, Sleeper sleeper, Consumer<SeatRequested> betweenCheckAndPost) {
        this.api = new BareSeatsApi(baseUri);
        this.loop = new AgentRetryLoop(sleeper);
        this.betweenCheckAndPost = betweenCheckAndPost;
    }

    @Override
    public Handled handle(SeatRequested event) throws Exception {
        return loop.run(event.requestId(), () -> {
            if (api.seatExists(event)) {
                log.info("already granted {}", event.requestId());
                return Handled.REPLAYED;
            }
            betweenCheckAndPost.accept(event);
            BareSeatsApi.Response res = api.postGrant(event);
            if (!res.ok()) {
                throw new IllegalStateException("grant_failed:" + res.status());
            }
            log.info("granted {}", event.requestId());
            return Handled.GRANTED;
        });
    }
}
